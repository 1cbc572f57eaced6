/** The generated part of an oracle page sits between these lines; everything else is people's text. */
export const SCAN_START = '<!-- axme:scan:start -->';
export const SCAN_END = '<!-- axme:scan:end -->';

export type RegionMerge = { ok: true; body: string } | { ok: false; reason: string };

/**
 * Puts a generated part into a page body: it replaces the text between the markers when the
 * body has them (each on a line of its own, once, start before end), and is appended after the
 * body when it has none. Anything else is refused rather than guessed at: guessing could drop
 * someone's text.
 */
export function mergeRegion(body: string, generated: string): RegionMerge {
  const block = `${SCAN_START}\n${generated}\n${SCAN_END}`;
  const lines = body.split('\n');
  const starts = lines.flatMap((l, i) => (l.trim() === SCAN_START ? [i] : []));
  const ends = lines.flatMap((l, i) => (l.trim() === SCAN_END ? [i] : []));
  if (!starts.length && !ends.length) {
    const own = body.replace(/\s+$/, '');
    return { ok: true, body: own === '' ? block : `${own}\n\n${block}` };
  }
  if (starts.length !== 1 || ends.length !== 1 || ends[0]! < starts[0]!) {
    return {
      ok: false,
      reason: `it has ${starts.length} "${SCAN_START}" and ${ends.length} "${SCAN_END}" lines: keep exactly one of each around the generated part (start first), or remove both, and scan again`,
    };
  }
  return { ok: true, body: [...lines.slice(0, starts[0]), block, ...lines.slice(ends[0]! + 1)].join('\n') };
}
