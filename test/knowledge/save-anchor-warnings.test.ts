import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { axme, commitFiles } from '../helpers.ts';
import { connectStdio, resultText, type ToolResult } from '../mcp/stdio-client.ts';
import { makeStore, type TestStore } from '../store-fixture.ts';

/**
 * A save whose anchor names nothing in the working tree (a mistyped path, a glob with no file, a
 * symbol its file lacks, a dependency no manifest declares) is taken as given, with a warning that
 * names the anchor and the nearest that exists: on stderr and in --json on the command line, in the
 * text and the structured result over MCP (docs/staleness.md#anchors-that-name-nothing).
 */
describe('saving an anchor that names nothing warns, and saves', () => {
  let store: TestStore;
  let dir: string;
  before(async () => {
    store = await makeStore();
    dir = store.dir;
    commitFiles(
      dir,
      {
        'src/auth/login.ts': 'export function signIn() {}\n',
        'src/pay.ts': 'export function chargeCard() {}\n',
        'package.json': JSON.stringify({ dependencies: { react: '^18' } }),
        '.gitignore': 'dist/\n',
      },
      'code',
    );
  });
  after(() => store.cleanup());

  test('axme decision add: the warning on stderr with the nearest, the answer on stdout, exit 0; the anchors stored as given', async () => {
    const r = await axme(dir, [
      'decision',
      'add',
      '--title',
      'Login through sessions',
      '--decision',
      'x',
      '--anchor',
      'src/atuh/login.ts,dep:raect,src/pay.ts',
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Decision saved: D-001 - Login through sessions/);
    assert.doesNotMatch(r.stdout, /warning/);
    assert.match(r.stderr, /warning: anchor src\/atuh\/login\.ts of D-001 names no file in the working tree \(nearest: src\/auth\/login\.ts\)/);
    assert.match(r.stderr, /warning: anchor dep:raect of D-001: no manifest declares it in the working tree \(nearest: dep:react\)/);
    assert.match(r.stderr, /axme reconfirm D-001 --anchor src\/auth\/login\.ts --anchor dep:react --anchor src\/pay\.ts/);
    assert.doesNotMatch(r.stderr, /src\/pay\.ts of/, 'an anchor that names a file is not said');
    const shown = await axme(dir, ['decision', 'show', 'D-001', '--json']);
    assert.deepEqual(JSON.parse(shown.stdout).anchors, ['src/atuh/login.ts', 'dep:raect', 'src/pay.ts']);
  });

  test('--json carries warnings; a glob with no file, a symbol its file lacks, a file git ignores; an untracked file matches', async () => {
    mkdirSync(join(dir, 'dist'), { recursive: true });
    writeFileSync(join(dir, 'dist/app.js'), 'x\n');
    writeFileSync(join(dir, 'src/new.ts'), 'export const fresh = 1;\n');
    const r = await axme(dir, [
      'memory',
      'add',
      '--type',
      'pattern',
      '--title',
      'Charging',
      '--description',
      'd',
      '--anchor',
      'db/**/*.sql,src/pay.ts#chargeCrad,dist/app.js,src/new.ts',
      '--json',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout);
    assert.deepEqual(
      json.warnings.map((w: { code: string; anchor: string; problem: string; nearest?: string }) => `${w.code} ${w.anchor} ${w.problem} ${w.nearest ?? '-'}`),
      [
        'unmatched-anchor db/**/*.sql no-file -',
        'unmatched-anchor src/pay.ts#chargeCrad no-symbol src/pay.ts#chargeCard',
        'unmatched-anchor dist/app.js no-file -',
      ],
    );
    assert.equal(json.warnings[0].item, 'charging');
    assert.equal(json.warnings[0].kind, 'memory');
    assert.match(json.warnings[2].message, /git ignores dist\/app\.js/);
    assert.match(r.stderr, /warning: anchor db\/\*\*\/\*\.sql of charging matches no file in the working tree/);
  });

  test('an edit that sets anchors warns (memory update, reconfirm); a save with anchors that name files has no warnings', async () => {
    const ok = await axme(dir, ['backlog', 'add', '--title', 'Tidy pay', '--anchor', 'src/pay.ts,src/auth/,dep:react', '--json']);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(JSON.parse(ok.stdout).warnings, undefined);
    assert.doesNotMatch(ok.stderr, /warning/);
    const u = await axme(dir, ['memory', 'update', 'charging', '--anchor', 'src/pay.tss']);
    assert.equal(u.code, 0, u.stderr);
    assert.match(u.stderr, /warning: anchor src\/pay\.tss of charging names no file in the working tree \(nearest: src\/pay\.ts\)/);
    const c = await axme(dir, ['reconfirm', 'B-001', '--anchor', 'src/auth/logn.ts', '--json']);
    assert.equal(c.code, 0, c.stderr);
    assert.equal(JSON.parse(c.stdout).warnings[0].nearest, 'src/auth/login.ts');
  });

  describe('over MCP', () => {
    let client: Client;
    const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as ToolResult;
    before(async () => {
      ({ client } = await connectStdio(dir, { session: 'anchor-warnings' }));
    });
    after(() => client.close());

    test('axme_save_decision: warnings in the structured result and in the text', async () => {
      const r = await call('axme_save_decision', { title: 'Pay through the queue', decision: 'x', anchors: ['src/pya.ts'] });
      assert.ok(!r.isError, resultText(r));
      assert.equal(r.structuredContent.warnings[0].anchor, 'src/pya.ts');
      assert.equal(r.structuredContent.warnings[0].nearest, 'src/pay.ts');
      assert.match(
        resultText(r),
        /^Decision saved: D-002 .*\nWarning: anchor src\/pya\.ts of D-002 names no file in the working tree \(nearest: src\/pay\.ts\)/,
      );
    });

    test('axme_finalize_close: a decision and a memory saved with an anchor that names nothing', async () => {
      const r = await call('axme_finalize_close', {
        decisions: [{ title: 'Sign in with passkeys', decision: 'x', anchors: ['src/auth/passkey.ts'] }],
        memories: [{ type: 'pattern', title: 'Queue the charges', description: 'd', anchors: 'src/pay.ts,dep:bullmq' }],
        stopped_at: 'done',
      });
      assert.ok(!r.isError, resultText(r));
      assert.deepEqual(
        r.structuredContent.warnings.map((w: { anchor: string }) => w.anchor),
        ['src/auth/passkey.ts', 'dep:bullmq'],
      );
      assert.match(resultText(r), /Warning: anchor dep:bullmq of queue-the-charges: no manifest declares it/);
    });
  });
});
