import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { finalizeClose } from '../../src/knowledge/close/finalize-close.ts';
import { axmeOk, commitFiles, git, openTestKb, tempRepo } from '../helpers.ts';

// The usual order of an agent's work: edit the code, save what was decided or learned about it,
// then commit. The item was learned from the edited files, so the commit that records them is not
// a change since it was learned; a later change is.

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));

/** A project with axme set up and committed, then `dirty` written to its working tree (not committed). */
async function project(dirty: Record<string, string>): Promise<string> {
  const { dir, cleanup } = tempRepo();
  cleanups.push(cleanup);
  commitFiles(dir, { 'src/pay.ts': 'export const pay = 1;\n', 'src/cart.ts': 'export const cart = 1;\n', 'README.md': '# shop\n' }, 'initial code');
  await axmeOk(dir, ['init', '--json']);
  commitFiles(dir, {}, 'set up axme');
  write(dir, dirty);
  return dir;
}

function write(dir: string, files: Record<string, string>): void {
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), text);
  }
}

interface Stale {
  kind: string;
  slug: string;
  commits: Array<{ sha: string }>;
}
async function staleOf(dir: string): Promise<Stale[]> {
  return (await axmeOk(dir, ['verify', '--json'])).stale;
}
const shasOf = (s: Stale | undefined) => s?.commits.map((c) => c.sha);

describe('an item saved while its anchored files had uncommitted changes', () => {
  test('a decision anchored to an edited file: the commit of that edit is not a change; a later one is', async () => {
    const dir = await project({ 'src/pay.ts': 'export const pay = 2;\n' });
    await axmeOk(dir, ['decision', 'add', '--title', 'Pay in cents', '--decision', 'amounts are integers', '--anchor', 'src/pay.ts', '--json']);
    commitFiles(dir, {}, 'pay in cents');
    assert.deepEqual(await staleOf(dir), []);
    const later = commitFiles(dir, { 'src/pay.ts': 'export const pay = 3;\n' }, 'pay again');
    assert.deepEqual(shasOf((await staleOf(dir)).find((s) => s.kind === 'decision')), [later]);
  });

  test('a memory anchored to a new file not yet added to git', async () => {
    const dir = await project({ 'src/refund.ts': 'export const refund = 1;\n' });
    await axmeOk(dir, [
      'memory',
      'add',
      '--type',
      'pattern',
      '--title',
      'Refunds go through the ledger',
      '--description',
      'never touch balances directly',
      '--anchor',
      'src/refund.ts',
      '--json',
    ]);
    commitFiles(dir, {}, 'refunds');
    assert.deepEqual(await staleOf(dir), []);
  });

  test('a backlog item anchored to a folder: edited and new files under it', async () => {
    const dir = await project({ 'src/pay.ts': 'export const pay = 2;\n', 'src/tax.ts': 'export const tax = 1;\n' });
    await axmeOk(dir, ['backlog', 'add', '--title', 'Split the payment code', '--anchor', 'src/', '--json']);
    commitFiles(dir, {}, 'tax');
    assert.deepEqual(await staleOf(dir), []);
    const later = commitFiles(dir, { 'src/cart.ts': 'export const cart = 2;\n' }, 'cart');
    assert.deepEqual(shasOf((await staleOf(dir)).find((s) => s.kind === 'backlog')), [later]);
  });

  test('a glob anchor', async () => {
    const dir = await project({ 'src/pay.ts': 'export const pay = 2;\n' });
    await axmeOk(dir, ['decision', 'add', '--title', 'Sources are TypeScript', '--decision', 'no JavaScript in src', '--anchor', 'src/**/*.ts', '--json']);
    commitFiles(dir, {}, 'pay');
    assert.deepEqual(await staleOf(dir), []);
  });

  test('anchors axme finds in the text: a path the decision names', async () => {
    const dir = await project({ 'src/pay.ts': 'export const pay = 2;\n' });
    await axmeOk(dir, ['decision', 'add', '--title', 'Pay rounds half up', '--decision', 'src/pay.ts rounds half up', '--json']);
    commitFiles(dir, {}, 'rounding');
    assert.deepEqual(await staleOf(dir), []);
  });

  test('a dependency anchor after the manifest gained it and before the manifest is committed', async () => {
    const dir = await project({ 'package.json': `${JSON.stringify({ name: 'shop', dependencies: { zod: '^4.1.0' } }, null, 2)}\n` });
    await axmeOk(dir, ['decision', 'add', '--title', 'Validate with zod', '--decision', 'every input is parsed', '--anchor', 'dep:zod', '--json']);
    commitFiles(dir, {}, 'add zod');
    assert.deepEqual(await staleOf(dir), []);
    const later = commitFiles(dir, { 'package.json': `${JSON.stringify({ name: 'shop', dependencies: { zod: '^5.0.0' } }, null, 2)}\n` }, 'zod 5');
    assert.deepEqual(shasOf((await staleOf(dir)).find((s) => s.kind === 'decision')), [later]);
  });

  test('content committed other than what was saved against is a change', async () => {
    const dir = await project({ 'src/pay.ts': 'export const pay = 2;\n' });
    await axmeOk(dir, ['decision', 'add', '--title', 'Pay in cents', '--decision', 'amounts are integers', '--anchor', 'src/pay.ts', '--json']);
    const c = commitFiles(dir, { 'src/pay.ts': 'export const pay = 4;\n' }, 'pay, edited again');
    assert.deepEqual(shasOf((await staleOf(dir)).find((s) => s.kind === 'decision')), [c]);
  });

  test('a clean file anchored records nothing and behaves as before', async () => {
    const dir = await project({});
    const r = await axmeOk(dir, ['decision', 'add', '--title', 'Carts expire', '--decision', 'after a day', '--anchor', 'src/cart.ts', '--json']);
    const file = git(dir, ['show', `refs/memory/main:${r.path ?? r.item?.path ?? 'decisions/carts-expire.md'}`]);
    assert.doesNotMatch(file, /learned_content/);
    const c = commitFiles(dir, { 'src/cart.ts': 'export const cart = 2;\n' }, 'cart');
    assert.deepEqual(shasOf((await staleOf(dir)).find((s) => s.kind === 'decision')), [c]);
  });

  test("a session's close saving a decision about the files it edited", async () => {
    const dir = await project({ 'src/cart.ts': 'export const cart = 2;\n' });
    const kb = await openTestKb(dir);
    await finalizeClose(kb, {
      summary: 'carts',
      decisions: [{ title: 'Carts are kept a week', decision: 'a week, not a day', anchors: ['src/cart.ts'] }],
    });
    commitFiles(dir, {}, 'carts a week');
    assert.deepEqual(await staleOf(dir), []);
  });

  test('reconfirmed at a later commit while the file is edited again: what is learned is the new content', async () => {
    const dir = await project({ 'src/pay.ts': 'export const pay = 2;\n' });
    await axmeOk(dir, ['decision', 'add', '--title', 'Pay in cents', '--decision', 'amounts are integers', '--anchor', 'src/pay.ts', '--json']);
    commitFiles(dir, {}, 'pay');
    commitFiles(dir, { 'README.md': '# shop!\n' }, 'readme');
    write(dir, { 'src/pay.ts': 'export const pay = 5;\n' });
    await axmeOk(dir, ['reconfirm', 'pay-in-cents', '--json']);
    commitFiles(dir, {}, 'pay 5');
    assert.deepEqual(await staleOf(dir), []);
  });
});
