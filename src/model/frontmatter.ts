import matter from 'gray-matter';
import YAML from 'yaml';

// YAML 1.2 core schema: timestamps stay strings (no Date round trip), `yes`/`no` stay strings.
const yamlEngine = {
  parse: (s: string): object => YAML.parse(s, { schema: 'core', uniqueKeys: true, maxAliasCount: 50 }) ?? {},
  stringify: (o: object): string => stringifyYaml(o),
};

/** YAML text of `data` with keys in the order given; long lines are never folded. */
export function stringifyYaml(data: object): string {
  return YAML.stringify(data, { schema: 'core', lineWidth: 0, minContentWidth: 0, aliasDuplicateObjects: false });
}

/** Parses YAML (core schema). Throws the parser's error (with line/column) on broken input. */
export function parseYaml(text: string): unknown {
  return YAML.parse(text.replace(/\r\n?/g, '\n'), { schema: 'core', uniqueKeys: true, maxAliasCount: 50 });
}

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
  const normalized = text.replace(/\r\n?/g, '\n');
  const parsed = matter(normalized, { engines: { yaml: yamlEngine } });
  const data: unknown = parsed.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new Error('frontmatter is not a YAML mapping of field: value');
  }
  return { data: data as Record<string, unknown>, body: trimBody(parsed.content) };
}

/** Markdown file text: `---`, the fields in the order given, `---`, a blank line, the body. */
export function stringifyMarkdown(data: Record<string, unknown>, body: string): string {
  const b = trimBody(body);
  return `---\n${stringifyYaml(data)}---\n${b ? `\n${b}\n` : ''}`;
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
