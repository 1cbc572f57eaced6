import { AxmeError } from '../../model/errors.ts';

/**
 * MEMORY.md as axme shares it with Claude Code: the user's (and Claude's) text, kept byte for
 * byte, and one section of axme's between two marker lines. Claude Code loads only the first
 * 200 lines or 25 KB of the file, so the whole file is kept within both.
 */

export const BEGIN_MARKER = '<!-- axme:begin (written by `axme export auto-memory`; edit outside these markers, this section is replaced) -->';
export const END_MARKER = '<!-- axme:end -->';
/** What Claude Code loads of MEMORY.md at a session start. */
export const MAX_LINES = 200;
const MAX_BYTES = 25_000;

/** MEMORY.md split around axme's section: `before` + section + `after` is the file. */
export interface MemoryMd {
  before: string;
  /** axme's section, its markers and final newline included; '' when there is none */
  section: string;
  after: string;
}

/** Splits MEMORY.md at axme's marker lines. A begin marker without its end is refused (the rest of the file would be lost). */
export function splitMemoryMd(text: string): MemoryMd {
  const begin = lineStart(text, '<!-- axme:begin');
  if (begin < 0) return { before: text, section: '', after: '' };
  const endAt = lineStart(text, END_MARKER, begin);
  if (endAt < 0) {
    throw new AxmeError(
      'WRONG_STATE',
      `MEMORY.md has axme's begin marker but no "${END_MARKER}" line after it: put the end marker back where axme's section ends (or delete the section), then run again`,
    );
  }
  const nl = text.indexOf('\n', endAt);
  const end = nl < 0 ? text.length : nl + 1;
  return { before: text.slice(0, begin), section: text.slice(begin, end), after: text.slice(end) };
}

/** The user's part of MEMORY.md: everything outside axme's section. */
export function userText(md: MemoryMd): string {
  return md.before + md.after;
}

/**
 * MEMORY.md with `body` (the section's lines, no markers) as axme's section: in place of the old
 * one, else after the user's text with a blank line between. An empty body removes the section.
 */
export function mergeSection(md: MemoryMd, body: string[] | null): string {
  if (body === null) return md.before + md.after;
  const block = `${[BEGIN_MARKER, ...body, END_MARKER].join('\n')}\n`;
  if (md.section) return md.before + block + md.after;
  const lead = md.before === '' || md.before.endsWith('\n\n') ? '' : md.before.endsWith('\n') ? '\n' : '\n\n';
  return md.before + lead + block;
}

/** Lines as Claude Code counts them (a final newline ends the last line, it does not start one). */
export function lineCount(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** Bytes of the text in UTF-8, as the 25 KB limit counts them. */
export function byteCount(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** True when MEMORY.md is within what Claude Code loads. */
export function fitsLimits(text: string): boolean {
  return lineCount(text) <= MAX_LINES && byteCount(text) <= MAX_BYTES;
}

function lineStart(text: string, prefix: string, from = 0): number {
  for (let i = from; i < text.length; ) {
    if (text.startsWith(prefix, i)) return i;
    const nl = text.indexOf('\n', i);
    if (nl < 0) return -1;
    i = nl + 1;
  }
  return -1;
}
