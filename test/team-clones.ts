import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { finalizeClose } from '../src/knowledge/close/finalize-close.ts';
import { syncStore } from '../src/knowledge/sync/sync-store.ts';
import { axmeInOk } from './cli-in-process.ts';
import { cleanEnv, git, openTestKb } from './helpers.ts';

/** One person of a two-person team: their clone, their HOME, their git identity. */
export interface Person {
  name: string;
  email: string;
  dir: string;
  home: string;
  /** the environment their commands run with (their HOME) */
  env: NodeJS.ProcessEnv;
}

/**
 * A bare remote and two people's clones of it under `root` (real git): each clone has its own HOME
 * and its own identity (`user.name`, `user.email`), and both are initialised, the first person's
 * store shared first so the second starts from it (docs/sync.md, "A teammate's clone").
 */
export async function twoPeople(root: string, names: [string, string] = ['Ann Archer', 'Bob Baker']): Promise<{ remote: string; people: [Person, Person] }> {
  const remote = join(root, 'remote.git');
  git(root, ['init', '-q', '--bare', remote]);
  const make = (name: string): Person => {
    const first = name.split(' ')[0]!.toLowerCase();
    const dir = join(root, first);
    const home = join(root, `home-${first}`);
    mkdirSync(home, { recursive: true });
    git(root, ['clone', '-q', remote, dir]);
    git(dir, ['config', 'user.name', name]);
    git(dir, ['config', 'user.email', `${first}@example.com`]);
    return { name, email: `${first}@example.com`, dir, home, env: { HOME: home } };
  };
  const people: [Person, Person] = [make(names[0]), make(names[1])];
  for (const p of people) {
    await axmeInOk(p.dir, ['init', '--no-claude', '--no-git-hooks', '--no-scan'], { env: p.env });
    await axmeInOk(p.dir, ['sync'], { env: p.env });
  }
  return { remote, people };
}

/**
 * Sessions closed and stores synced in clones, on one clock that moves an hour at each close (so
 * handoffs keep their order): what the handoff tests of a team do, each through the core on a
 * knowledge base opened for the one step.
 */
export function closingClones(start = '2026-11-01T10:00:00.000Z') {
  let clock = Date.parse(start);
  const now = () => new Date(clock);
  async function withKb<T>(dir: string, fn: (kb: Awaited<ReturnType<typeof openTestKb>>) => Promise<T>): Promise<T> {
    const kb = await openTestKb(dir, { now });
    try {
      return await fn(kb);
    } finally {
      await kb.repo.close();
    }
  }
  return {
    withKb,
    /** `session` closed in the clone at `dir`, an hour after the last close */
    close: (dir: string, session: string) =>
      withKb(dir, (kb) => {
        clock += 3_600_000;
        return finalizeClose({ ...kb, session }, { summary: `work of ${session}` });
      }),
    /** `axme sync` in the clone at `dir` (`acceptRemovals`: `--accept-removals`) */
    sync: (dir: string, acceptRemovals = false) => withKb(dir, (kb) => syncStore(kb, acceptRemovals ? { acceptRemovals } : {})),
  };
}

/** A commit on `ref` (refs/memory/main) by `dir`'s identity that removes `path` (by hand, as an older axme or a script would); returns the removed blob. */
export function removeByHand(dir: string, path: string, ref = 'refs/memory/main'): string {
  const env = { ...cleanEnv(), GIT_INDEX_FILE: join(dir, '.git', 'by-hand-index') };
  const run = (args: string[]) => execFileSync('git', args, { cwd: dir, env, encoding: 'utf8' }).trim();
  const blob = run(['rev-parse', `${ref}:${path}`]);
  run(['read-tree', ref]);
  run(['rm', '--cached', '-q', path]);
  const c = run(['commit-tree', run(['write-tree']), '-p', ref, '-m', `remove ${path}`]);
  run(['update-ref', ref, c]);
  return blob;
}

/** A commit on refs/memory/main by `dir`'s identity that puts `blob` back at `path`. */
export function restoreByHand(dir: string, path: string, blob: string): void {
  const env = { ...cleanEnv(), GIT_INDEX_FILE: join(dir, '.git', 'by-hand-index') };
  const run = (args: string[]) => execFileSync('git', args, { cwd: dir, env, encoding: 'utf8' }).trim();
  run(['read-tree', 'refs/memory/main']);
  run(['update-index', '--add', '--cacheinfo', `100644,${blob},${path}`]);
  const c = run(['commit-tree', run(['write-tree']), '-p', 'refs/memory/main', '-m', `restore ${path}`]);
  run(['update-ref', 'refs/memory/main', c]);
}
