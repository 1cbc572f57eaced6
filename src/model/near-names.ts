/**
 * The names a mistyped word was most likely meant to be, among the names a place takes: an
 * unknown option (`--titel`: title), a value an option does not take (`--enforce require`:
 * required), a client's short name (`--agent claude`: claude-code, claude-desktop). Pure: the
 * CLI's usage errors and the clients' list reader say them the same way (docs/cli.md, "Output,
 * errors and exit codes").
 */

/**
 * The known names closest to `word`: the one fewest edits away (at most 2, and fewer than a third
 * of its length; a singular or plural of it counts none), else every name that starts with `word`
 * and a separator (`claude` → `claude-code`, `claude-desktop`, in `known`'s order). Compared
 * without case; a name is offered as `known` spells it (`potion-base-8m` → `potion-base-8M`).
 * Empty when none is that close. One-letter names are never offered.
 */
export function nearNames(word: string, known: Iterable<string>): string[] {
  const w = word.toLowerCase();
  const names = [...known].filter((k) => k.length > 1);
  let best: string | undefined;
  let bestD = Math.min(2, Math.ceil(w.length / 3));
  for (const name of names) {
    const k = name.toLowerCase();
    const d = k === w.replace(/s$/, '') || k === `${w}s` ? 0 : editDistance(w, k, bestD);
    if (d < bestD || (d === bestD && best === undefined)) {
      best = name;
      bestD = d;
    }
  }
  if (best !== undefined) return [best];
  return w.length >= 2 ? names.filter((k) => k.toLowerCase().startsWith(w) && /[-_.:/]/.test(k[w.length] ?? '')) : [];
}

/** `a`, `a or b`, `a, b or c`: names as a sentence says them. */
export function eitherOf(names: readonly string[]): string {
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : (names[0] ?? '');
}

/** Damerau-Levenshtein distance (adjacent swaps count one), or more than `max` when it exceeds it. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}
