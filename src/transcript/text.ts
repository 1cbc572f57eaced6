/**
 * The text primitives of rendering: escaping, so a transcript cannot forge the renderer's tags,
 * and trimming, which keeps the head and tail and says how much was cut.
 */

/** Text between tags: `<` becomes `&lt;`, so no line of a transcript can open or close a tag. */
export function escapeText(text: string): string {
  return text.replaceAll('<', '&lt;');
}

/** An attribute value: quoted by the caller; `&`, `"`, `<`, `>` as entities, line breaks as spaces. */
export function escapeAttr(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('"', '&quot;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replace(/[\r\n\t]+/g, ' ');
}

/** `12,345`. */
function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** The marker that stands where `n` characters were cut. */
export function trimMarker(n: number): string {
  return `[… ${formatCount(n)} characters trimmed …]`;
}

/**
 * `text` at most `max` characters long: its head and tail around a `[… N characters trimmed …]`
 * marker (the marker counts towards `max`). Below the marker's own length, just `[…]` (or nothing).
 */
export function trimMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const keep = max - trimMarker(text.length).length - 2;
  if (keep <= 0) return max >= 3 ? '[…]' : '';
  const head = safeEnd(text, Math.ceil(keep / 2));
  const tail = safeStart(text, text.length - Math.floor(keep / 2));
  return `${text.slice(0, head)}\n${trimMarker(tail - head)}\n${text.slice(tail)}`;
}

// cut points that do not split a surrogate pair
function safeEnd(text: string, i: number): number {
  return i > 0 && isHigh(text.charCodeAt(i - 1)) ? i - 1 : i;
}
function safeStart(text: string, i: number): number {
  return i < text.length && isLow(text.charCodeAt(i)) ? i + 1 : i;
}
const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;
