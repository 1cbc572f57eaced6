import matter from 'gray-matter';
import YAML from 'yaml';
import { AxmeError } from './errors.ts';
import { type FrontmatterSource, fieldSources, jsonOf } from './frontmatter-source.ts';

// YAML 1.2 core schema: timestamps stay strings (no Date round trip), `yes`/`no` stay strings.
// YAML 1.1 tags (`!!binary`, `!!timestamp`, ...) are not resolved either: their values stay the
// text written, and the tag itself is kept with the field's source (frontmatter-source.ts).
// Warnings (an unknown tag) are not printed: the field is kept as written.
const PARSE_OPTIONS = { schema: 'core', uniqueKeys: true, maxAliasCount: 50, resolveKnownTags: false, logLevel: 'error' } as const;

/** YAML text of `data` with keys in the order given; long lines are never folded. */
export function stringifyYaml(data: object): string {
  return YAML.stringify(data, { schema: 'core', lineWidth: 0, minContentWidth: 0, aliasDuplicateObjects: false });
}

/** Parses YAML (core schema). Throws the parser's error (with line/column) on broken input. */
export function parseYaml(text: string): unknown {
  return YAML.parse(text.replace(/\r\n?/g, '\n'), PARSE_OPTIONS);
}

/**
 * The language a file's first line names after `---` (`---js`, `---json`): gray-matter parses the
 * frontmatter with that language's engine, and its `javascript` engine evaluates the text — code a
 * pushed item would run on every clone that reads it. Only YAML is read (parseMarkdownSource; a
 * byte-order mark first is skipped, as gray-matter skips it).
 */
const FRONTMATTER_LANGUAGE = /^---(?!-)[^\S\n]*(\S[^\n]*?)[^\S\n]*(?:\n|$)/;

export interface MarkdownDoc {
  /** frontmatter fields; {} when the file has none */
  data: Record<string, unknown>;
  /** Markdown after the frontmatter, without leading blank lines or trailing whitespace */
  body: string;
}

/**
 * Splits a Markdown file into frontmatter and body (gray-matter, YAML core schema).
 * Throws a plain Error with the parser's reason when the frontmatter is not a YAML mapping.
 */
export function parseMarkdown(text: string): MarkdownDoc {
  const { data, body } = parseMarkdownSource(text);
  return { data, body };
}

/**
 * parseMarkdown, with where each frontmatter field stands in the file (`source`: null when that
 * cannot be told line by line, or when there is no frontmatter) for writing it back exactly;
 * `textOf` names the fields whose own text is kept (default: all).
 */
export function parseMarkdownSource(text: string, textOf?: (key: string) => boolean): MarkdownDoc & { source: FrontmatterSource | null } {
  const normalized = text.replace(/\r\n?/g, '\n');
  const language = FRONTMATTER_LANGUAGE.exec(normalized.replace(/^\uFEFF/, ''))?.[1];
  if (language && !/^ya?ml$/i.test(language))
    throw new AxmeError(
      'INVALID_INPUT',
      `frontmatter opens with "---${language.slice(0, 40)}": only YAML frontmatter is read (a plain --- line), never another language's, which could run code`,
    );
  let source: FrontmatterSource | null = null;
  const engine = {
    parse: (s: string): object => {
      const doc = YAML.parseDocument(s, PARSE_OPTIONS);
      if (doc.errors.length) throw doc.errors[0];
      const data = (doc.toJS({ maxAliasCount: PARSE_OPTIONS.maxAliasCount }) ?? {}) as object;
      if (typeof data === 'object' && !Array.isArray(data)) source = fieldSources(s, doc, data as Record<string, unknown>, textOf);
      return data;
    },
    stringify: (o: object): string => stringifyYaml(o),
  };
  const parsed = matter(normalized, { engines: { yaml: engine } });
  const data: unknown = parsed.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new AxmeError('INVALID_INPUT', 'frontmatter is not a YAML mapping of field: value: write one `field: value` line per field between the --- lines');
  }
  return { data: data as Record<string, unknown>, body: trimBody(parsed.content), source };
}

/**
 * Markdown file text: `---`, the fields in the order given, `---`, a blank line, the body.
 * With `source`, the comment lines above a field are written above it again, and a field named
 * in `verbatim` whose value is unchanged is written exactly as its source text.
 */
export function stringifyMarkdown(
  data: Record<string, unknown>,
  body: string,
  opts: { source?: FrontmatterSource | undefined; verbatim?: ReadonlySet<string> } = {},
): string {
  const b = trimBody(body);
  return `---\n${opts.source ? frontmatterFrom(data, opts.source, opts.verbatim ?? new Set()) : stringifyYaml(data)}---\n${b ? `\n${b}\n` : ''}`;
}

function frontmatterFrom(data: Record<string, unknown>, source: FrontmatterSource, verbatim: ReadonlySet<string>): string {
  const byKey = new Map(source.fields.map((f) => [f.key, f]));
  let out = '';
  for (const k of Object.keys(data)) {
    const f = byKey.get(k);
    out += f?.lead ?? '';
    if (f?.text !== undefined && verbatim.has(k) && f.json === jsonOf(data[k])) out += f.text;
    else {
      const one: Record<string, unknown> = {};
      Object.defineProperty(one, k, { value: data[k], enumerable: true, writable: true, configurable: true });
      out += stringifyYaml(one);
    }
  }
  return out + source.tail;
}

function trimBody(s: string): string {
  return trimBlankLines(s.replace(/\r\n?/g, '\n'));
}

/**
 * Drops blank lines before and whitespace after a text, never a line's indentation: an indented
 * first line (a code block, `   ## Answer`) must come back exactly as given.
 */
export function trimBlankLines(s: string): string {
  return s.replace(/^(?:[ \t]*\n)+/, '').replace(/\s+$/, '');
}

/**
 * Body sections: a lead text followed by `## <Heading>` sections in a fixed order. Used for the
 * long text fields of an item (a decision's reasoning, a backlog item's notes) so that files read
 * naturally in any git UI. A heading line is only a section break when it is one of `headings`.
 */
export function splitSections(body: string, headings: readonly string[]): { lead: string; sections: Record<string, string> } {
  const lines = body.split('\n');
  const sections: Record<string, string> = {};
  let current: string | null = null;
  let buf: string[] = [];
  let lead = '';
  const flush = () => {
    const text = trimBlankLines(buf.join('\n'));
    if (current === null) lead = text;
    else sections[current] = text;
    buf = [];
  };
  let next = 0; // sections are recognised in order, each once
  for (const line of lines) {
    const m = /^## (.+?)\s*$/.exec(line);
    const idx = m ? headings.indexOf(m[1]!) : -1;
    if (idx >= next) {
      flush();
      current = headings[idx]!;
      next = idx + 1;
      continue;
    }
    buf.push(line);
  }
  flush();
  return { lead, sections };
}

/** Inverse of splitSections: empty sections are left out. */
export function joinSections(lead: string, sections: Array<[string, string | undefined]>): string {
  const parts = [trimBlankLines(lead)];
  for (const [heading, text] of sections) {
    if (text && text.trim()) parts.push(`## ${heading}\n\n${trimBlankLines(text)}`);
  }
  return parts.filter((p) => p !== '').join('\n\n');
}

/** The reserved heading line `text` contains, if any (it would split the field on re-read). */
export function reservedHeadingIn(text: string, headings: readonly string[]): string | null {
  for (const h of headings) if (new RegExp(`^## ${h.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`, 'm').test(text)) return h;
  return null;
}
