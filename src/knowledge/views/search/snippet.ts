import { tokenize } from './analyze.ts';

/** The line of `lines` with the most query terms, trimmed to ~200 characters around the first one. */
export function snippet(lines: readonly string[], terms: readonly string[]): string {
  let best = '';
  let bestScore = -1;
  for (const line of lines.flatMap((t) => t.split('\n'))) {
    if (!line.trim()) continue;
    const toks = new Set(tokenize(line));
    const s = terms.filter((t) => toks.has(t)).length;
    if (s > bestScore) [best, bestScore] = [line.trim(), s];
  }
  if (best.length <= 200) return best;
  const low = best.toLowerCase();
  const at = Math.max(0, Math.min(...terms.map((t) => low.indexOf(t)).filter((i) => i >= 0), best.length) - 60);
  return `${at > 0 ? '…' : ''}${best.slice(at, at + 200)}…`;
}
