import { editDistance } from '../../model/near-names.ts';

/**
 * The existing path nearest to `path`, a path an anchor names that is not there: the file or
 * folder (only a folder when `folder`) fewest edits away (adjacent swaps count one; at most a fifth
 * of its length, at least 2, at most 6), ties to the first in order; else the one file of that
 * name elsewhere (`src/login.ts` for `lib/login.ts`), when there is exactly one. Undefined when
 * nothing is that close.
 */
export function nearestPath(path: string, files: readonly string[], dirs: ReadonlySet<string>, folder: boolean): string | undefined {
  const max = Math.max(2, Math.min(6, Math.floor(path.length / 5)));
  let best: string | undefined;
  let bestD = max + 1;
  const consider = (c: string) => {
    if (Math.abs(c.length - path.length) >= bestD) return;
    const d = editDistance(path, c, bestD - 1);
    if (d < bestD || (d === bestD && best !== undefined && c < best)) {
      best = c;
      bestD = d;
    }
  };
  for (const d of dirs) consider(d);
  if (!folder) for (const f of files) consider(f);
  if (best !== undefined) return best;
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (!name || !path.includes('/')) return undefined;
  const same = (folder ? [...dirs] : files).filter((f) => f === name || f.endsWith(`/${name}`));
  return same.length === 1 ? same[0] : undefined;
}

/** The word of `text` (an identifier) nearest to `symbol`, the text a `path#symbol` anchor names that its file lacks; undefined when none is close. */
export function nearestWord(symbol: string, text: string): string | undefined {
  const max = Math.max(1, Math.min(3, Math.floor(symbol.length / 4)));
  let best: string | undefined;
  let bestD = max + 1;
  for (const w of new Set(text.match(/[A-Za-z_$][\w$]*/g) ?? [])) {
    if (Math.abs(w.length - symbol.length) >= bestD) continue;
    const d = editDistance(symbol, w, bestD - 1);
    if (d < bestD) {
      best = w;
      bestD = d;
    }
  }
  return best;
}
