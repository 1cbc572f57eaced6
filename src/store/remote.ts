import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { AxmeError } from '../model/errors.ts';
import { MEMORY_REF } from '../model/refs.ts';
import { NOTES_REF } from './code-commits.ts';
import { runGit } from './git.ts';
import { readRefSync } from './locate.ts';
import { looseObjectType } from './read-loose-object.ts';
import type { Repo } from './repo.ts';

/**
 * Knowledge over git remotes, through the git CLI (the user's SSH keys, credential helpers and
 * URL rewrites apply). Fetches land in tracking refs — `refs/memory-remotes/<remote>/*` and
 * `refs/notes/remotes/<remote>/axme` — never straight into `refs/memory/*` or `refs/notes/axme`,
 * which would silently discard local work. Pushes are never forced.
 */

export const trackingRef = (remote: string, name = 'main') => `refs/memory-remotes/${remote}/${name}`;
export const notesTrackingRef = (remote: string) => `refs/notes/remotes/${remote}/axme`;

/** The configured remotes and their fetch refspecs: what one operation reads once from git's config. */
export interface RemotesConfig {
  /** the remotes, in git's order (as `git remote` lists them) */
  names: string[];
  /** `remote.<name>.fetch` of each remote, in order */
  fetch: Map<string, string[]>;
}

/**
 * The remotes and their fetch refspecs in one `git config` process (`git remote` lists the
 * remotes of the config; remotes in the old `.git/remotes` or `.git/branches` files, only when
 * such files exist, are asked of `git remote` too).
 */
export async function readRemotes(repo: Repo): Promise<RemotesConfig> {
  const r = await repo.git(['config', '-z', '--get-regexp', '^remote\\.'], { allowFail: true });
  const names: string[] = [];
  const fetch = new Map<string, string[]>();
  for (const entry of r.stdout.toString('utf8').split('\0')) {
    const nl = entry.indexOf('\n');
    const key = nl < 0 ? entry : entry.slice(0, nl);
    const dot = key.lastIndexOf('.');
    // remote.<name>.<key>: the name may hold dots; remote.pushDefault has none
    if (dot <= 'remote.'.length) continue;
    const name = key.slice('remote.'.length, dot);
    if (!fetch.has(name)) {
      names.push(name);
      fetch.set(name, []);
    }
    if (key.slice(dot + 1) === 'fetch' && nl >= 0) fetch.get(name)!.push(entry.slice(nl + 1));
  }
  if (hasLegacyRemotes(repo.commonDir)) {
    const listed = await repo.git(['remote']);
    for (const name of listed.stdout.toString('utf8').split('\n').filter(Boolean)) {
      if (!fetch.has(name)) {
        names.push(name);
        fetch.set(name, []);
      }
    }
  }
  return { names, fetch };
}

function hasLegacyRemotes(commonDir: string): boolean {
  return ['remotes', 'branches'].some((d) => {
    try {
      return readdirSync(join(commonDir, d)).length > 0;
    } catch {
      return false;
    }
  });
}

/** The configured remotes, in git's order. */
export async function listRemotes(repo: Repo): Promise<string[]> {
  return (await readRemotes(repo)).names;
}

/**
 * The remote to sync with: the one named, else `origin`, else the only one. INVALID_INPUT with
 * the list (`data.remotes`, empty when the repository has none) when that is not one configured remote.
 * `config`: the remotes as the operation read them already.
 */
export async function pickRemote(repo: Repo, name?: string, config?: RemotesConfig): Promise<string> {
  const remotes = (config ?? (await readRemotes(repo))).names;
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

/** What a remote holds of the knowledge, as `git ls-remote` listed it. */
export interface RemoteKnowledge {
  /** its refs/memory/* refs and their commits */
  memory: Map<string, string>;
  /** its notes ref's commit, null when it has none */
  notes: string | null;
  /** the other refs asked for that it has (an `extra` ending in `/*` asks for every ref under it) */
  extra: Map<string, string>;
}

/** What the remote holds: its memory refs, its notes ref and the `extra` refs asked for (one round trip). */
export async function remoteKnowledgeRefs(repo: Repo, remote: string, extra: string[] = [], timeoutMs?: number): Promise<RemoteKnowledge> {
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
    else if (extra.some((e) => e === ref || (e.endsWith('/*') && ref.startsWith(e.slice(0, -1))))) others.set(ref, oid);
  }
  return { memory, notes, extra: others };
}

/** Another ref of the remote, fetched with the knowledge into a local ref that only mirrors it. */
export interface MirroredRef {
  /** the remote's ref, one of the `extra` refs remoteKnowledgeRefs listed (`refs/heads/axme/memory`) */
  remoteRef: string;
  /** the local ref that mirrors it (forced on each fetch) */
  localRef: string;
}

/**
 * Fetches the remote's knowledge into the tracking refs (forced there: they only mirror the
 * remote), with the `mirrored` refs in the same fetch. `listed` is what the remote holds
 * (remoteKnowledgeRefs): when every tracking ref holds that already, nothing is fetched.
 * Tracking refs of what the remote no longer has are pruned. Returns the object each tracking
 * and mirrored ref of a listed ref holds, by local ref: the listing's when they held it already
 * (nothing read again), else read after the fetch (the remote may have moved since the listing).
 */
export async function fetchKnowledge(
  repo: Repo,
  remote: string,
  listed: RemoteKnowledge,
  mirrored: MirroredRef[] = [],
  timeoutMs?: number,
): Promise<Map<string, string>> {
  const has = { memory: listed.memory.size > 0, notes: listed.notes !== null };
  const specs = mirrored.map((m) => `+${m.remoteRef}:${m.localRef}`);
  if (has.memory) specs.push(`+refs/memory/*:refs/memory-remotes/${remote}/*`);
  if (has.notes) specs.push(`+${NOTES_REF}:${notesTrackingRef(remote)}`);
  const want = trackedAsListed(remote, listed, mirrored);
  let tracked = new Map<string, string>();
  for (const [local, oid] of want) if (oid !== undefined) tracked.set(local, oid);
  if (specs.length && !(await holdsAlready(repo, want))) {
    const r = await repo.git(['fetch', '--no-tags', '--no-write-fetch-head', '--quiet', remote, ...specs], {
      allowFail: true,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    });
    if (r.code !== 0) throw new AxmeError('GIT_FAILED', `git fetch from ${remote} failed: ${r.stderr.trim() || `exit ${r.code}`}`, { remote });
    tracked = new Map();
    for (const local of want.keys()) {
      const oid = await refOid(repo, local);
      if (oid !== null) tracked.set(local, oid);
    }
  }
  // what the remote does not hold any more is not "the remote's" any more
  if (!has.memory) await deleteRef(repo, trackingRef(remote));
  if (!has.notes) await deleteRef(repo, notesTrackingRef(remote));
  return tracked;
}

/** Each local ref a fetch of `listed` fills, with the object the listing gives it (undefined: a mirrored ref the listing lacks). */
function trackedAsListed(remote: string, listed: RemoteKnowledge, mirrored: MirroredRef[]): Map<string, string | undefined> {
  const want = new Map<string, string | undefined>();
  for (const [ref, oid] of listed.memory) want.set(trackingRef(remote, ref.slice('refs/memory/'.length)), oid);
  if (listed.notes !== null) want.set(notesTrackingRef(remote), listed.notes);
  for (const m of mirrored) want.set(m.localRef, listed.extra.get(m.remoteRef));
  return want;
}

/** True when each local ref holds what the listing gives it already (a fetch would bring nothing). */
async function holdsAlready(repo: Repo, want: Map<string, string | undefined>): Promise<boolean> {
  for (const [local, oid] of want) {
    // a ref the listing lacks: fetch and let git answer
    if (oid === undefined || (await refOid(repo, local)) !== oid) return false;
  }
  return true;
}

/** Removes `ref` (no git process when it does not exist). */
export async function deleteRef(repo: Repo, ref: string): Promise<void> {
  if (readRefSync(repo.commonDir, ref) === null) return;
  await repo.git(['update-ref', '-d', ref], { allowFail: true });
}

/**
 * Adds the knowledge refspecs to `remote.<name>.fetch`, so a plain `git fetch` brings the
 * remote's knowledge into the same tracking refs `axme sync` uses. The notes refspec is a glob:
 * a configured refspec naming a ref the remote lacks would make every `git fetch` fail.
 * Returns the refspecs added (none when they were there). `config`: the remotes as the operation
 * read them already.
 */
export async function configureKnowledgeFetch(repo: Repo, remote: string, config?: RemotesConfig): Promise<string[]> {
  const key = `remote.${remote}.fetch`;
  const have = new Set((config ?? (await readRemotes(repo))).fetch.get(remote) ?? []);
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
 * Merges the fetched notes (`theirs`: the commit their tracking ref holds, as fetchKnowledge
 * returned it) into `refs/notes/axme` line by line (cat_sort_uniq: every line of both, sorted,
 * once), so no note written on either side is lost. Returns the new notes tip.
 */
export async function mergeNotes(repo: Repo, remote: string, theirs: string | null): Promise<string | null> {
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

/**
 * The commit a ref points at, null when there is none. A full ref name (`refs/...`) is read from
 * its loose file or packed-refs, and the object's type from its loose object, in-process (no git
 * process: a sync reads a dozen); what only git can interpret (reftable, a symbolic ref, a packed
 * object, an object that is not a commit and may peel to one) is asked of `git rev-parse`.
 */
export async function resolve(repo: Repo, ref: string): Promise<string | null> {
  return commitAt(repo, await refOid(repo, ref));
}

/**
 * The commit object `oid` is, or peels to (an annotated tag); null for none, another object or
 * one that is missing. Told in-process by its loose object where it is one, else by `git rev-parse`.
 */
export async function commitAt(repo: Repo, oid: string | null | undefined): Promise<string | null> {
  if (!oid || looseObjectType(repo.commonDir, oid) === 'commit') return oid ?? null;
  const r = await repo.git(['rev-parse', '--verify', '--quiet', `${oid}^{commit}`], { allowFail: true });
  return r.code === 0 ? r.stdout.toString('utf8').trim() : null;
}

export { MEMORY_REF };

/** The object a ref names (the repository's backend: its file read in-process where it tells, else git's answer); null when absent. */
const refOid = (repo: Repo, ref: string) => repo.backend.resolveRef(ref);
