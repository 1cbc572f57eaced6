/**
 * A store made once and copied for each test that changes it: the first copy makes the template
 * (test/store-fixture.ts makeStore: a real repository, initialised in-process), every copy is the
 * template's folder copied byte for byte (the repository holds no absolute path of its own), so
 * a test gets a store of its own for the cost of a folder copy instead of `git init`, its config
 * and `axme init` again. Declared in a describe (or at the top of a file): the template is
 * removed after its tests.
 */

import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { coreAt } from '../core.ts';
import { git } from '../helpers.ts';
import { makeStore, type StoreOptions, type TestStore } from '../store-fixture.ts';

export interface StoreCopies {
  /** a new copy of the template: its folder and how to remove it */
  copy: () => Promise<{ dir: string; cleanup: () => void }>;
  /** runs `fn` in a new copy, removed afterwards */
  inCopy: (fn: (dir: string) => Promise<void>) => Promise<void>;
}

/** Copies of one store made with `opts` (as makeStore's), then `prepare` (writes every copy starts with). */
export function storeCopies(opts: StoreOptions & { prepare?: (store: TestStore) => Promise<void> } = {}): StoreCopies {
  const { prepare, ...storeOpts } = opts;
  let template: Promise<TestStore> | undefined;
  const made = () => {
    template ??= makeStore(storeOpts).then(async (store) => {
      try {
        await prepare?.(store);
        return store;
      } catch (err) {
        store.cleanup();
        throw err;
      }
    });
    return template;
  };
  after(async () => {
    if (template) (await template.catch(() => null))?.cleanup();
  });
  const copy = async () => {
    const from = (await made()).dir;
    const dir = mkdtempSync(join(tmpdir(), 'axme-test-'));
    cpSync(from, dir, { recursive: true });
    // retried: a derived cache may still be written in the background when a test ends
    return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }) };
  };
  return {
    copy,
    inCopy: async (fn) => {
      const { dir, cleanup } = await copy();
      try {
        await fn(dir);
      } finally {
        cleanup();
      }
    },
  };
}

/**
 * A team (a bare `remote.git` and clones of it, in the folder `template`) copied to a new temp
 * folder, each clone named in `clones` (folder names in the template) pointed at the copy's
 * remote: a test gets a team of its own for the cost of a folder copy. The caller removes `root`.
 */
export function copyTeam(template: string, clones: readonly string[], prefix = 'axme-team-'): { root: string; remote: string; dirs: string[] } {
  const root = mkdtempSync(join(tmpdir(), prefix));
  cpSync(template, root, { recursive: true });
  const remote = join(root, 'remote.git');
  const dirs = clones.map((c) => join(root, c));
  for (const dir of dirs) git(dir, ['remote', 'set-url', 'origin', remote]);
  return { root, remote, dirs };
}

/** A team of two copied for one test: the bare remote and the clones `a` (who made the store) and `b` (who started from it). */
export interface TeamOfTwo {
  remote: string;
  a: string;
  b: string;
}

/**
 * A team made once for a file and copied for each test (copyTeam): a bare remote, clones `a` and
 * `b` with identities of their own (`Dev a`, `Dev b`); `a` initialises the store, `seed` fills it,
 * it is synced, and `b` starts from it. Call at the top of a test file: it registers the template's
 * making (before) and the removal of every copy (after). Returns the function that makes a copy.
 */
export function teamOfTwo(prefix: string, seed: (a: ReturnType<typeof coreAt>) => Promise<void>): () => Promise<TeamOfTwo> {
  const roots: string[] = [];
  after(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 })));
  let template: Promise<string> | undefined;
  before(() => {
    template = (async () => {
      const root = mkdtempSync(join(tmpdir(), prefix));
      roots.push(root);
      const remote = join(root, 'remote.git');
      git(root, ['init', '-q', '--bare', remote]);
      for (const n of ['a', 'b']) {
        const dir = join(root, n);
        git(root, ['clone', '-q', remote, dir]);
        git(dir, ['config', 'user.name', `Dev ${n}`]);
        git(dir, ['config', 'user.email', `${n}@example.com`]);
      }
      const A = coreAt(join(root, 'a'));
      await A.init();
      await seed(A);
      await A.sync();
      await coreAt(join(root, 'b')).init();
      assert.equal(
        git(join(root, 'b'), ['rev-parse', 'refs/memory/main']),
        git(join(root, 'a'), ['rev-parse', 'refs/memory/main']),
        'b started from the team store',
      );
      return root;
    })();
  });
  return async () => {
    const {
      root,
      remote,
      dirs: [a, b],
    } = copyTeam(await template!, ['a', 'b'], prefix);
    roots.push(root);
    return { remote, a: a!, b: b! };
  };
}
