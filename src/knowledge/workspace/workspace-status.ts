import { resolve } from 'node:path';
import { AxmeError, isAxmeError } from '../../model/errors.ts';
import { KINDS, type KindName } from '../../model/kinds.ts';
import { withoutRepoEnv } from '../../store/git.ts';
import { locateRepo } from '../../store/locate.ts';
import { workspaceFor } from '../../store/workspace-store.ts';
import { storeStatus } from '../admin/store-status.ts';
import { closeKnowledgeBase, openKnowledgeBase } from '../core/kb.ts';
import { readState } from '../core/state.ts';
import { detectWorkspace } from './detect-workspace.ts';

/** One store of a workspace: where it is, its tip, and how many items of each kind (by status). */
export interface StoreSummary {
  /** the repository folder (for the workspace store: `<workspace>/.axme.git`) */
  path: string;
  ref: string;
  /** the tip; null when the store does not exist yet */
  commit: string | null;
  /** committer date of the tip */
  date: string | null;
  counts: Record<string, Record<string, number>>;
  /** files that could not be read (see `axme fsck`) */
  problems: number;
  /** set when the store could not be read at all */
  error?: string;
}

export interface WorkspaceStatus {
  /** the workspace folder; null when the folder is a single repository outside any workspace */
  root: string | null;
  /** the workspace store; null outside a workspace, or before `axme init --workspace` */
  store: (StoreSummary & { kind: string | null }) | null;
  /** what marks the folder as a workspace */
  markers: string[];
  /** the member repositories (outside a workspace: the one repository) */
  repos: Array<StoreSummary & { name: string }>;
}

/**
 * The workspace around `cwd` (a member repository, the workspace folder, or a folder inside it):
 * the workspace store and every member repository, each with its tip and counts. A folder that
 * is a workspace without a store yet is reported with `store: null`; a repository outside any
 * workspace as a workspace of one (root null). NOT_A_REPO when `cwd` is neither.
 */
export async function workspaceStatus(opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<WorkspaceStatus> {
  const cwd = resolve(opts.cwd);
  const loc = locateRepo(cwd, opts.env);
  const ws = workspaceFor(loc, cwd);
  const root = ws?.root ?? (loc ? null : detectWorkspace({ dir: cwd }).isWorkspace ? cwd : null);
  if (!root) {
    if (!loc)
      throw new AxmeError(
        'NOT_A_REPO',
        `${cwd} is neither a git repository nor a workspace: run axme in a repository, or \`axme init --workspace\` in a folder of repositories`,
        { cwd },
      );
    const one = await summarize(loc.worktree ?? loc.gitDir, opts.env);
    return { root: null, store: null, markers: [], repos: [{ name: (loc.worktree ?? loc.gitDir).split('/').pop()!, ...one }] };
  }
  const detection = detectWorkspace({ dir: root, force: true });
  const [store, ...repos] = await Promise.all([
    ws ? summarize(ws.gitDir, opts.env, true) : Promise.resolve(null),
    ...detection.members.map(async (m) => ({ name: m.name, ...(await summarize(m.path, opts.env)) })),
  ]);
  return {
    root,
    store: store as (StoreSummary & { kind: string | null }) | null,
    markers: detection.markers,
    repos: repos as Array<StoreSummary & { name: string }>,
  };
}

async function summarize(path: string, env: NodeJS.ProcessEnv, isWorkspace = false): Promise<StoreSummary & { kind?: string | null }> {
  const empty = { path, ref: 'refs/memory/main', commit: null, date: null, counts: {}, problems: 0 };
  let kb;
  try {
    kb = await openKnowledgeBase({ cwd: path, env: withoutRepoEnv(env), backend: 'cli' });
  } catch (err) {
    return { ...empty, error: (err as Error).message };
  }
  try {
    const s = await storeStatus(kb);
    const counts = Object.fromEntries(Object.entries(s.counts).filter(([, c]) => Object.keys(c).length > 0));
    const r: StoreSummary & { kind?: string | null } = { path, ref: s.ref, commit: s.commit, date: s.date, counts, problems: s.diagnostics.length };
    // the state is in memory already: storeStatus read it
    if (isWorkspace) r.kind = (await readState(kb)).config?.kind ?? null;
    return r;
  } catch (err) {
    if (isAxmeError(err, 'NOT_INITIALIZED')) return isWorkspace ? { ...empty, kind: null } : empty;
    return { ...empty, error: (err as Error).message };
  } finally {
    await closeKnowledgeBase(kb);
  }
}

/** The workspace as text: one line for the workspace store, one per repository. */
export function workspaceText(s: WorkspaceStatus): string {
  const lines: string[] = [];
  const label = 'workspace store';
  const width = Math.max(s.root ? label.length : 0, ...s.repos.map((r) => r.name.length));
  if (!s.root) lines.push('Not in a workspace: one repository.');
  else {
    lines.push(`Workspace ${s.root}${s.markers.length ? ` (${s.markers.join(', ')})` : ''}`);
    lines.push(`  ${label.padEnd(width)}  ${s.store ? storeLine(s.store) : 'none yet: run `axme init --workspace` here'}`);
  }
  for (const r of s.repos) lines.push(`  ${r.name.padEnd(width)}  ${storeLine(r)}`);
  if (s.root && s.repos.length === 0) lines.push('  (no repositories)');
  return lines.join('\n');
}

function storeLine(x: StoreSummary): string {
  if (x.error) return `${x.path}: cannot be read: ${x.error}`;
  if (!x.commit) return `${x.path}: no knowledge yet (run \`axme init\`)`;
  return `${x.ref} @ ${x.commit.slice(0, 12)} (${x.date})  ${countsText(x.counts)}${x.problems ? `  ${x.problems} problems: run axme fsck` : ''}`;
}

/** "3 decisions, 1 memory, ..." (items of every status); "empty" when there are none. */
function countsText(counts: Record<string, Record<string, number>>): string {
  const parts = Object.entries(counts)
    .map(([kind, byStatus]) => [kind, Object.values(byStatus).reduce((n, x) => n + x, 0)] as const)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${n} ${nounOf(kind, n)}`);
  return parts.length ? parts.join(', ') : 'empty';
}

/** "decision" or "decisions", as the kind declares; a folder this axme does not know by its name. */
function nounOf(kind: string, n: number): string {
  const facts = Object.hasOwn(KINDS, kind) ? KINDS[kind as KindName] : null;
  return facts ? (n === 1 ? facts.noun : facts.plural) : kind;
}
