import type { BacklogItem } from '../model/backlog.ts';
import type { Decision } from '../model/decision.ts';
import type { Memory } from '../model/memory.ts';
import type { Question } from '../model/question.ts';

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

export { diagnosticLine } from '../knowledge/core/diagnostics.ts';

function firstLine(s: string): string {
  const l = s.split('\n')[0] ?? '';
  return l.length > 100 ? `${l.slice(0, 97)}...` : l;
}
