import { readFileSync } from 'node:fs';
import { findNodeAtLocation, type JSONPath, type Node, type ParseError, parse as parseJsonc, parseTree } from 'jsonc-parser';
import { AxmeError } from '../model/errors.ts';

/** The JSON files of agents' settings: read, checked and written back in their own layout. */

export type Json = Record<string, unknown>;

/** Reads a JSON object file; null when absent; CONFIG error naming the file when it is broken. */
export function readJsonFile(path: string): { text: string; value: Json } | null {
  const text = readTextFile(path);
  if (text === null) return null;
  return { text, value: parseJsonObject(text, path) };
}

/**
 * Parses the text of a JSON object file (empty: `{}`); CONFIG error naming the file when it is
 * broken. Comments and trailing commas are accepted (VS Code's and Gemini CLI's settings allow
 * them: JSONC), and kept when the file is written back (renderJson); so is a UTF-8 byte order mark.
 */
export function parseJsonObject(withBom: string, path: string): Json {
  const text = withoutBom(withBom);
  let value: unknown;
  try {
    value = text.trim() === '' ? {} : JSON.parse(text);
  } catch (err) {
    const errors: ParseError[] = [];
    value = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
    if (errors.length)
      throw new AxmeError(
        'CONFIG',
        `${path} is not valid JSON (${(err as Error).message}): fix it or move it away, then run the command again; nothing was changed`,
        { path },
      );
  }
  if (!isObject(value))
    throw new AxmeError('CONFIG', `${path} must hold a JSON object: fix it or move it away, then run the command again; nothing was changed`, { path });
  return value;
}

/** Reads a text file; null when absent. */
export function readTextFile(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new AxmeError('CONFIG', `cannot read ${path}: ${(err as Error).message}`, { path });
  }
}

/**
 * JSON in the file's own indentation (two spaces for a new file), ending with a newline. A file
 * with comments (JSONC) is edited in place instead — only the keys whose values changed are
 * rewritten — so the user's comments and layout stay; a byte order mark stays too.
 */
export function renderJson(value: Json, withBom: string | undefined): string {
  if (withBom?.startsWith(BOM)) return BOM + renderJson(value, withoutBom(withBom));
  const previous = withBom;
  const indent = previous ? (/\n([ \t]+)"/.exec(previous)?.[1] ?? '  ') : '  ';
  if (previous !== undefined && previous.trim() !== '' && !isStrictJson(previous)) return editJsonc(previous, value, indent);
  return `${JSON.stringify(value, null, indent)}\n`;
}

const BOM = '\uFEFF';

/** The text without its UTF-8 byte order mark. */
function withoutBom(text: string): string {
  return text.startsWith(BOM) ? text.slice(BOM.length) : text;
}

function isStrictJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * `text` (JSONC) changed into `value` by the fewest edits: keys and list items added, removed or
 * replaced where they differ, nothing else touched. An item is added right after the one before it
 * (`,` and a new line) and removed with exactly that text, so removing what was added gives back
 * every byte: comments, layout and the user's keys beside it stay.
 */
function editJsonc(text: string, value: Json, unit: string): string {
  let out = text;
  const nodeAt = (path: JSONPath): Node => findNodeAtLocation(parseTree(out, [], PARSE)!, path)!;
  const edit = (offset: number, length: number, content: string) => {
    out = out.slice(0, offset) + content + out.slice(offset + length);
  };
  const walk = (path: JSONPath, before: unknown, after: unknown): void => {
    if (isObject(before) && isObject(after)) {
      // a key set to undefined is absent, as in JSON
      for (const k of Object.keys(before)) if (after[k] === undefined) remove(nodeAt([...path, k]).parent!);
      for (const [k, v] of Object.entries(after)) {
        if (v === undefined) continue;
        if (k in before) walk([...path, k], before[k], v);
        else insert(nodeAt(path), nodeAt(path).children?.length ?? 0, k, v);
      }
    } else if (Array.isArray(before) && Array.isArray(after)) {
      // the items both lists share stay; between them, items are changed in place, taken out or put in
      const pairs = commonItems(before, after);
      let [b1, a1] = [before.length, after.length];
      for (const [b, a] of [...pairs, [-1, -1]] as [number, number][]) {
        const [b0, a0] = [b + 1, a + 1];
        const paired = Math.min(b1 - b0, a1 - a0);
        for (let j = b1 - b0 - 1; j >= paired; j--) remove(nodeAt([...path, b0 + j]));
        for (let j = paired; j < a1 - a0; j++) insert(nodeAt(path), b0 + j, null, after[a0 + j]);
        for (let j = paired - 1; j >= 0; j--) walk([...path, b0 + j], before[b0 + j], after[a0 + j]);
        [b1, a1] = [b0 - 1, a0 - 1];
      }
    } else if (JSON.stringify(before) !== JSON.stringify(after)) {
      const node = nodeAt(path);
      edit(node.offset, node.length, render(after, lineIndent(out, node.offset), unit));
    }
  };
  /** Puts `key: v` (or the item `v`) at `index` of the object or list `container`. */
  const insert = (container: Node, index: number, key: string | null, v: unknown): void => {
    const children = container.children ?? [];
    const end = container.offset + container.length;
    const oneLine = !out.slice(container.offset, end).includes('\n');
    const item = (ind: string) => `${key === null ? '' : `${JSON.stringify(key)}: `}${oneLine ? JSON.stringify(v) : render(v, ind, unit)}`;
    if (index > 0) {
      const prev = children[index - 1]!;
      const ind = lineIndent(out, prev.offset);
      if (oneLine) return edit(prev.offset + prev.length, 0, `, ${item(ind)}`);
      // after the comma and the comment that end the line before: on a line of its own, comma after
      const tail = COMMA_LINE.exec(out.slice(prev.offset + prev.length));
      if (tail) return edit(prev.offset + prev.length + tail[0].length, 0, `\n${ind}${item(ind)},`);
      // the last one, a comment ending its line: the comma goes before the comment, the item after it
      const comment = COMMENT_LINE.exec(out.slice(prev.offset + prev.length));
      if (comment) {
        edit(prev.offset + prev.length + comment[0].length, 0, `\n${ind}${item(ind)}`);
        return edit(prev.offset + prev.length, 0, ',');
      }
      return edit(prev.offset + prev.length, 0, `,\n${ind}${item(ind)}`);
    }
    if (children.length) {
      const ind = lineIndent(out, children[0]!.offset);
      return edit(children[0]!.offset, 0, oneLine ? `${item(ind)}, ` : `${item(ind)},\n${ind}`);
    }
    const outer = lineIndent(out, container.offset);
    const inner = out.slice(container.offset + 1, end - 1);
    if (inner.trim() === '') return edit(container.offset + 1, inner.length, `\n${outer}${unit}${item(outer + unit)}\n${outer}`);
    // an empty object or list holding comments: after the last of them
    const at = container.offset + 1 + inner.trimEnd().length;
    return edit(at, 0, `\n${outer}${unit}${item(outer + unit)}`);
  };
  /** Takes out the property or item `node`: with the comma and new line before it (as insert put them), or after it when it is first. */
  const remove = (node: Node): void => {
    const siblings = node.parent!.children!;
    const i = siblings.indexOf(node);
    const end = node.offset + node.length;
    const afterComma = /^\s*,[ \t]*(?:\r?\n[ \t]*)?/.exec(out.slice(end))?.[0].length ?? 0;
    const comma = /^\s*,/.exec(out.slice(end))?.[0].length ?? 0;
    if (i > 0) {
      const prev = siblings[i - 1]!;
      const gap = out.slice(prev.offset + prev.length, node.offset);
      const line = /\r?\n[ \t]*$/.exec(gap)?.[0].length ?? 0;
      if (comma && new RegExp(`${COMMA_LINE.source}\\r?\\n[ \\t]*$`).test(gap)) return edit(node.offset - line, end - node.offset + line + comma, '');
      if (!comma && new RegExp(`^,${COMMENT_LINE.source.slice(1)}\\r?\\n[ \\t]*$`).test(gap)) {
        edit(node.offset - line, end - node.offset + line, '');
        return edit(prev.offset + prev.length, 1, '');
      }
      if (/^\s*,\s*$/.test(gap)) return edit(prev.offset + prev.length, end - prev.offset - prev.length, '');
      return edit(node.offset - line, end - node.offset + line + comma, '');
    }
    if (siblings.length > 1) return edit(node.offset, end - node.offset + afterComma, '');
    const container = node.parent!;
    const inner = [container.offset + 1, container.offset + container.length - 1] as const;
    const rest = out.slice(inner[0], node.offset) + out.slice(end, inner[1]).replace(/^\s*,/, '');
    if (rest.trim() === '') return edit(inner[0], inner[1] - inner[0], '');
    const lead = /\s*$/.exec(out.slice(inner[0], node.offset))![0].length;
    return edit(node.offset - lead, end - node.offset + lead + comma, '');
  };
  walk([], parseJsonc(text, [], PARSE), value);
  return out;
}

const PARSE = { allowTrailingComma: true, disallowComments: false };

// a comma after an item and perhaps a comment, ending the line; a comment alone ending it
const COMMA_LINE = /^[ \t]*,[ \t]*(?:\/\/[^\n]*|\/\*[^\n]*?\*\/[ \t]*)?(?=\r?\n)/;
const COMMENT_LINE = /^[ \t]*(?:\/\/[^\n]*|\/\*[^\n]*?\*\/[ \t]*)(?=\r?\n)/;

/** `v` as JSON indented by `unit`, its lines after the first starting at `indent`. */
function render(v: unknown, indent: string, unit: string): string {
  return JSON.stringify(v, null, unit).replace(/\n/g, `\n${indent}`);
}

/** The blanks that start the line `offset` is on. */
function lineIndent(text: string, offset: number): string {
  return /^[ \t]*/.exec(text.slice(text.lastIndexOf('\n', offset - 1) + 1))![0];
}

/** The pairs of indexes of the longest run of equal items the two lists share, last first. */
function commonItems(a: unknown[], b: unknown[]): [number, number][] {
  const key = (v: unknown) => JSON.stringify(v);
  const [ka, kb] = [a.map(key), b.map(key)];
  const len = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--) len[i]![j] = ka[i] === kb[j] ? len[i + 1]![j + 1]! + 1 : Math.max(len[i + 1]![j]!, len[i]![j + 1]!);
  const pairs: [number, number][] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (ka[i] === kb[j]) pairs.unshift([i++, j++]);
    else if (len[i + 1]![j]! >= len[i]![j + 1]!) i++;
    else j++;
  }
  return pairs;
}

export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
