// What the corpus builders (build-notes.ts, build-faq.ts) share: reading a bare clone, a slug
// part of a title, link targets dropped, a text cut at a line end.
import { execFileSync } from 'node:child_process';

/** `git --git-dir <dir> <args>`'s output. */
export const gitIn = (dir: string, args: string[]) => execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });

/** `s` as a slug part of at most `max` characters, or `fallback` when nothing of it is left. */
export const slugPart = (s: string, max: number, fallback: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/g, '') || fallback;

/** Link targets dropped, as a person pasting the text would keep only what it says. */
export const unlink = (s: string) => s.replace(/\[([^\]]+)\]\([^)]*\)/g, '$1').replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1');

/** `text` cut to at most `max` characters, at a line end where one is near. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const at = text.lastIndexOf('\n', max);
  return text.slice(0, at > max * 0.6 ? at : max).trim();
}
