import type { z } from 'zod';
import { AxmeError } from './errors.ts';
import { joinSections, parseMarkdown, parseMarkdownSource, reservedHeadingIn, splitSections, stringifyMarkdown } from './frontmatter.ts';
import { type FieldSource, type FrontmatterSource, jsonOf, keepSource, sourceOf } from './frontmatter-source.ts';
import type { KindFacts } from './kind-facts.ts';
import type { KindName } from './kinds.ts';

export type { KindName } from './kinds.ts';

/** Fields every item object has after decoding. */
export interface ItemBase {
  slug: string;
  created: string;
  updated: string;
  source?: string | undefined;
  session?: string | undefined;
  extra: Record<string, unknown>;
}

/**
 * One kind of item: its declaration (`KindFacts`, from `model/kinds/<kind>.ts`) and how it maps
 * to a Markdown file. `fields` are the frontmatter keys in the order they are written; `lead` and
 * `sections` are the item fields that live in the body.
 */
export interface KindSpec<T extends ItemBase> extends KindFacts<KindName> {
  schema: z.ZodType<T, unknown>;
  fields: readonly string[];
  lead: string;
  sections: ReadonlyArray<readonly [heading: string, field: string]>;
  /** frontmatter fields that hold prose, as the body does (a memory's description): a sync merges them as text, a clash opens a question */
  prose?: readonly string[];
}

export type DecodeResult<T> = { ok: true; item: T } | { ok: false; reason: string };

/** Parses an item file. Never throws: a broken file gives a reason to report with its path. */
export function decodeItem<T extends ItemBase>(spec: KindSpec<T>, slug: string, text: string): DecodeResult<T> {
  let doc;
  try {
    doc = parseMarkdownSource(text, (k) => !spec.fields.includes(k));
  } catch (err) {
    const why = firstLine(err);
    return { ok: false, reason: why.startsWith('frontmatter ') ? why : `frontmatter is not valid YAML: ${why}` };
  }
  // a body field written in the frontmatter (its text holds a heading line that would split the
  // body): its value comes from there, and its heading is not a section break in the body
  const inFront = (f: string) => Object.hasOwn(doc.data, f) && typeof doc.data[f] === 'string';
  const bodySections = spec.sections.filter(([, f]) => !inFront(f));
  const { lead, sections } = splitSections(
    doc.body,
    bodySections.map(([h]) => h),
  );
  const known = new Set([...spec.fields, 'slug', spec.lead, ...spec.sections.map(([, f]) => f)]);
  const candidate: Record<string, unknown> = { slug };
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(doc.data)) {
    if (spec.fields.includes(k)) candidate[k] = v;
    else if (known.has(k) && inFront(k)) candidate[k] = v;
    // unknown fields, and a body field's key whose value is not text, are kept as they are
    else if (k !== 'slug') setOwn(extra, k, v);
  }
  // a lead in both places (a hand edit): nothing is dropped, the body's text follows
  if (inFront(spec.lead)) candidate[spec.lead] = lead ? `${String(candidate[spec.lead])}\n\n${lead}` : candidate[spec.lead];
  else candidate[spec.lead] = lead;
  for (const [heading, field] of bodySections) if (sections[heading] !== undefined) candidate[field] = sections[heading];
  keepSource(extra, ownSource(spec, doc.source));
  candidate.extra = extra;
  const parsed = spec.schema.safeParse(candidate);
  if (!parsed.success) return { ok: false, reason: describeIssues(parsed.error) };
  return { ok: true, item: parsed.data };
}

/**
 * File bytes of an item: known fields in spec order (empty lists and unset values left out),
 * then unknown fields sorted by name, then the body. The same item always gives the same text.
 * Unknown fields read from a file are written back exactly as they were written (tags, anchors,
 * comments, quoting) while their value is unchanged, and comment lines above any field stay above
 * it. Throws CORRUPT, writing nothing, when an unknown field would not read back the same.
 */
export function encodeItem<T extends ItemBase>(spec: KindSpec<T>, item: T): string {
  const rec = item as unknown as Record<string, unknown>;
  const data: Record<string, unknown> = {};
  for (const k of spec.fields) {
    const v = rec[k];
    if (v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    data[k] = v;
  }
  const front = bodyFieldsInFront(spec, rec);
  for (const [, f] of [['', spec.lead] as const, ...spec.sections]) if (front.has(f)) setOwn(data, f, rec[f]);
  const unknown = Object.keys(item.extra)
    .filter((k) => !Object.hasOwn(data, k))
    .sort();
  for (const k of unknown) setOwn(data, k, item.extra[k]);
  const body = joinSections(
    front.has(spec.lead) ? '' : String(rec[spec.lead] ?? ''),
    spec.sections.filter(([, f]) => !front.has(f)).map(([h, f]) => [h, rec[f] as string | undefined]),
  );
  const source = sourceOf(item.extra);
  if (!source && unknown.length === 0) return stringifyMarkdown(data, body);
  const verbatim = new Set(unknown);
  const text = stringifyMarkdown(data, body, { source, verbatim });
  const bad = unreadable(text, data, unknown);
  if (bad === null) return text;
  if (source) {
    // an alias must follow its anchor: the unknown fields in the order of the file
    const at = new Map(source.fields.map((f, i) => [f.key, i]));
    const inFileOrder = [...unknown].sort((a, b) => (at.get(a) ?? Infinity) - (at.get(b) ?? Infinity));
    const reordered: Record<string, unknown> = {};
    for (const k of Object.keys(data)) if (!verbatim.has(k)) reordered[k] = data[k];
    for (const k of inFileOrder) setOwn(reordered, k, data[k]);
    const again = stringifyMarkdown(reordered, body, { source, verbatim });
    if (unreadable(again, reordered, unknown) === null) return again;
  }
  const name = `${spec.dir}/${item.slug}.md`;
  throw new AxmeError(
    'CORRUPT',
    `${name}: the field "${bad}" would not read back the same once axme rewrites the file (a YAML alias to an anchor on a field axme writes, or a value YAML cannot write back): nothing was written. Edit ${name} so "${bad}" stands on its own (write its value out instead of the alias), then run the command again`,
    { path: name, field: bad },
  );
}

/**
 * The body fields (the lead and the `## Heading` sections) that must be written in the
 * frontmatter, as YAML text, because their text holds a line the body would read as the heading
 * of a later section (`## Reasoning` inside a decision's text). Any text is accepted that way and
 * read back exactly; the rest stays in the body, where a person reads it. Later sections are
 * decided first: a section moved out of the body no longer splits the fields before it.
 */
function bodyFieldsInFront(spec: KindSpec<ItemBase>, rec: Record<string, unknown>): Set<string> {
  const front = new Set<string>();
  const fields = [spec.lead, ...spec.sections.map(([, f]) => f)];
  for (let i = fields.length - 1; i >= 0; i--) {
    const text = rec[fields[i]!];
    if (typeof text !== 'string' || text === '') continue;
    // the sections after this one that stay in the body (the lead: every one of them)
    const later = spec.sections
      .slice(i)
      .filter(([, f]) => !front.has(f))
      .map(([h]) => h);
    if (later.length && reservedHeadingIn(text, later)) front.add(fields[i]!);
  }
  return front;
}

/** The first unknown field that does not parse back to its value from `text`, or null when all do. */
function unreadable(text: string, data: Record<string, unknown>, unknown: string[]): string | null {
  let back: Record<string, unknown>;
  try {
    back = parseMarkdown(text).data;
  } catch {
    return unknown[0] ?? null;
  }
  return unknown.find((k) => !Object.hasOwn(back, k) || jsonOf(back[k]) !== jsonOf(data[k])) ?? null;
}

/** What an item keeps of its file's frontmatter source: the text of unknown fields, comments above any field. */
function ownSource(spec: KindSpec<ItemBase>, source: FrontmatterSource | null): FrontmatterSource | undefined {
  if (!source) return undefined;
  const body = new Set(['slug', spec.lead, ...spec.sections.map(([, f]) => f)]);
  const fields: FieldSource[] = [];
  for (const f of source.fields) {
    if (spec.fields.includes(f.key)) {
      if (f.lead) fields.push({ key: f.key, lead: f.lead });
    } else if (!body.has(f.key)) fields.push(f);
  }
  return fields.length || source.tail ? { fields, tail: source.tail } : undefined;
}

/** Sets an own property even for names like `__proto__` (plain assignment would set the prototype). */
function setOwn(o: Record<string, unknown>, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

/** "title: must not be empty; status: must be one of open, done" from a zod error: each field and what is wrong. */
export function describeIssues(error: z.ZodError, from: IssueSource = 'input'): string {
  return error.issues.map((i) => issueText(i, from)).join('; ');
}

/**
 * Where the value came from: a command's or tool's `input` (a list where one text belongs is most
 * often an option given twice), or `data` a program wrote (a model's answer, a file).
 */
export type IssueSource = 'input' | 'data';

/** One zod issue as "field: what is wrong" ("unknown field x" for a field the schema does not know). */
export function issueText(issue: z.core.$ZodIssue, from: IssueSource = 'input'): string {
  return issue.code === 'unrecognized_keys'
    ? issueProblem(issue, from)
    : `${issue.path.length ? issue.path.map(String).join('.') : 'value'}: ${issueProblem(issue, from)}`;
}

/** What is wrong, in words: zod's default wording ("Too small: expected ...") rewritten, a schema's own message kept. */
export function issueProblem(i: z.core.$ZodIssue, from: IssueSource = 'input'): string {
  const m = i.message;
  if (i.code === 'unrecognized_keys') {
    const names = i.keys.map((k) => [...i.path.map(String), k].join('.')).join(', ');
    return `unknown field${i.keys.length === 1 ? '' : 's'} ${names}`;
  }
  if (!/^(Too small|Too big|Invalid input|Invalid option)\b/.test(m)) return m; // the schema's own words
  switch (i.code) {
    case 'invalid_type':
      if (/received undefined$/.test(m)) return 'is required';
      // a repeated command-line option is said as such where the command line is read (cli/operation-command.ts inputFrom): here a list came as one value
      if (i.expected === 'string' && /received array$/.test(m)) return 'must be one text, not a list';
      return `must be ${EXPECTED[i.expected] ?? `a ${i.expected}`}`;
    case 'invalid_value':
      return i.values.length === 1 ? `must be ${String(i.values[0])}` : `must be one of ${i.values.map(String).join(', ')}`;
    case 'too_small':
    case 'too_big': {
      const small = i.code === 'too_small';
      const n = Number(small ? i.minimum : i.maximum);
      if (i.origin === 'string') return small && n === 1 ? 'must not be empty' : `must be ${small ? 'at least' : 'at most'} ${n} characters`;
      if (i.origin === 'array' || i.origin === 'set')
        return small && n === 1 ? 'must not be empty' : `must have ${small ? 'at least' : 'at most'} ${n} entries`;
      return `must be ${small ? (i.inclusive ? 'at least' : 'more than') : i.inclusive ? 'at most' : 'less than'} ${n}`;
    }
    default:
      return m === 'Invalid input' ? 'is not valid' : m;
  }
}

const EXPECTED: Record<string, string> = {
  int: 'a whole number',
  number: 'a number',
  string: 'text',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
};

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
}
