import { readFileSync } from 'node:fs';
import type { KindName } from '../../../model/kind.ts';
import { localSettingsFiles } from '../../../model/local-settings-files.ts';
import { MEMORY_REF } from '../../../model/refs.ts';
import { headCommitSync, type RepoLocation, readRefSync } from '../../../store/locate.ts';
import { workspaceFor } from '../../../store/workspace-store.ts';
import { currentModelName, installedModelDir } from '../../models/model-paths.ts';
import type { Doc } from './build-index.ts';
import { hitOf, queryOf, type SearchHit } from './hits.ts';
import { keyOfStoreAlone, readLast, readStale, readTipIndex, searchDir, type TipIndex } from './persist.ts';
import { rankTop } from './prune.ts';
import { queryWorth } from './query-worth.ts';

/**
 * A search at the memory tip that opens no store (docs/search.md, "The query at the tip"): the
 * tip's commit from its ref file, the index file `last` names for that commit, the stale marks
 * kept for the tree and HEAD — three small reads and one file, no git process, no item parsed.
 * It answers exactly what `searchKnowledge` answers (the same index, query and ranking code) or
 * nothing (undefined): whenever something it cannot see could change the answer (no index for
 * this tip yet, a workspace merged in, embeddings configured, staleness not yet worked out for
 * this HEAD, a bare repository, refs only git can read), and the caller then takes the full path,
 * which leaves the files behind for the next time. Light: no zod, no yaml, no git.
 */
export function searchAtTip(opts: TipSearchOptions): TipSearchResult | undefined {
  try {
    return answer(opts);
  } catch {
    // whatever goes wrong here (a file that cannot be read as expected): the full path answers, and rebuilds what it must
    return undefined;
  }
}

export interface TipSearchOptions {
  loc: RepoLocation;
  /** the folder the search runs in (a workspace is searched for from there) */
  cwd: string;
  env: NodeJS.ProcessEnv;
  query: string;
  k: number;
  type: 'all' | KindName;
  /** filled in when given: how many bytes of the index file the query read, and the file's size */
  reads?: { read: number; size: number };
}

/** `worth`, `docs`: what the query's words are worth in the index (query-worth.ts) and its documents, which a prompt's recall reads a score against */
export type TipSearchResult = { hits: SearchHit[]; commit: string; total: number; worth: number; docs: number };

/** A search's answer of a result at the tip: its hits, commit and total (what the query is worth and the index's size are the prompt recall's, recall-prompt.ts). */
export function searchAnswerOf(r: TipSearchResult): { hits: SearchHit[]; commit: string; total: number } {
  return { hits: r.hits, commit: r.commit, total: r.total };
}

function answer(opts: TipSearchOptions): TipSearchResult | undefined {
  const { loc, k } = opts;
  const query = opts.query.trim();
  if (!loc.worktree || query === '' || query.length > 1000 || !Number.isInteger(k) || k < 1 || k > 100) return undefined;
  const commit = readRefSync(loc.commonDir, MEMORY_REF);
  if (commit === null || commit === 'unknown') return undefined;
  const dir = searchDir(`${loc.commonDir}/axme`);
  const last = readLast(dir);
  if (last?.commit !== commit || !keyOfStoreAlone(last.key) || workspaceFor(loc, opts.cwd) || !lexicalOnlyHere(loc.commonDir, opts.env)) return undefined;
  const tip = readTipIndex(dir, last.key);
  if (!tip) return undefined;
  try {
    return tip.embeddings ? undefined : rankAtTip(opts, tip, dir, last.key, commit);
  } finally {
    if (opts.reads) Object.assign(opts.reads, tip.reads());
    tip.close();
  }
}

function rankAtTip({ loc, k, type, query }: TipSearchOptions, tip: TipIndex, dir: string, key: string, commit: string): TipSearchResult | undefined {
  const { index } = tip;
  let staleOf = (_d: Doc): { reason: string } | undefined => undefined;
  if (tip.anchored) {
    const head = headCommitSync(loc.gitDir, loc.commonDir);
    const marks = head === 'unknown' ? undefined : readStale(dir, key, head ?? 'none');
    if (!marks) return undefined;
    if (marks.length) {
      // a stale item is looked up by kind and slug for every document scored: the slugs in one read, not a record each
      tip.readSlugs();
      const byItem = new Map(marks.map((m) => [`${m.kind}:${m.slug}`, m]));
      staleOf = (d) => (d.store ? undefined : byItem.get(`${d.kind}:${d.slug}`));
    }
  }
  const { said, groups } = queryOf(index, query.trim(), { once: true });
  if (said.length === 0) return { hits: [], commit, total: 0, worth: 0, docs: index.docs.length };
  const kinds = type === 'all' ? undefined : new Set<KindName>([type]);
  const top = rankTop(index, groups, said, k, (d) => staleOf(d) !== undefined, kinds);
  return {
    hits: top.ranked.map((r) => hitOf(r, said, staleOf, { commit })),
    commit,
    worth: queryWorth(index, groups),
    docs: index.docs.length,
    // worked out when read (a prompt's recall does not read it)
    get total() {
      return top.total;
    },
  };
}

/**
 * True when no machine-local settings file could configure embeddings (search by meaning needs
 * the store's configuration and a model: the full path). A new source of meaning (a local model)
 * must be checked here too.
 */
function lexicalOnlyHere(commonDir: string, env: NodeJS.ProcessEnv): boolean {
  // a local model in force (axme models pull) ranks by meaning too
  const model = currentModelName(env);
  if (model && installedModelDir(env, model)) return false;
  const files = localSettingsFiles(commonDir, env);
  for (const file of [files.clone, files.user]) {
    if (!file) continue;
    try {
      if (readFileSync(file, 'utf8').includes('embeddings')) return false;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' && (err as NodeJS.ErrnoException).code !== 'ENOTDIR') return false;
    }
  }
  return true;
}
