import type { KindName } from '../../../model/kind.ts';
import { KIND_ORDER, KINDS } from '../../../model/kinds.ts';
import { SGR_CODES } from '../../../model/terminal-text.ts';
import { type ItemChange, type ItemRef, type SemanticDiff } from './semantic-diff.ts';

/**
 * The semantic diff as text: for a terminal (ANSI colour only when asked: the CLI asks on a
 * TTY) or as Markdown for a pull request's body and comments. Both say the same things in the
 * same order: items by kind, safety rules, settings, findings.
 */

const VERB: Record<ItemChange['change'], string> = {
  added: 'added',
  removed: 'removed',
  superseded: 'superseded',
  revoked: 'revoked',
  archived: 'archived',
  answered: 'answered',
  reopened: 'reopened',
  changed: 'changed',
};

/** "3 added, 1 superseded; 2 safety rules added" — or "no knowledge changes". */
export function summaryLine(d: SemanticDiff): string {
  const parts = (Object.keys(VERB) as Array<ItemChange['change']>).filter((k) => d.counts[k] > 0).map((k) => `${d.counts[k]} ${VERB[k]}`);
  const rules = [
    d.counts.rulesAdded ? `${d.counts.rulesAdded} safety rule${d.counts.rulesAdded === 1 ? '' : 's'} added` : '',
    d.counts.rulesRemoved ? `${d.counts.rulesRemoved} removed` : '',
  ].filter(Boolean);
  const settings = d.rules.settings.length + d.config.length;
  const all = [
    parts.join(', '),
    rules.join(', '),
    settings ? `${settings} setting${settings === 1 ? '' : 's'} changed` : '',
    d.broken.length ? `${d.broken.length} broken file${d.broken.length === 1 ? '' : 's'}` : '',
  ].filter(Boolean);
  return all.length ? all.join('; ') : 'no knowledge changes';
}

const label = (r: ItemRef) => (r.id ? `${r.id} ${r.title}` : r.title);
const short = (oid: string | null) => (oid ? oid.slice(0, 12) : '(empty)');
const value = (v: unknown) => (v === null || v === undefined ? '(unset)' : typeof v === 'string' ? v : JSON.stringify(v));

function grouped(d: SemanticDiff): Array<[KindName, ItemChange[]]> {
  return KIND_ORDER.map((k) => [k, d.items.filter((i) => i.kind === k)] as [KindName, ItemChange[]]).filter(([, list]) => list.length > 0);
}

/** What changed: the item, and for a supersession its successor. */
function subject(i: ItemChange): string {
  return i.change === 'superseded' && i.successor ? `${label(i)} -> ${label(i.successor)}` : label(i);
}

/** An item added in a state other than the first one (a decision added already superseded). */
const addedAs = (i: ItemChange) => (i.change === 'added' && i.status?.after && !['active', 'open'].includes(i.status.after) ? ` [${i.status.after}]` : '');

/** What the detail line is. */
const detailName = (i: ItemChange) => (i.change === 'revoked' ? 'reason' : i.change === 'answered' ? 'answer' : 'description');

/** A question added is a question opened. */
const verbOf = (i: ItemChange) => (i.kind === 'question' && i.change === 'added' ? 'opened' : VERB[i.change]);

export interface TextOptions {
  /** ANSI colours (the CLI passes true on a TTY, unless NO_COLOR) */
  color?: boolean;
}

/** The diff for a terminal. */
export function renderDiffText(d: SemanticDiff, opts: TextOptions = {}): string {
  const c = opts.color ? ansi : plain;
  const lines: string[] = [c.bold(`Knowledge ${short(d.from)}..${short(d.to)}: ${summaryLine(d)}`)];
  for (const [kind, list] of grouped(d)) {
    lines.push('', c.bold(KINDS[kind].heading));
    for (const i of list) {
      const mark = i.change === 'added' ? c.green('+') : i.change === 'removed' || i.change === 'revoked' ? c.red('-') : c.yellow('~');
      lines.push(`  ${mark} ${verbOf(i)} ${subject(i)}${addedAs(i)}  ${c.dim(i.path)}`);
      if (i.detail) lines.push(...indent(`${detailName(i)}: ${i.detail}`, '      '));
      for (const f of i.fields) if (f.field !== 'status') lines.push(`      ${f.field}: ${value(f.before)} -> ${value(f.after)}`);
      if (i.body && i.change !== 'added') lines.push(...i.body.split('\n').map((l) => `      ${colorLine(c, l)}`));
    }
  }
  if (d.rules.added.length || d.rules.removed.length || d.rules.settings.length) {
    lines.push('', c.bold('Safety rules'));
    for (const r of d.rules.added) lines.push(`  ${c.green('+')} ${r.type}: ${r.value}`);
    for (const r of d.rules.removed) lines.push(`  ${c.red('-')} ${r.type}: ${r.value}`);
    for (const s of d.rules.settings) lines.push(`  ${c.yellow('~')} ${s.setting}: ${value(s.before)} -> ${value(s.after)}`);
  }
  if (d.config.length) {
    lines.push('', c.bold('Settings (axme.yaml)'));
    for (const s of d.config) lines.push(`  ${c.yellow('~')} ${s.setting}: ${value(s.before)} -> ${value(s.after)}`);
  }
  if (d.broken.length) {
    lines.push('', c.bold(c.red('Files that do not parse')));
    for (const b of d.broken) lines.push(`  ${c.red('!')} ${b.path}: ${b.reason}`);
  }
  if (d.other.length) lines.push('', c.bold('Other files'), ...d.other.map((p) => `  ${p}`));
  return lines.join('\n');
}

/** One line per change, no bodies: `axme log --changes`, like `git log --stat`. */
export function changeLines(d: SemanticDiff): string[] {
  const lines: string[] = [];
  for (const [, list] of grouped(d))
    for (const i of list)
      lines.push(
        `${i.change === 'added' ? '+' : i.change === 'removed' || i.change === 'revoked' ? '-' : '~'} ${verbOf(i)} ${subject(i)}${addedAs(i)}${i.change === 'changed' && i.fields.length ? ` (${i.fields.map((f) => f.field).join(', ')}${i.body ? ', body' : ''})` : i.change === 'changed' && i.body ? ' (body)' : ''}`,
      );
  for (const r of d.rules.added) lines.push(`+ safety rule ${r.type}: ${r.value}`);
  for (const r of d.rules.removed) lines.push(`- safety rule ${r.type}: ${r.value}`);
  for (const x of d.rules.settings) lines.push(`~ safety ${x.setting}: ${value(x.before)} -> ${value(x.after)}`);
  for (const x of d.config) lines.push(`~ axme.yaml ${x.setting}: ${value(x.before)} -> ${value(x.after)}`);
  for (const b of d.broken) lines.push(`! ${b.path}: ${b.reason}`);
  for (const p of d.other) lines.push(`? ${p}`);
  return lines;
}

/** The diff as Markdown: a pull request's body, a review comment. */
export function renderDiffMarkdown(d: SemanticDiff, opts: { title?: string } = {}): string {
  const out: string[] = [`${opts.title ?? '## Knowledge changes'}`, '', `\`${short(d.from)}..${short(d.to)}\`: ${summaryLine(d)}.`];
  for (const [kind, list] of grouped(d)) {
    out.push('', `### ${KINDS[kind].heading}`, '');
    for (const i of list) {
      out.push(`- **${verbOf(i)}** ${md(subject(i).replace(' -> ', ' → '))}${addedAs(i)} — \`${i.path}\``);
      if (i.detail) out.push(`  > ${md(i.detail).replace(/\n/g, '\n  > ')}`);
      for (const f of i.fields) if (f.field !== 'status') out.push(`  - \`${f.field}\`: ${code(value(f.before))} → ${code(value(f.after))}`);
      // a kind whose body is its description (a backlog item) is quoted once, as the detail
      if (i.change === 'added' && i.body) {
        if (i.body.trim() !== i.detail?.trim()) out.push('', ...quoteBlock(i.body));
      } else if (i.body) out.push('', '  ```diff', ...i.body.split('\n').map((l) => `  ${l}`), '  ```');
    }
  }
  if (d.rules.added.length || d.rules.removed.length || d.rules.settings.length) {
    out.push('', '### Safety rules', '');
    for (const r of d.rules.added) out.push(`- **added** \`${r.type}\`: ${code(r.value)}`);
    for (const r of d.rules.removed) out.push(`- **removed** \`${r.type}\`: ${code(r.value)}`);
    for (const s of d.rules.settings) out.push(`- **changed** \`${s.setting}\`: ${code(value(s.before))} → ${code(value(s.after))}`);
  }
  if (d.config.length) {
    out.push('', '### Settings (`axme.yaml`)', '');
    for (const s of d.config) out.push(`- \`${s.setting}\`: ${code(value(s.before))} → ${code(value(s.after))}`);
  }
  if (d.broken.length) {
    out.push('', '### Files that do not parse', '');
    for (const b of d.broken) out.push(`- \`${b.path}\`: ${md(b.reason)}`);
  }
  if (d.other.length) out.push('', '### Other files', '', ...d.other.map((p) => `- \`${p}\``));
  return out.join('\n');
}

/** Text that cannot break out of a Markdown list item or start HTML. */
function md(s: string): string {
  return s.replace(/[<>]/g, (ch) => (ch === '<' ? '&lt;' : '&gt;'));
}

/** An inline code span that holds any text (backticks inside get a longer fence). */
function code(s: string): string {
  const one = s.replace(/\n/g, ' ');
  const longest = Math.max(0, ...(one.match(/`+/g) ?? []).map((m) => m.length));
  const fence = '`'.repeat(longest + 1);
  return longest ? `${fence} ${one} ${fence}` : `${fence}${one}${fence}`;
}

function quoteBlock(text: string): string[] {
  const lines = text.split('\n');
  const kept = lines.length > 20 ? [...lines.slice(0, 20), `… (${lines.length - 20} more lines)`] : lines;
  return kept.map((l) => `  > ${md(l)}`.trimEnd());
}

function indent(text: string, pad: string): string[] {
  return text.split('\n').map((l) => `${pad}${l}`);
}

function colorLine(c: Colors, l: string): string {
  if (l.startsWith('+')) return c.green(l);
  if (l.startsWith('-')) return c.red(l);
  if (l.startsWith('@@')) return c.cyan(l);
  return l;
}

interface Colors {
  bold: (s: string) => string;
  dim: (s: string) => string;
  red: (s: string) => string;
  green: (s: string) => string;
  yellow: (s: string) => string;
  cyan: (s: string) => string;
}
const wrap = (open: number, close: number) => (s: string) => `\x1b[${open}m${s}\x1b[${close}m`;
const S = SGR_CODES;
const ansi: Colors = {
  bold: wrap(S.bold, S.normal),
  dim: wrap(S.dim, S.normal),
  red: wrap(S.red, S.defaultColor),
  green: wrap(S.green, S.defaultColor),
  yellow: wrap(S.yellow, S.defaultColor),
  cyan: wrap(S.cyan, S.defaultColor),
};
const id = (s: string) => s;
const plain: Colors = { bold: id, dim: id, red: id, green: id, yellow: id, cyan: id };
