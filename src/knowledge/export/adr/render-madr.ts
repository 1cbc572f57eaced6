import type { Decision } from '../../../model/decision.ts';
import { stringifyYaml } from '../../../model/frontmatter.ts';
import { parseId } from '../../../model/ids.ts';
import {
  CONTEXT_HEADING,
  GENERATED_MARKER,
  MADR_STATUS,
  OUTCOME_HEADING,
  REASONING_LINES_FIELD,
  REVOKED_WORDS,
  titleLine,
} from '../../import/adr/adr-format.ts';

/** The file of a decision in the exported folder: `NNNN-<slug>.md`, NNNN its D-number. */
export function adrFileName(d: Decision): string {
  return `${String(parseId(d.id)?.n ?? 0).padStart(4, '0')}-${d.slug}.md`;
}

/**
 * One decision as a MADR 4 file: front matter (status, date; decision-makers, consulted, informed
 * and enforce when known; revoked-reason), the generated marker, `# Title`, `## Context and
 * Problem Statement` (the reasoning, left out when empty) and `## Decision Outcome` (the decision).
 * The front matter's REASONING_LINES_FIELD says where the reasoning ends, for the import.
 * A superseded decision's status is "superseded by [NNNN-...](NNNN-....md)".
 */
export function renderMadr(d: Decision, successor: Decision | undefined): string {
  const fm: Record<string, unknown> = { status: statusOf(d, successor), date: d.updated.slice(0, 10) };
  for (const [field, key] of [
    ['decision-makers', 'adr_decision_makers'],
    ['consulted', 'adr_consulted'],
    ['informed', 'adr_informed'],
  ] as const) {
    const v = d.extra[key];
    if (typeof v === 'string' || Array.isArray(v)) fm[field] = v;
  }
  if (d.enforce === 'required') fm.enforce = 'required';
  if (d.status === 'revoked' && d.revoked_reason) fm['revoked-reason'] = d.revoked_reason;
  const reasoning = d.reasoning.trim() ? d.reasoning : '';
  // the import cuts the texts by this count, not by headings: a text may hold any heading (import/adr/exported-texts.ts)
  fm[REASONING_LINES_FIELD] = reasoning ? reasoning.split('\n').length : 0;
  const parts = [`---\n${stringifyYaml(fm)}---\n${GENERATED_MARKER}`, titleLine(d.title)];
  if (reasoning) parts.push(`${CONTEXT_HEADING}\n\n${reasoning}`);
  parts.push(`${OUTCOME_HEADING}\n\n${d.decision}`);
  return `${parts.join('\n\n')}\n`;
}

/** The folder's README.md: one row per decision, linking its file. */
export function renderIndex(decisions: Decision[], bySlug: Map<string, Decision>): string {
  const rows = decisions.map((d) => {
    const next = d.superseded_by ? bySlug.get(d.superseded_by) : undefined;
    const status = next ? `superseded by [${adrFileName(next).slice(0, 4)}](${adrFileName(next)})` : statusOf(d, undefined);
    return `| [${adrFileName(d).slice(0, 4)}](${adrFileName(d)}) | ${cell(d.title)} | ${status} | ${d.updated.slice(0, 10)} |`;
  });
  return [
    GENERATED_MARKER,
    '',
    '# Architecture decision records',
    '',
    "The decisions of this repository's axme store, as MADR files written by `axme export adr`. Change a decision in axme (`axme decision add`, `supersede`, `revoke`) and export again: the files here are rewritten to match.",
    '',
    '| ADR | Decision | Status | Date |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}

/** The MADR status: the ADR's own word when it was imported with one that means the same (proposed, rejected, ...). */
function statusOf(d: Decision, successor: Decision | undefined): string {
  if (d.status === 'superseded') return successor ? `superseded by [${adrFileName(successor).replace(/\.md$/, '')}](${adrFileName(successor)})` : 'superseded';
  const word = typeof d.extra.adr_status === 'string' ? d.extra.adr_status : null;
  if (word && word !== 'superseded' && REVOKED_WORDS.has(word) === (d.status === 'revoked')) return word;
  return MADR_STATUS[d.status];
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}
