/**
 * The first `end` UTF-16 code units of `text` — a string's length as JavaScript and the clients
 * count it, the unit of every budget — or one fewer where `end` falls inside a surrogate pair: a
 * cut text never ends in half an emoji, a lone surrogate that JSON carries as an invalid character.
 */
export function textHead(text: string, end: number): string {
  const at = Math.max(0, Math.min(end, text.length));
  const c = text.charCodeAt(at - 1);
  return text.slice(0, at > 0 && at < text.length && c >= 0xd800 && c <= 0xdbff ? at - 1 : at);
}
