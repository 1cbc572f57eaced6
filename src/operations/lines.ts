import { diagnosticLine } from '../knowledge/core/diagnostics.ts';
import type { Diagnostic } from '../knowledge/core/state.ts';
import type { BacklogItem } from '../model/backlog.ts';
import type { Decision } from '../model/decision.ts';
import type { Memory } from '../model/memory.ts';
import type { Question } from '../model/question.ts';
import type { CliPrinter } from './operation.ts';

/** One line per decision: `D-001  required  Title  (slug)`, status when not active. */
export function decisionLine(d: Decision): string {
  const status = d.status === 'active' ? '' : ` [${d.status}${d.superseded_by ? ` by ${d.superseded_by}` : ''}]`;
  return `${d.id}  ${d.enforce.padEnd(8)}  ${d.title}${status}  (${d.slug})`;
}

export function memoryLine(m: Memory): string {
  return `${m.slug}  ${m.type.padEnd(8)}  ${m.title}${m.status === 'active' ? '' : ` [${m.status}]`}`;
}

export function backlogLine(b: BacklogItem): string {
  return `${b.id}  ${b.status.padEnd(11)}  ${b.priority.padEnd(6)}  ${b.title}${b.tags.length ? `  #${b.tags.join(' #')}` : ''}`;
}

export function questionLine(q: Question): string {
  return `${q.id}  [${q.status}]  ${firstLine(q.question)}${q.answer ? `  -> ${firstLine(q.answer)}` : ''}`;
}

/** Files that could not be read, as the CLI reports them on stderr: `axme: <line>`, or one JSON line each with --json. */
export function diagnosticNotes(diagnostics: Diagnostic[], json: boolean): string[] {
  return diagnostics.map((d) => (json ? JSON.stringify({ diagnostic: d }) : `axme: ${diagnosticLine(d)}`));
}

export { diagnosticLine };

/** Lines as one text, each ended by a newline unless it has one (or is empty): what printing them one by one gives. */
export function textOf(lines: string[]): string {
  return lines.map((l) => (l.endsWith('\n') || l === '' ? l : `${l}\n`)).join('');
}

function firstLine(s: string): string {
  const l = s.split('\n')[0] ?? '';
  return l.length > 100 ? `${l.slice(0, 97)}...` : l;
}

/** A check's report on the CLI (fsck, check): the result as JSON, or the findings on stdout and `summary` on stderr; exit 1 unless ok. */
export function reportFindings(r: { ok: boolean; findings: Diagnostic[] }, p: CliPrinter, summary: string): number {
  if (p.json) p.printJson(r);
  else {
    for (const f of r.findings) p.out(diagnosticLine(f));
    p.note(summary);
  }
  return r.ok ? 0 : 1;
}
