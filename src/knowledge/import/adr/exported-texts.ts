import { CONTEXT_HEADING, GENERATED_MARKER, OUTCOME_HEADING, REASONING_LINES_FIELD } from './adr-format.ts';

/**
 * The decision and reasoning of a file `axme export adr` wrote, cut by its layout rather than by
 * its headings: the marker, `# Title`, the reasoning (REASONING_LINES_FIELD lines under
 * CONTEXT_HEADING, none when 0) and the decision (the rest, under OUTCOME_HEADING). A text may
 * hold any heading and comes back exactly. Null when the file does not have that layout (not
 * exported, an older export without the count, or edited by hand): the headings decide then.
 */
export function exportedTexts(data: Record<string, unknown>, body: string): { decision: string; reasoning: string } | null {
  const count = data[REASONING_LINES_FIELD];
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) return null;
  const lines = body.split('\n');
  if (lines[0] !== GENERATED_MARKER || lines[1] !== '' || !/^# \S/.test(lines[2] ?? '') || lines[3] !== '') return null;
  let at = 4;
  let reasoning = '';
  if (count > 0) {
    if (lines[at] !== CONTEXT_HEADING || lines[at + 1] !== '' || lines[at + 2 + count] !== '') return null;
    reasoning = lines.slice(at + 2, at + 2 + count).join('\n');
    at += count + 3;
  }
  if (lines[at] !== OUTCOME_HEADING || lines[at + 1] !== '') return null;
  const decision = lines.slice(at + 2).join('\n');
  return decision.trim() ? { decision, reasoning } : null;
}
