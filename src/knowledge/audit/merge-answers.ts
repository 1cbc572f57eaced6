import { AuditAnswer } from '../../model/audit.ts';
import { normalizeTitle } from '../../model/dedup.ts';

/**
 * The answers of a transcript's chunks, in order, as one: the lists joined (an item two chunks
 * both found kept once, the later wording winning), the handoff fields from the last chunk that
 * says something (where the session ended), summaries and worklog entries joined in order.
 */
export function mergeAnswers(answers: AuditAnswer[]): AuditAnswer {
  if (answers.length === 1) return answers[0]!;
  const out = AuditAnswer.parse({});
  const byTitle = <T>(list: T[], key: (x: T) => string): T[] => {
    const seen = new Map<string, T>();
    for (const x of list) seen.set(normalizeTitle(key(x)) || key(x), x);
    return [...seen.values()];
  };
  out.decisions = byTitle(
    answers.flatMap((a) => a.decisions),
    (d) => d.title,
  );
  out.memories = byTitle(
    answers.flatMap((a) => a.memories),
    (m) => `${m.type}:${m.title}`,
  );
  out.safety_rules = byTitle(
    answers.flatMap((a) => a.safety_rules),
    (r) => `${r.action}:${r.rule_type}:${r.value}`,
  );
  out.questions = byTitle(
    answers.flatMap((a) => a.questions),
    (q) => q.question,
  );
  out.prs = byTitle(
    answers.flatMap((a) => a.prs),
    (p) => p.url || p.title,
  );
  out.dirty_branches = [...new Set(answers.flatMap((a) => a.dirty_branches))];
  for (const k of ['stopped_at', 'in_progress', 'next_steps', 'test_results', 'blockers', 'startup_text'] as const) {
    out[k] = [...answers].reverse().find((a) => a[k].trim() !== '')?.[k] ?? '';
  }
  for (const k of ['summary', 'worklog_entry'] as const)
    out[k] = answers
      .map((a) => a[k].trim())
      .filter(Boolean)
      .join('\n\n');
  out.oracle_rescan = answers.some((a) => a.oracle_rescan);
  return out;
}
