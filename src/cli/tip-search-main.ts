import { locateRepo } from '../knowledge/core/location.ts';
import { searchAnswerOf, searchAtTip } from '../knowledge/views/search/tip-search.ts';
import { SEARCH_LIMIT_FLAG, SEARCH_LIMIT_SHORT, SEARCH_TYPES, type SearchType } from '../model/search-kinds.ts';
import { textProblem } from '../model/text-problem.ts';
import { type Found, moreHitsNote, searchJson, searchLines } from '../operations/search-text.ts';

/** The `axme search` command line the query at the tip takes: words, and `--json`, `--type <kind>`, `-k`/`--limit <n>` at most. */
interface TipSearchArgs {
  query: string;
  k: number;
  type: SearchType;
  json: boolean;
}

/** The names of the count of results, as the full CLI takes them (`-k`, `--k`, `--limit`). */
const LIMIT = new RegExp(`^(?:-${SEARCH_LIMIT_SHORT}|--${SEARCH_LIMIT_SHORT}|--${SEARCH_LIMIT_FLAG})(?:=(.*))?$`, 's');

/**
 * The arguments after `search`, or undefined for anything else (other flags, a flag given twice,
 * a value yargs would read otherwise): the full CLI then parses them. Words after `--` are words,
 * whatever they start with (`axme search -- --no-verify`).
 */
export function tipSearchArgs(rest: readonly string[]): TipSearchArgs | undefined {
  const words: string[] = [];
  const a: TipSearchArgs = { query: '', k: 10, type: 'all', json: false };
  let typed = false;
  let counted = false;
  for (let i = 0; i < rest.length; i++) {
    const w = rest[i]!;
    const limit = LIMIT.exec(w);
    // a lone "-" is a word, as on the full CLI (main.ts withLoneDashes)
    if (!w.startsWith('-') || w === '-') words.push(w);
    else if (w === '--') {
      words.push(...rest.slice(i + 1));
      break;
    } else if (w === '--json' && !a.json) a.json = true;
    else if ((w === '--type' || w.startsWith('--type=')) && !typed) {
      const v = w === '--type' ? rest[++i] : w.slice('--type='.length);
      if (!(SEARCH_TYPES as readonly string[]).includes(v ?? '')) return undefined;
      a.type = v as SearchType;
      typed = true;
    } else if (limit && !counted) {
      const v = limit[1] ?? rest[++i];
      if (!v || !/^[1-9][0-9]?$|^100$/.test(v)) return undefined;
      a.k = Number(v);
      counted = true;
    } else return undefined;
  }
  a.query = words.join(' ').trim();
  // a query the full path refuses (control characters, as item text): refused there, with its message
  return a.query && !textProblem(a.query) ? a : undefined;
}

/**
 * `axme search` on the launcher's fast path (docs/search.md): the query at the tip, printed as
 * the full CLI prints it. Returns false when it cannot answer (the arguments or the store ask for
 * the full path): nothing was printed then.
 */
export function tipSearch(
  args: readonly string[],
  io: { cwd: string; env: NodeJS.ProcessEnv; write: (text: string) => void; note: (text: string) => void },
): boolean {
  const a = tipSearchArgs(args);
  if (!a) return false;
  const loc = locateRepo(io.cwd, io.env);
  if (!loc) return false;
  const r = searchAtTip({ loc, cwd: io.cwd, env: io.env, query: a.query, k: a.k, type: a.type });
  if (!r) return false;
  const found: Found = { ...searchAnswerOf(r), query: a.query, type: a.type };
  const more = a.json ? null : moreHitsNote(found);
  if (more) io.note(`${more}\n`);
  io.write(a.json ? `${JSON.stringify(searchJson(found), null, 2)}\n` : searchLines(found));
  return true;
}

export { promptRecallAtTip } from '../hooks/tip-recall.ts';
