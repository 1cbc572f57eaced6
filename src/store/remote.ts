import { AxmeError } from '../model/errors.ts';
import { MEMORY_REF } from '../model/refs.ts';
import { NOTES_REF } from './code-commits.ts';
import { runGit } from './git.ts';
import type { Repo } from './repo.ts';

/**
 * Knowledge over git remotes, through the git CLI (the user's SSH keys, credential helpers and
 * URL rewrites apply). Fetches land in tracking refs — `refs/memory-remotes/<remote>/*` and
 * `refs/notes/remotes/<remote>/axme` — never straight into `refs/memory/*` or `refs/notes/axme`,
 * which would silently discard local work. Pushes are never forced.
 */

export const trackingRef = (remote: string, name = 'main') => `refs/memory-remotes/${remote}/${name}`;
export const notesTrackingRef = (remote: string) => `refs/notes/remotes/${remote}/axme`;

/** The configured remotes, in git's order. */
export async function listRemotes(repo: Repo): Promise<string[]> {
  const r = await repo.git(['remote']);
  return r.stdout.toString('utf8').split('\n').filter(Boolean);
}

/**
 * The remote to sync with: the one named, else `origin`, else the only one. INVALID_INPUT with
 * the list (`data.remotes`, empty when the repository has none) when that is not one configured remote.
 */
export async function pickRemote(repo: Repo, name?: string): Promise<string> {
  const remotes = await listRemotes(repo);
  if (name !== undefined) {
    if (remotes.includes(name)) return name;
    throw new AxmeError(
      'INVALID_INPUT',
      `no git remote named ${JSON.stringify(name)}${remotes.length ? `: the remotes are ${remotes.join(', ')}` : ': this repository has none (git remote add origin <url>)'}`,
      { remotes },
    );
  }
  if (remotes.includes('origin')) return 'origin';
  if (remotes.length === 1) return remotes[0]!;
  if (!remotes.length)
    throw new AxmeError('INVALID_INPUT', 'this repository has no git remote to sync with: add one (git remote add origin <url>), then run axme sync again', {
      remotes,
    });
  throw new AxmeError('INVALID_INPUT', `say which remote to sync with: ${remotes.join(', ')} (axme sync <remote>)`, { remotes });
}

/** What the remote holds: its memory refs, its notes ref and the `extra` refs asked for (one round trip). */
export async function remoteKnowledgeRefs(
  repo: Repo,
  remote: string,
  extra: string[] = [],
  timeoutMs?: number,
): Promise<{ memory: Map<string, string>; notes: string | null; extra: Map<string, string> }> {
  const r = await repo.git(['ls-remote', '--refs', remote, 'refs/memory/*', NOTES_REF, ...extra], {
    allowFail: true,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });
  if (r.code !== 0) throw new AxmeError('GIT_FAILED', `cannot reach remote ${remote}: ${r.stderr.trim() || `git ls-remote exited ${r.code}`}`, { remote });
  const memory = new Map<string, string>();
  const others = new Map<string, string>();
  let notes: string | null = null;
  for (const line of r.stdout.toString('utf8').split('\n')) {
    const [oid, ref] = line.split('\t');
    if (!oid || !ref) continue;
    if (ref === NOTES_REF) notes = oid;
    else if (ref.startsWith('refs/memory/')) memory.set(ref, oid);
    else if (extra.includes(ref)) others.set(ref, oid);
  }
  return { memory, notes, extra: others };
}

/**
 * Fetches the remote's knowledge into the tracking refs (forced there: they only mirror the
 * remote), with `extraSpecs` in the same fetch. Tracking refs of what the remote no longer has are pruned.
 */
export async function fetchKnowledge(
  repo: Repo,
  remote: string,
  has: { memory: boolean; notes: boolean },
  extraSpecs: string[] = [],
  timeoutMs?: number,
): Promise<void> {
  const specs: string[] = [...extraSpecs];
  if (has.memory) specs.push(`+refs/memory/*:refs/memory-remotes/${remote}/*`);
  if (has.notes) specs.push(`+${NOTES_REF}:${notesTrackingRef(remote)}`);
  if (specs.length) {
    const r = await repo.git(['fetch', '--no-tags', '--no-write-fetch-head', '--quiet', remote, ...specs], {
      allowFail: true,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    });
    if (r.code !== 0) throw new AxmeError('GIT_FAILED', `git fetch from ${remote} failed: ${r.stderr.trim() || `exit ${r.code}`}`, { remote });
  }
  // what the remote does not hold any more is not "the remote's" any more
  if (!has.memory) await deleteRef(repo, trackingRef(remote));
  if (!has.notes) await deleteRef(repo, notesTrackingRef(remote));
}

async function deleteRef(repo: Repo, ref: string): Promise<void> {
  await repo.git(['update-ref', '-d', ref], { allowFail: true });
}

/**
 * Adds the knowledge refspecs to `remote.<name>.fetch`, so a plain `git fetch` brings the
 * remote's knowledge into the same tracking refs `axme sync` uses. The notes refspec is a glob:
 * a configured refspec naming a ref the remote lacks would make every `git fetch` fail.
 * Returns the refspecs added (none when they were there).
 */
export async function configureKnowledgeFetch(repo: Repo, remote: string): Promise<string[]> {
  const key = `remote.${remote}.fetch`;
  const r = await repo.git(['config', '--get-all', key], { allowFail: true });
  const have = new Set(r.stdout.toString('utf8').split('\n').filter(Boolean));
  const want = [`+refs/memory/*:refs/memory-remotes/${remote}/*`, `+${NOTES_REF}*:${notesTrackingRef(remote)}*`];
  const added = want.filter((w) => !have.has(w));
  for (const w of added) await repo.git(['config', '--add', key, w]);
  return added;
}

export type PushOutcome = 'pushed' | 'rejected';

/**
 * Pushes exact commits to the remote's refs, atomically and never forced. 'rejected' when the
 * remote moved meanwhile (the caller fetches, merges and tries again); GIT_FAILED otherwise.
 */
export async function pushKnowledge(repo: Repo, remote: string, updates: Array<{ oid: string; ref: string }>): Promise<PushOutcome> {
  if (!updates.length) return 'pushed';
  const r = await repo.git(['push', '--atomic', '--porcelain', '--no-verify', remote, ...updates.map((u) => `${u.oid}:${u.ref}`)], { allowFail: true });
  if (r.code === 0) return 'pushed';
  const out = `${r.stdout.toString('utf8')}\n${r.stderr}`;
  if (/\[rejected\]|non-fast-forward|fetch first|stale info|atomic push failed|cannot lock ref|failed to update ref/i.test(out)) return 'rejected';
  throw new AxmeError('GIT_FAILED', `git push to ${remote} failed: ${r.stderr.trim() || out.trim() || `exit ${r.code}`}`, { remote });
}

/** The best common ancestor of two commits, or null when their histories never met. */
export async function mergeBase(repo: Repo, a: string, b: string): Promise<string | null> {
  const r = await repo.git(['merge-base', a, b], { allowFail: true });
  if (r.code === 1) return null;
  if (r.code !== 0) throw new AxmeError('GIT_FAILED', `git merge-base failed: ${r.stderr.trim()}`);
  return r.stdout.toString('utf8').trim() || null;
}

/** True when `a` is an ancestor of `b` (or equal). */
export async function isAncestorOf(repo: Repo, a: string, b: string): Promise<boolean> {
  const r = await repo.git(['merge-base', '--is-ancestor', a, b], { allowFail: true });
  if (r.code === 0) return true;
  if (r.code === 1) return false;
  throw new AxmeError('GIT_FAILED', `git merge-base --is-ancestor failed: ${r.stderr.trim()}`);
}

/**
 * Merges the fetched notes into `refs/notes/axme` line by line (cat_sort_uniq: every line of
 * both, sorted, once), so no note written on either side is lost. Returns the new notes tip.
 */
export async function mergeNotes(repo: Repo, remote: string): Promise<string | null> {
  const theirs = await resolve(repo, notesTrackingRef(remote));
  const ours = await resolve(repo, NOTES_REF);
  if (!theirs) return ours;
  if (!ours) {
    await repo.git(['update-ref', NOTES_REF, theirs, '']);
    return theirs;
  }
  if (ours === theirs || (await isAncestorOf(repo, theirs, ours))) return ours;
  // the notes merge is a commit: it needs an identity even where none is configured
  const who = await repo.identity();
  const env = { ...repo.env, GIT_AUTHOR_NAME: who.name, GIT_AUTHOR_EMAIL: who.email, GIT_COMMITTER_NAME: who.name, GIT_COMMITTER_EMAIL: who.email };
  const r = await runGit(['notes', `--ref=${NOTES_REF}`, 'merge', '--quiet', '-s', 'cat_sort_uniq', notesTrackingRef(remote)], { env, allowFail: true });
  if (r.code !== 0) throw new AxmeError('GIT_FAILED', `merging the notes of ${remote} failed: ${r.stderr.trim()}`);
  return resolve(repo, NOTES_REF);
}

export async function resolve(repo: Repo, ref: string): Promise<string | null> {
  const r = await repo.git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { allowFail: true });
  return r.code === 0 ? r.stdout.toString('utf8').trim() : null;
}

export { MEMORY_REF };
