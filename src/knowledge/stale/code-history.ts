import type { KnowledgeBase } from '../core/kb.ts';
import { type ChangeLog, indexChangeLog, LOG_DIFF_OPTIONS, parseCommits } from './change-log.ts';

/**
 * The code that moved since each learned_at, from a fixed number of git runs whatever the number
 * of items: the commit graph of HEAD (`git rev-list --parents`), then the files of every commit
 * some learned_at has not seen (one `git log --no-walk --stdin`), then, only when some learned_at
 * is not in HEAD's history, one `git cat-file --batch-check` and one `git diff-tree --stdin`.
 */

/** What changed since one learned_at: commits of `log` for which `since` is true. */
export interface ChangeView {
  log: ChangeLog;
  /** true when commit `i` of the log is one learned_at had not seen */
  since(i: number): boolean;
  /** learned_at is not in HEAD's history: `log` holds one comparison of its snapshot with HEAD's, no commits */
  compared: boolean;
}

/** For each learned_at: what changed since it, or null when the commit is unknown here. */
export type CodeHistory = Map<string, ChangeView | null>;

/**
 * The changes since each of `learnedAts` up to `head`. `alongside`, given, is run on the commits
 * some learned_at has not seen while their files are read (another git process at the same time:
 * verify asks which session made each, session-commits.ts).
 */
export async function codeHistory(
  kb: KnowledgeBase,
  head: string,
  learnedAts: string[],
  opts: { alongside?: (unseen: string[]) => Promise<void> } = {},
): Promise<CodeHistory> {
  const out: CodeHistory = new Map();
  // nothing anchored: no git run at all (every read of context and search asks)
  if (learnedAts.length === 0) return out;
  const graph = await commitGraph(kb, head, await boundaryOf(kb, [head, ...learnedAts]));
  const ancestors = learnedAts.filter((l) => graph.index.has(l));
  if (ancestors.length) {
    const seen = seenBy(graph, ancestors);
    const [log] = await Promise.all([commitsSince(kb, graph, seen), opts.alongside?.(seen.unseen.map((c) => graph.order[c]!))]);
    ancestors.forEach((l, j) => {
      const word = j >>> 5;
      const bit = 1 << (j & 31);
      out.set(l, { log: log.log, since: (i) => (seen.bits[log.at[i]! * seen.words + word]! & bit) === 0, compared: false });
    });
  }
  const others = learnedAts.filter((l) => !graph.index.has(l));
  if (others.length) {
    const known = await existingCommits(kb, others);
    for (const l of others) if (!known.has(l)) out.set(l, null);
    const compared = [...known];
    if (compared.length) {
      const r = await kb.repo.git(['diff-tree', '--stdin', '--always', '-r', ...LOG_DIFF_OPTIONS], { input: compared.map((l) => `${head} ${l}\n`).join('') });
      const records = parseCommits(r.stdout.toString('utf8'));
      compared.forEach((l, k) => {
        const rec = records[k] ?? { sha: '', date: '', subject: '', files: [] };
        out.set(l, { log: indexChangeLog([{ ...rec, sha: '' }]), since: () => true, compared: true });
      });
    }
  }
  return out;
}

interface Graph {
  /** commits reachable from HEAD, children before parents */
  order: string[];
  parents: number[][];
  index: Map<string, number>;
}

/**
 * The newest commit HEAD and every learned_at descend from (`git merge-base --octopus`): the
 * history walk stops there, so a repository's older history costs nothing. Null when there is none (unrelated
 * histories, a learned_at that is not a commit here): then the whole history is walked.
 */
async function boundaryOf(kb: KnowledgeBase, learnedAts: string[]): Promise<string | null> {
  const r = await kb.repo.git(['merge-base', '--octopus', ...learnedAts], { allowFail: true });
  const sha = r.code === 0 ? r.stdout.toString('utf8').trim().split('\n')[0] : '';
  return sha && /^[0-9a-f]{40,64}$/.test(sha) ? sha : null;
}

async function commitGraph(kb: KnowledgeBase, head: string, boundary: string | null): Promise<Graph> {
  const r = await kb.repo.git(['rev-list', '--parents', '--topo-order', head, ...(boundary ? [`^${boundary}`] : [])]);
  const lines = r.stdout.toString('utf8').split('\n').filter(Boolean);
  // the boundary itself, last (an ancestor of every other): a learned_at equal to it has seen none of the rest
  if (boundary && !lines.some((l) => l.startsWith(boundary))) lines.push(boundary);
  const index = new Map<string, number>();
  const order: string[] = [];
  for (const line of lines) {
    const sha = line.slice(0, line.indexOf(' ') < 0 ? line.length : line.indexOf(' '));
    index.set(sha, order.length);
    order.push(sha);
  }
  const parents = lines.map((line) =>
    line
      .split(' ')
      .slice(1)
      .map((p) => index.get(p) ?? -1)
      .filter((p) => p >= 0),
  );
  return { order, parents, index };
}

/** Per commit, a bit set of the learned_ats it is an ancestor of (or equal to): one pass over the graph. */
interface Seen {
  bits: Uint32Array;
  words: number;
  /** commits some learned_at has not seen */
  unseen: number[];
}

function seenBy(graph: Graph, ancestors: string[]): Seen {
  const n = graph.order.length;
  const words = (ancestors.length + 31) >>> 5;
  const bits = new Uint32Array(n * words);
  ancestors.forEach((l, j) => (bits[graph.index.get(l)! * words + (j >>> 5)]! |= 1 << (j & 31)));
  const full = new Uint32Array(words).fill(0xffffffff);
  if (ancestors.length & 31) full[words - 1] = (1 << (ancestors.length & 31)) - 1;
  const unseen: number[] = [];
  // topological order: every child comes before its parents, so a commit's set is complete when reached
  for (let c = 0; c < n; c++) {
    const base = c * words;
    let all = true;
    for (let w = 0; w < words; w++) if ((bits[base + w]! | 0) !== (full[w]! | 0)) all = false;
    if (!all) unseen.push(c);
    for (const p of graph.parents[c]!) {
      const pb = p * words;
      for (let w = 0; w < words; w++) bits[pb + w]! |= bits[base + w]!;
    }
  }
  return { bits, words, unseen };
}

/** The files of every commit some learned_at has not seen; `at[i]` is log commit i's place in the graph. */
async function commitsSince(kb: KnowledgeBase, graph: Graph, seen: Seen): Promise<{ log: ChangeLog; at: number[] }> {
  if (!seen.unseen.length) return { log: indexChangeLog([]), at: [] };
  // a merge lists what it changed beyond merging its sides (a conflict resolved, an edit made
  // while merging): git's own re-merge of the parents compared with the commit; a clean merge lists nothing
  const r = await kb.repo.git(['log', '--no-walk=unsorted', '--stdin', '--diff-merges=remerge', ...LOG_DIFF_OPTIONS], {
    input: seen.unseen.map((c) => `${graph.order[c]}\n`).join(''),
  });
  const commits = parseCommits(r.stdout.toString('utf8'));
  const at = commits.map((c) => graph.index.get(c.sha) ?? -1);
  const kept = commits.filter((_, i) => at[i]! >= 0);
  return { log: indexChangeLog(kept), at: at.filter((a) => a >= 0) };
}

/** The commits among `shas` this repository has. */
async function existingCommits(kb: KnowledgeBase, shas: string[]): Promise<Set<string>> {
  const r = await kb.repo.git(['cat-file', '--batch-check=%(objectname) %(objecttype)'], { input: shas.map((s) => `${s}\n`).join('') });
  const found = new Set<string>();
  for (const line of r.stdout.toString('utf8').split('\n')) {
    const [sha, type] = line.split(' ');
    if (type === 'commit' && sha) found.add(sha);
  }
  return found;
}
