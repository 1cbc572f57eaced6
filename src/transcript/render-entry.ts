import type { Redactor } from './redact.ts';
import { escapeAttr, escapeText } from './text.ts';
import type { TranscriptBlock, TranscriptEntry } from './types.ts';
import { jsonText } from './values.ts';

/**
 * One entry as tagged elements for the model: `<user>`, `<assistant>`, `<thinking>`,
 * `<tool name="…">`, `<tool_result name="…">`, `<summary>` (a compaction's), `<compaction />`,
 * `<system subtype="…">`. Every text is redacted, trimmed to its kind's limit, then escaped.
 */

/** One tag: `open + body + close`; the body is the only part trimming may shorten. */
export interface Element {
  open: string;
  body: string;
  close: string;
}

/** Per-kind limits (characters, before escaping) and what to include. */
export interface EntryLimits {
  /** a user, assistant, summary or system text */
  maxText: number;
  /** a tool's output */
  maxToolOutput: number;
  /** one value of a tool's input */
  maxToolInputValue: number;
  /** render thinking blocks */
  thinking: boolean;
}

/** What rendering carries from entry to entry. */
export interface EntryContext {
  limits: EntryLimits;
  redactor: Redactor;
  /** tool names by tool_use id, until their result is rendered */
  toolNames: Map<string, string>;
  /** bodies trimmed so far */
  trimmed: number;
}

/** The elements of `entry`, in order; none when it has nothing to show. */
export function renderEntry(entry: TranscriptEntry, ctx: EntryContext): Element[] {
  if (entry.role === 'system') return systemElements(entry, ctx);
  const out: Element[] = [];
  for (const block of entry.blocks) {
    const el = blockElement(entry, block, ctx);
    if (el) out.push(el);
  }
  return out;
}

function blockElement(entry: TranscriptEntry, block: TranscriptBlock, ctx: EntryContext): Element | null {
  const { limits } = ctx;
  switch (block.type) {
    case 'text': {
      if (!block.text.trim()) return null;
      const tag = entry.compact_summary ? 'summary' : entry.role;
      return tagged(tag, '', body(ctx, block.text, limits.maxText));
    }
    case 'thinking':
      return limits.thinking && block.text.trim() ? tagged('thinking', '', body(ctx, block.text, limits.maxText)) : null;
    case 'image':
      return tagged(entry.role, '', '[image]');
    case 'tool_use':
      if (block.id) ctx.toolNames.set(block.id, block.name);
      return tagged('tool', attrs(ctx, { name: block.name }), toolInput(block.input, ctx));
    case 'tool_result': {
      const name = ctx.toolNames.get(block.tool_use_id);
      ctx.toolNames.delete(block.tool_use_id);
      return tagged('tool_result', attrs(ctx, { name, error: block.is_error ? 'true' : undefined }), body(ctx, block.content, limits.maxToolOutput));
    }
  }
}

function systemElements(entry: TranscriptEntry, ctx: EntryContext): Element[] {
  if (entry.compact_boundary) return [{ open: `<compaction${attrs(ctx, { trigger: entry.compact_trigger ?? undefined })} />`, body: '', close: '' }];
  const text = entry.blocks.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
  if (!text.trim()) return [];
  return [tagged('system', attrs(ctx, { subtype: entry.subtype ?? undefined }), body(ctx, text, ctx.limits.maxText))];
}

/** A tool's input as `key: value` lines, each value redacted and trimmed on its own. */
function toolInput(input: unknown, ctx: EntryContext): string {
  const max = ctx.limits.maxToolInputValue;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return body(ctx, jsonText(input), max);
  return Object.entries(input as Record<string, unknown>)
    .map(([key, value]) => `${body(ctx, key, 200)}: ${body(ctx, typeof value === 'string' ? value : jsonText(value), max)}`)
    .join('\n');
}

/** A text as it goes between tags: redacted, trimmed, escaped. */
function body(ctx: EntryContext, text: string, max: number): string {
  // blank lines around it go, the first line's indentation stays (a Read result's line numbers)
  const trimmed = text.replace(/^\s*\n/, '').trimEnd();
  if (trimmed.length > max) ctx.trimmed++;
  return escapeText(ctx.redactor.redactTrim(trimmed, max));
}

/** ` a="…" b="…"` for the defined values, redacted, trimmed to 200 characters and escaped. */
function attrs(ctx: EntryContext, values: Record<string, string | undefined>): string {
  return Object.entries(values)
    .filter((kv): kv is [string, string] => kv[1] !== undefined)
    .map(([k, v]) => ` ${k}="${escapeAttr(ctx.redactor.redactTrim(v, 200))}"`)
    .join('');
}

function tagged(tag: string, attributes: string, inner: string): Element {
  return { open: `<${tag}${attributes}>`, body: inner, close: `</${tag}>` };
}
