import YAML, { type Document, type Pair } from 'yaml';

/**
 * The source text of frontmatter fields, kept so that a rewrite can give back what axme does
 * not own exactly as a person wrote it: unknown fields byte for byte (YAML tags, anchors and
 * aliases, block scalars, quoting, comments) and the comment lines above any field.
 */
export interface FieldSource {
  key: string;
  /** the comment lines just above the field, each ending in a newline ('' when none) */
  lead: string;
  /** the field's own lines exactly as written, ending in a newline (kept for unknown fields) */
  text?: string;
  /** JSON of the value `text` parses to: `text` is written back only while the value is unchanged */
  json?: string;
}

export interface FrontmatterSource {
  /** in the order of the file */
  fields: FieldSource[];
  /** comment lines after the last field ('' when none) */
  tail: string;
}

/** Where an item keeps the source of its frontmatter: a non-enumerable property of its `extra`
 * (so that JSON output and merges see only the data). The parse cache stores it beside the item. */
const SOURCE = Symbol.for('axme.frontmatterSource');

/** The frontmatter source kept on an item's `extra`, if any. */
export function sourceOf(extra: Record<string, unknown> | undefined): FrontmatterSource | undefined {
  return extra ? ((extra as Record<symbol, unknown>)[SOURCE] as FrontmatterSource | undefined) : undefined;
}

/** Keeps `source` on `extra` (not enumerable: JSON, spreads of the item and equality checks ignore it). */
export function keepSource(extra: Record<string, unknown>, source: FrontmatterSource | undefined): void {
  if (source) Object.defineProperty(extra, SOURCE, { value: source, enumerable: false, configurable: true, writable: true });
}

/**
 * The source of each top-level field of a parsed frontmatter `src` (the text and value JSON of
 * those `textOf` names, the comment lines above every one), or null when the fields are
 * not one block mapping written line by line (a flow mapping, two fields on one line, text other
 * than comments between fields): the fields are then written from their values.
 */
export function fieldSources(
  src: string,
  doc: Document,
  data: Record<string, unknown>,
  textOf: (key: string) => boolean = () => true,
): FrontmatterSource | null {
  const map = doc.contents;
  if (!YAML.isMap(map)) return null;
  const fields: FieldSource[] = [];
  let prevEnd = 0;
  for (const pair of map.items as Array<Pair<unknown, unknown>>) {
    const key = YAML.isNode(pair.key) ? pair.key : null;
    const value = YAML.isNode(pair.value) ? pair.value : null;
    if (!key?.range) return null;
    const start = lineStart(src, key.range[0]);
    if (start < prevEnd) return null;
    const lead = commentLines(src.slice(prevEnd, start));
    if (lead === null) return null;
    const end = lineEnd(src, Math.max(key.range[2], value?.range?.[2] ?? 0));
    const name = keyOf(doc, pair);
    if (name === null || !Object.hasOwn(data, name)) return null;
    if (textOf(name)) {
      const text = src.slice(start, end);
      fields.push({ key: name, lead, text: text.endsWith('\n') ? text : `${text}\n`, json: jsonOf(data[name]) });
    } else fields.push({ key: name, lead });
    prevEnd = end;
  }
  const tail = commentLines(src.slice(prevEnd));
  return tail === null ? null : { fields, tail };
}

/** JSON of a value as the source comparison sees it (undefined has none). */
export function jsonOf(value: unknown): string {
  return JSON.stringify(value) ?? 'undefined';
}

/** The name a pair's key gets in the parsed data (what YAML's toJS makes of it). */
function keyOf(doc: Document, pair: Pair<unknown, unknown>): string | null {
  if (YAML.isScalar(pair.key)) {
    const v = pair.key.value;
    if (v === null || v === undefined) return '';
    if (typeof v !== 'object') return String(v);
  }
  // a collection as a key (`? [a, b]`): ask YAML, on a mapping of this one pair
  const one = new YAML.YAMLMap(doc.schema);
  one.items.push(pair);
  const js = one.toJS(doc, { maxAliasCount: 50 }) as Record<string, unknown>;
  return Object.keys(js)[0] ?? null;
}

/** Comment lines of a gap between fields (blank lines around them dropped), or null when the gap holds anything else. */
function commentLines(gap: string): string | null {
  const lines = gap.split('\n');
  if (!lines.every((l) => /^\s*(#.*)?$/.test(l))) return null;
  const kept = lines
    .join('\n')
    .replace(/^(?:[ \t]*\n)+/, '')
    .replace(/\s+$/, '');
  return kept ? `${kept}\n` : '';
}

function lineStart(src: string, pos: number): number {
  return src.lastIndexOf('\n', pos - 1) + 1;
}

/** The offset just after the line that holds the character before `pos`. */
function lineEnd(src: string, pos: number): number {
  if (pos > 0 && src[pos - 1] === '\n') return pos;
  const nl = src.indexOf('\n', pos);
  return nl === -1 ? src.length : nl + 1;
}
