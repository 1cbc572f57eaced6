import { createHash } from 'node:crypto';
import { LIMITS } from '../../model/limits.ts';

/**
 * Claude Code's auto memory notes split into entries, one axme memory each (docs/auto-memory.md):
 * - a `## heading` section (any level from 2) whose text has no list is ONE entry, titled by the heading;
 * - otherwise each top-level list item (`-`, `*`, `+`, `1.`) with its indented lines is an entry,
 *   and so is each paragraph outside a list (the heading, if any, tells where it came from);
 * - `# title` lines, thematic breaks (`---`), HTML comments and index lines that only link a topic file (`- [Debugging](debugging.md) …`) are not entries.
 * Fenced code stays with the entry it is in. The type is feedback when the heading, the topic
 * file's name or the entry's first line speaks of feedback, a preference or the user; else pattern.
 */
export interface AutoMemoryEntry {
  /** the file it came from, relative to the memory folder */
  file: string;
  /** the `##` heading it sits under, if any */
  heading: string | null;
  /** the entry's text (list marker removed) */
  text: string;
  title: string;
  type: 'feedback' | 'pattern';
  /** entryHash(text): what an imported memory keeps to tell it was imported */
  hash: string;
}

/** The hash an imported entry is known by: sha256 of normalizeEntry, 16 hex digits. */
function entryHash(text: string): string {
  return createHash('sha256').update(normalizeEntry(text)).digest('hex').slice(0, 16);
}

/** Text compared for duplicates: NFKC, list markers and emphasis dropped, whitespace collapsed, lower case. */
export function normalizeEntry(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/^\s*(?:[-*+]|\d+[.)])\s+/gm, '')
    .replace(/\*\*|__/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const BULLET = /^(?:[-*+]|\d+[.)])\s+/;
const FENCE = /^\s*(```|~~~)/;
/** a thematic break (`---`, `***`, `___`): a separator, not an entry */
const RULE = /^ {0,3}([-*_])(?:\s*\1){2,}\s*$/;
const INDEX_LINK = /^\[[^\]]*\]\((?![a-z][a-z0-9+.-]*:)[^)\s]+\.md\)/i;
const FEEDBACK = /feedback|prefer|\buser\b/i;

interface Block {
  bullet: boolean;
  lines: string[];
}

/** The entries of one auto memory file (MEMORY.md without axme's section, or a topic file). */
export function parseEntries(file: string, text: string): AutoMemoryEntry[] {
  const out: AutoMemoryEntry[] = [];
  const topic = file.replace(/\.md$/i, '');
  for (const section of sections(text)) {
    const blocks = blocksOf(section.lines).filter((b) => !isIndex(b));
    if (!blocks.length) continue;
    const kind = FEEDBACK.test(section.heading ?? topic) ? 'feedback' : null;
    if (section.heading && !blocks.some((b) => b.bullet)) {
      const text = blocks.map((b) => b.lines.join('\n')).join('\n\n');
      out.push(entry(file, section.heading, text, section.heading, kind ?? typeOf(text)));
      continue;
    }
    for (const b of blocks) {
      const body = b.lines.join('\n');
      out.push(entry(file, section.heading, body, body.split('\n')[0]!, kind ?? typeOf(body)));
    }
  }
  return out.filter((e) => e.text !== '');
}

function entry(file: string, heading: string | null, text: string, titleFrom: string, type: AutoMemoryEntry['type']): AutoMemoryEntry {
  const clean = text.replace(/\s+$/, '').replace(/^\n+/, '');
  return { file, heading, text: clean, title: titleOf(titleFrom), type, hash: entryHash(clean) };
}

/** The file's `##` sections (the text before the first heading is one too, headed null); `#` titles and comments dropped. */
function sections(text: string): Array<{ heading: string | null; lines: string[] }> {
  const out: Array<{ heading: string | null; lines: string[] }> = [{ heading: null, lines: [] }];
  let fence = false;
  let comment = false;
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    if (FENCE.test(line)) fence = !fence;
    if (!fence) {
      if (comment) {
        if (line.includes('-->')) comment = false;
        continue;
      }
      if (/^\s*<!--/.test(line)) {
        comment = !line.includes('-->');
        continue;
      }
      if (RULE.test(line)) {
        out.at(-1)!.lines.push('');
        continue;
      }
      const h = HEADING.exec(line);
      if (h) {
        if (h[1]!.length > 1) out.push({ heading: h[2]!, lines: [] });
        continue;
      }
    }
    out.at(-1)!.lines.push(line);
  }
  return out;
}

/** List items (with their indented lines) and paragraphs; fenced code stays in the block it follows. */
function blocksOf(lines: string[]): Block[] {
  const out: Block[] = [];
  let cur: Block | null = null;
  let fence = false;
  let blank = false;
  for (const line of lines) {
    const opensFence = FENCE.test(line);
    if (fence || opensFence) {
      if (!cur) out.push((cur = { bullet: false, lines: [] }));
      else if (!fence && blank) cur.lines.push('');
      if (opensFence) fence = !fence;
      cur.lines.push(line);
      blank = false;
      continue;
    }
    if (line.trim() === '') {
      blank = true;
      continue;
    }
    const indented = /^\s/.test(line);
    if (BULLET.test(line)) {
      out.push((cur = { bullet: true, lines: [line.replace(BULLET, '')] }));
    } else if (cur && (indented || !blank)) {
      if (blank) cur.lines.push('');
      cur.lines.push(cur.bullet ? line.replace(/^ {1,4}/, '') : line);
    } else {
      out.push((cur = { bullet: false, lines: [line] }));
    }
    blank = false;
  }
  return out;
}

/** feedback when the entry says how the user wants work done; else a pattern of the code. */
function typeOf(text: string): AutoMemoryEntry['type'] {
  return FEEDBACK.test(text.split('\n')[0]!) ? 'feedback' : 'pattern';
}

function isIndex(b: Block): boolean {
  return b.bullet && INDEX_LINK.test(b.lines[0]!.trim());
}

/** A title from an entry's first line: markdown emphasis dropped, at most 100 characters cut at a word. */
function titleOf(line: string): string {
  const plain = line
    .replace(/\*\*|__|`/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  const max = Math.min(100, LIMITS.title);
  if (plain.length <= max) return plain;
  const cutAt = plain.lastIndexOf(' ', max - 1);
  return `${plain.slice(0, cutAt > 40 ? cutAt : max - 1)}…`;
}
