import type { z } from 'zod';
import { parseMarkdown, stringifyMarkdown, splitSections, joinSections } from './frontmatter.ts';
import type { IdPrefix } from './ids.ts';

export type KindName = 'decision' | 'memory' | 'backlog' | 'question' | 'plan' | 'handoff' | 'session' | 'oracle';

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
 * How one kind of item maps to a Markdown file. `fields` are the frontmatter keys in the order
 * they are written; `lead` and `sections` are the item fields that live in the body.
 */
export interface KindSpec<T extends ItemBase> {
  kind: KindName;
  /** folder in the memory tree */
  dir: string;
  idPrefix?: IdPrefix;
  schema: z.ZodType<T, unknown>;
  fields: readonly string[];
  lead: string;
  sections: ReadonlyArray<readonly [heading: string, field: string]>;
}

export type DecodeResult<T> = { ok: true; item: T } | { ok: false; reason: string };

/** Parses an item file. Never throws: a broken file gives a reason to report with its path. */
export function decodeItem<T extends ItemBase>(spec: KindSpec<T>, slug: string, text: string): DecodeResult<T> {
  let doc;
  try {
    doc = parseMarkdown(text);
  } catch (err) {
    const why = firstLine(err);
    return { ok: false, reason: why.startsWith('frontmatter ') ? why : `frontmatter is not valid YAML: ${why}` };
  }
  const { lead, sections } = splitSections(doc.body, spec.sections.map(([h]) => h));
  const known = new Set([...spec.fields, 'slug', spec.lead, ...spec.sections.map(([, f]) => f)]);
  const candidate: Record<string, unknown> = { slug };
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(doc.data)) {
    if (spec.fields.includes(k)) candidate[k] = v;
    else if (!known.has(k)) setOwn(extra, k, v);
  }
  candidate[spec.lead] = lead;
  for (const [heading, field] of spec.sections) if (sections[heading] !== undefined) candidate[field] = sections[heading];
  candidate.extra = extra;
  const parsed = spec.schema.safeParse(candidate);
  if (!parsed.success) return { ok: false, reason: describeIssues(parsed.error) };
  return { ok: true, item: parsed.data };
}

/** File bytes of an item: known fields in spec order (empty lists and unset values left out),
 * then unknown fields sorted by name, then the body. The same item always gives the same text. */
export function encodeItem<T extends ItemBase>(spec: KindSpec<T>, item: T): string {
  const rec = item as unknown as Record<string, unknown>;
  const data: Record<string, unknown> = {};
  for (const k of spec.fields) {
    const v = rec[k];
    if (v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    data[k] = v;
  }
  for (const k of Object.keys(item.extra).sort()) if (!Object.hasOwn(data, k)) setOwn(data, k, item.extra[k]);
  const body = joinSections(String(rec[spec.lead] ?? ''), spec.sections.map(([h, f]) => [h, rec[f] as string | undefined]));
  return stringifyMarkdown(data, body);
}

/** Sets an own property even for names like `__proto__` (plain assignment would set the prototype). */
function setOwn(o: Record<string, unknown>, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

/** "title: must not be empty; status: ..." from a zod error. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((i) => {
      const message = /received undefined$/.test(i.message) ? 'is required' : /expected string, received array$/.test(i.message) ? 'was given more than once: give it once' : i.message;
      return `${i.path.length ? i.path.join('.') : 'value'}: ${message}`;
    })
    .join('; ');
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
}
