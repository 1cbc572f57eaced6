import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { verify } from '../../src/operations/verify.ts';
import { coreAt, runOp } from '../core.ts';
import { axme, commitFiles, tempRepo } from '../helpers.ts';

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));

/** A repository with a store and a first code commit of `files`. */
async function project(files: Record<string, string>) {
  const { dir, cleanup } = tempRepo();
  cleanups.push(cleanup);
  commitFiles(dir, files, 'initial code');
  await coreAt(dir).init();
  return { dir, core: coreAt(dir) };
}

const decide = (dir: string, title: string, anchors: string[]) => coreAt(dir).addDecision({ title, decision: `${title}.`, anchors });

/** An anchor of the verify report, as `<id> <anchor> <problem> -> <nearest>`. */
const said = (u: { id: string | null; slug: string; anchor: string; problem: string; nearest?: string }) =>
  `${u.id ?? u.slug} ${u.anchor} ${u.problem}${u.nearest ? ` -> ${u.nearest}` : ''}`;

describe('axme verify: anchors that never matched anything', () => {
  test('a typo, a glob with no file, a symbol not in its file, a dependency no manifest declares: each named, with the nearest', async () => {
    const { dir, core } = await project({
      'src/auth/login.ts': 'export function signIn() {}\n',
      'src/pay.ts': 'export function chargeCard() {}\n',
      'db/a.sql': 'create\n',
      'package.json': JSON.stringify({ dependencies: { react: '^18' } }),
    });
    await decide(dir, 'Login', ['src/atuh/login.ts']);
    await decide(dir, 'Migrations', ['db/**/*.sqll']);
    await decide(dir, 'Charge', ['src/pay.ts#chargeCrad']);
    await decide(dir, 'React', ['dep:raect']);
    await core.addMemory({
      type: 'pattern',
      title: 'Fine',
      description: 'all there',
      anchors: ['src/pay.ts', 'src/auth/', 'db/*.sql', 'dep:react', 'src/pay.ts#chargeCard'],
    });
    await core.addBacklog({ title: 'Rewrite the mailer', anchors: ['src/mailer/'] });
    const r = await runOp(dir, verify, {});
    assert.deepEqual(r.stale, [], 'nothing moved: nothing stale');
    assert.deepEqual(r.unmatched.map(said).sort(), [
      'B-001 src/mailer/ no-file',
      'D-001 src/atuh/login.ts no-file -> src/auth/login.ts',
      'D-002 db/**/*.sqll no-file',
      'D-003 src/pay.ts#chargeCrad no-symbol -> src/pay.ts#chargeCard',
      'D-004 dep:raect no-dependency -> dep:react',
    ]);
    const login = r.unmatched.find((u: { id: string }) => u.id === 'D-001');
    assert.equal(login.kind, 'decision');
    assert.equal(login.slug, 'login');
    assert.match(login.suggestion, /axme reconfirm D-001 --anchor src\/auth\/login\.ts/);
  });

  test('a path deleted after the item was learned is the stale finding alone; a file added later matches', async () => {
    const { dir } = await project({ 'src/old.ts': 'x\n', 'src/keep.ts': 'y\n' });
    await decide(dir, 'Old module', ['src/old.ts']);
    await decide(dir, 'Future module', ['src/future.ts']);
    commitFiles(dir, { 'src/old.ts': null }, 'Remove old module');
    let r = await runOp(dir, verify, {});
    assert.deepEqual(
      r.stale.map((s: { slug: string }) => s.slug),
      ['old-module'],
    );
    assert.deepEqual(r.unmatched.map(said), ['D-002 src/future.ts no-file'], 'the deleted file is not said twice');
    commitFiles(dir, { 'src/future.ts': 'z\n' }, 'Add the future module');
    r = await runOp(dir, verify, {});
    assert.deepEqual(r.unmatched, []);
  });

  test('axme verify --check exits 1 on an unmatched anchor; the text names it on stdout and counts it on stderr', async () => {
    const { dir } = await project({ 'src/auth/login.ts': 'x\n' });
    await decide(dir, 'Login', ['src/auth/login.ts']);
    let cli = await axme(dir, ['verify', '--check']);
    assert.equal(cli.code, 0, cli.stderr);
    await decide(dir, 'Typo', ['src/atuh/login.ts']);
    cli = await axme(dir, ['verify', '--check']);
    assert.equal(cli.code, 1, cli.stderr);
    assert.match(cli.stdout, /D-002 Typo \(typo\): anchor src\/atuh\/login\.ts names no file at [0-9a-f]{12} \(nearest: src\/auth\/login\.ts\)/);
    assert.match(cli.stdout, /axme reconfirm D-002 --anchor src\/auth\/login\.ts/);
    assert.match(cli.stderr, /0 of 2 anchored items may be outdated at [0-9a-f]{12}; 1 anchor names nothing/);
    assert.equal((await axme(dir, ['verify'])).code, 0, 'without --check: a report, exit 0');
    const json = JSON.parse((await axme(dir, ['verify', '--json'])).stdout);
    assert.deepEqual(Object.keys(json.unmatched[0]).sort(), ['anchor', 'id', 'kind', 'nearest', 'problem', 'slug', 'suggestion', 'title']);
  });
});
