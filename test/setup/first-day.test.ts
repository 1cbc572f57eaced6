import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { decisionAdd } from '../../src/operations/decision/add.ts';
import { doctor } from '../../src/setup/doctor.ts';
import { type InitSteps, initRepository } from '../../src/setup/init.ts';
import { axmeOk, CLI, cleanEnv, commitFiles, git, openTestKb } from '../helpers.ts';
import { cliText } from '../store-fixture.ts';

const REF = 'refs/memory/main';
const STEPS: InitSteps = { claude: true, gitHooks: true, scan: 'if-new', fetchConfig: true };

/** `axme init` as the CLI runs it, in-process. */
async function init(dir: string) {
  const kb = await openTestKb(dir, { actor: 'human' });
  const notes: string[] = [];
  try {
    return {
      result: await initRepository(kb, STEPS, { cwd: dir, env: cleanEnv(), self: { execPath: process.execPath, script: CLI }, note: (t) => notes.push(t) }),
      notes,
    };
  } finally {
    await kb.repo.close();
  }
}

const problems = async (dir: string) => {
  const r = await doctor({ cwd: dir, env: cleanEnv() });
  return { r, bad: r.checks.filter((c) => c.status !== 'ok').map((c) => `${c.name}: ${c.detail}`) };
};

/**
 * The README's first day, with a bare remote: the first user installs axme (package.json changes,
 * not committed yet), runs axme init and axme doctor before any sync; then commits, syncs; a
 * teammate clones and runs axme init, then axme doctor. Both doctors pass, and the teammate's init
 * commits nothing.
 */
describe("the first day: doctor passes after a correct setup, and a teammate's init commits nothing", () => {
  let root: string;
  let first: string;
  let teammate: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'axme-first-day-'));
    git(root, ['init', '-q', '--bare', '-b', 'main', 'remote.git']);
    first = join(root, 'first');
    git(root, ['init', '-q', '-b', 'main', first]);
    for (const [k, v] of [
      ['user.name', 'First'],
      ['user.email', 'first@example.com'],
    ])
      git(first, ['config', k!, v!]);
    commitFiles(
      first,
      { 'package.json': '{"name":"app","dependencies":{"express":"^4"}}\n', 'src/index.js': 'module.exports = 1;\n', '.gitignore': 'node_modules\n' },
      'app',
    );
    git(first, ['remote', 'add', 'origin', join(root, 'remote.git')]);
    git(first, ['push', '-q', 'origin', 'main']);
  });
  after(() => rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }));

  test('the first user: doctor exits 0 with no knowledge on origin yet, saying so as state', async () => {
    // npm i -D <axme> changed package.json: it is committed after init, with axme's files
    writeFileSync(join(first, 'package.json'), '{"name":"app","dependencies":{"express":"^4"},"devDependencies":{"axme":"file:vendor/axme-0.1.0.tgz"}}\n');
    await init(first);
    const { r, bad } = await problems(first);
    assert.deepEqual(bad, []);
    assert.equal(r.ok, true);
    assert.match(r.verdict, /^ready: all \d+ checks passed$/);
    assert.match(r.checks.find((c) => c.name === 'in step')!.detail, /origin has none of this store's knowledge yet .*: axme sync shares it/);
  });

  test("the teammate: clone, init (no commit: the team's store is adopted as it is), doctor exits 0", async () => {
    commitFiles(first, {}, 'axme set up');
    git(first, ['push', '-q', 'origin', 'main']);
    await axmeOk(first, ['sync']);
    teammate = join(root, 'teammate');
    git(root, ['clone', '-q', join(root, 'remote.git'), teammate]);
    for (const [k, v] of [
      ['user.name', 'Mate'],
      ['user.email', 'mate@example.com'],
    ])
      git(teammate, ['config', k!, v!]);
    const { result, notes } = await init(teammate);
    assert.equal(result.follow?.followed, true, notes.join('\n'));
    assert.equal(result.oracle, null, 'no rescan of the pages the team already has');
    assert.equal(
      git(teammate, ['rev-parse', REF]).trim(),
      git(first, ['rev-parse', REF]).trim(),
      "the teammate's store is the team's, with no commit of its own",
    );
    const { r, bad } = await problems(teammate);
    assert.deepEqual(bad, []);
    assert.match(r.checks.find((c) => c.name === 'in step')!.detail, /the store is where origin's is/);
  });

  test('ahead and behind are state: exit 0, with the counts and what axme sync would do', async () => {
    await cliText(teammate, decisionAdd, { title: 'Teammate decision', decision: 'Saved after the sync.' });
    const { r, bad } = await problems(teammate);
    assert.deepEqual(bad, []);
    assert.match(r.checks.find((c) => c.name === 'in step')!.detail, /the store is 1 commit ahead of origin \(not shared yet\) .*: axme sync shares it/);
  });

  test('no remote at all: said as state, not a failure', async () => {
    git(teammate, ['remote', 'remove', 'origin']);
    const { r, bad } = await problems(teammate);
    assert.deepEqual(bad, []);
    assert.match(r.checks.find((c) => c.name === 'remote')!.detail, /none yet/);
  });
});
