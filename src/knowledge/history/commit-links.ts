import type { Decision } from '../../model/decision.ts';
import { AxmeError } from '../../model/errors.ts';
import { blameLines, type CommitInfo, commitInfo, commitPage, type GitAt, noteFields, readNote, trailersOf } from '../../store/code-commits.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { readState } from '../core/state.ts';

/** What is known about why a code commit exists: its PR, session, the decisions behind it. */
export interface CommitLinks {
  commit: string;
  subject: string;
  author: string;
  date: string;
  pr: string | null;
  repo: string | null;
  /** `https://github.com/<repo>/pull/<n>` when both are known */
  prUrl: string | null;
  session: string | null;
  /** the refs/memory/main tip when the commit was made (from its note) */
  memory: string | null;
  decisions: Array<{ id: string; title: string | null; status: string | null }>;
  /** the note on refs/notes/axme, as key/value pairs */
  note: Record<string, string>;
}

/** `axme show-commit <rev>`: the knowledge linked to a code commit (trailers, note, decisions). */
export async function showCommit(kb: KnowledgeBase, at: GitAt, rev: string): Promise<CommitLinks> {
  const info = await commitInfo(at, rev);
  if (!info)
    throw new AxmeError('BAD_REVISION', `${JSON.stringify(rev.slice(0, 80))} names no commit: give a commit, branch or tag (git log shows them)`, { rev });
  return linksOf(kb, at, info.commit, info);
}

/**
 * A page of the code's history (HEAD first) with what each commit links to: one git process for
 * the commits, their trailers and notes, and the store read once for the decisions.
 */
export async function commitLinksPage(kb: KnowledgeBase, at: GitAt, opts: { skip: number; count: number }): Promise<CommitLinks[]> {
  const page = await commitPage(at, opts);
  if (!page.length) return [];
  const decisions = await currentDecisions(kb);
  return page.map((c) => linksFrom(c, c.trailers, c.note ?? '', decisions));
}

async function linksOf(kb: KnowledgeBase, at: GitAt, commit: string, info: CommitInfo): Promise<CommitLinks> {
  const trailers = await trailersOf(at, info.message);
  const noteText = (await readNote(at, commit)) ?? '';
  return linksFrom({ ...info, commit }, trailers, noteText, await currentDecisions(kb));
}

/** The decisions as the store knows them now (a superseded one says so); none before `axme init`. */
async function currentDecisions(kb: KnowledgeBase): Promise<Decision[]> {
  try {
    return (await readState(kb)).items.decision;
  } catch (err) {
    if (err instanceof AxmeError && err.code === 'NOT_INITIALIZED') return [];
    throw err;
  }
}

/** A commit's links from its message, trailers and note, against the store's decisions. Pure. */
function linksFrom(info: CommitInfo, trailers: Map<string, string>, noteText: string, decisions: Decision[]): CommitLinks {
  const commit = info.commit;
  const note: Record<string, string> = Object.fromEntries([...noteFields(noteText)].map(([k, v]) => [k, v[v.length - 1]!]));
  const pr = trailers.get('axme-pr') ?? note.pr ?? null;
  const repo = trailers.get('axme-repo') ?? note.repo ?? null;
  const ids = new Set([...(info.message.match(/\bD-\d{3,}\b/g) ?? []), ...(note.decisions ? note.decisions.split(/,\s*/) : [])].filter(Boolean));
  return {
    commit,
    subject: info.subject,
    author: info.author,
    date: info.date,
    pr,
    repo,
    prUrl: pr && /^\d+$/.test(pr) && repo ? `https://github.com/${repo}/pull/${pr}` : null,
    session: trailers.get('axme-session') ?? note.session ?? null,
    memory: note.memory ?? null,
    decisions: [...ids].sort().map((id) => {
      const d = decisions.find((x) => x.id === id || (x.aliases ?? []).includes(id));
      return { id, title: d?.title ?? null, status: d?.status ?? null };
    }),
    note,
  };
}

/** `axme blame <file>[:<line>[-<line>]]`: the commits behind those lines and what each links to. */
export async function blameKnowledge(kb: KnowledgeBase, at: GitAt, file: string, range?: [number, number]): Promise<Array<CommitLinks & { lines: number[] }>> {
  let lines;
  try {
    lines = await blameLines(at, file, range);
  } catch (err) {
    throw new AxmeError('INVALID_INPUT', `cannot blame ${file}: ${(err as Error).message}`, { file });
  }
  const byCommit = new Map<string, number[]>();
  for (const l of lines) byCommit.set(l.commit, [...(byCommit.get(l.commit) ?? []), l.line]);
  const out: Array<CommitLinks & { lines: number[] }> = [];
  for (const [commit, ls] of byCommit) {
    if (/^0+$/.test(commit)) continue; // not committed yet
    const info = await commitInfo(at, commit);
    if (info) out.push({ ...(await linksOf(kb, at, commit, info)), lines: ls });
  }
  return out;
}
