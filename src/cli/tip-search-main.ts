import { locateRepo } from '../knowledge/core/location.ts';
import { searchAtTip } from '../knowledge/views/search/tip-search.ts';
import { SEARCH_TYPES, type SearchType } from '../model/search-kinds.ts';
import { type Found, searchJson, searchLines } from '../operations/search-text.ts';

/** The `axme search` command line the query at the tip takes: words, and `--json`, `--type <kind>`, `--k <n>` at most. */
interface TipSearchArgs {
  query: string;
  k: number;
  type: SearchType;
  json: boolean;
}

/** The arguments after `search`, or undefined for anything else (other flags, `--`, a value yargs would read otherwise): the full CLI then parses them. */
export function tipSearchArgs(rest: readonly string[]): TipSearchArgs | undefined {
  const words: string[] = [];
  const a: TipSearchArgs = { query: '', k: 10, type: 'all', json: false };
  for (let i = 0; i < rest.length; i++) {
    const w = rest[i]!;
    if (!w.startsWith('-')) words.push(w);
    else if (w === '--json' && !a.json) a.json = true;
    else if (w === '--type' || w.startsWith('--type=')) {
      const v = w === '--type' ? rest[++i] : w.slice('--type='.length);
      if (!(SEARCH_TYPES as readonly string[]).includes(v ?? '')) return undefined;
      a.type = v as SearchType;
    } else if (w === '--k' || w.startsWith('--k=')) {
      const v = w === '--k' ? rest[++i] : w.slice('--k='.length);
      if (!v || !/^[1-9][0-9]?$|^100$/.test(v)) return undefined;
      a.k = Number(v);
    } else return undefined;
  }
  a.query = words.join(' ').trim();
  return a.query ? a : undefined;
}

/**
 * `axme search` on the launcher's fast path (docs/search.md): the query at the tip, printed as
 * the full CLI prints it. Returns false when it cannot answer (the arguments or the store ask for
 * the full path): nothing was printed then.
 */
export function tipSearch(args: readonly string[], io: { cwd: string; env: NodeJS.ProcessEnv; write: (text: string) => void }): boolean {
  const a = tipSearchArgs(args);
  if (!a) return false;
  const loc = locateRepo(io.cwd, io.env);
  if (!loc) return false;
  const r = searchAtTip({ loc, cwd: io.cwd, env: io.env, query: a.query, k: a.k, type: a.type });
  if (!r) return false;
  const found: Found = { ...r, query: a.query, type: a.type };
  io.write(a.json ? `${JSON.stringify(searchJson(found), null, 2)}\n` : searchLines(found));
  return true;
}

export { promptRecallAtTip } from '../hooks/tip-recall.ts';
