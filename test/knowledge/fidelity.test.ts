import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { closeKnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { addBacklogItem } from '../../src/knowledge/items/backlog/add-backlog-item.ts';
import { updateBacklogItem } from '../../src/knowledge/items/backlog/update-backlog-item.ts';
import { decisionSpec } from '../../src/model/decision.ts';
import { isAxmeError } from '../../src/model/errors.ts';
import { decodeItem, encodeItem } from '../../src/model/kind.ts';
import { LIMITS } from '../../src/model/limits.ts';
import { backlogShow } from '../../src/operations/backlog/list.ts';
import { backlogAdd } from '../../src/operations/backlog/writes.ts';
import { context } from '../../src/operations/context.ts';
import { decisionAdd } from '../../src/operations/decision/add.ts';
import { decisionList } from '../../src/operations/decision/list.ts';
import { decisionShow } from '../../src/operations/decision/reads.ts';
import { decisionRevoke } from '../../src/operations/decision/revoke.ts';
import { fsck } from '../../src/operations/fsck.ts';
import { memoryShow } from '../../src/operations/memory/reads.ts';
import type { AnyOperation } from '../../src/operations/operation.ts';
import { exitCodeOf, rejectsWith } from '../core.ts';
import { axme, CLI, cleanEnv, git, openTestKb } from '../helpers.ts';
import { cliJson, cliRun, cliText, makeStore } from '../store-fixture.ts';

/** Commits files straight onto refs/memory/main with plumbing, as a person editing by hand (or a git merge) would. */
function handCommit(dir: string, files: Record<string, string>, message = 'hand edit'): string {
  const tmp = mkdtempSync(join(tmpdir(), 'axme-idx-'));
  try {
    const withIndex = (args: string[]) => execFileSync('git', args, { cwd: dir, env: cleanEnv({ GIT_INDEX_FILE: join(tmp, 'index') }), encoding: 'utf8' });
    withIndex(['read-tree', 'refs/memory/main']);
    for (const [path, content] of Object.entries(files)) {
      const blob = git(dir, ['hash-object', '-w', '--stdin'], content).trim();
      withIndex(['update-index', '--add', '--cacheinfo', `100644,${blob},${path}`]);
    }
    const tree = withIndex(['write-tree']).trim();
    const parent = git(dir, ['rev-parse', 'refs/memory/main']).trim();
    const commit = git(dir, ['commit-tree', tree, '-p', parent, '-m', message]).trim();
    git(dir, ['update-ref', 'refs/memory/main', commit, parent]);
    return commit;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

const show = (dir: string, path: string) => git(dir, ['show', `refs/memory/main:${path}`]);

type Result = { content: Array<{ type: string; text: string }>; structuredContent?: any; isError?: boolean };
const text = (r: Result) => r.content.map((c) => c.text).join('\n');

async function connect(dir: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve'],
    cwd: dir,
    env: cleanEnv({ AXME_SESSION: 'fidelity-test' }) as Record<string, string>,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'axme-fidelity-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/**
 * `fn`, and what reached this process's stderr while it ran: writes, and warnings emitted (the
 * YAML library warns through process.emitWarning, which prints on a later tick) — what a command
 * run as its own process would have printed on stderr besides its own notes.
 */
async function withProcessStderr<T>(fn: () => Promise<T>): Promise<{ value: T; stderr: string }> {
  let stderr = '';
  const write = process.stderr.write;
  const onWarning = (w: Error) => {
    stderr += `${w.name}: ${w.message}\n`;
  };
  process.on('warning', onWarning);
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    stderr += String(chunk);
    return write.call(process.stderr, chunk, ...rest);
  }) as typeof process.stderr.write;
  try {
    const value = await fn();
    await new Promise<void>((resolve) => setImmediate(resolve));
    return { value, stderr };
  } finally {
    process.stderr.write = write;
    process.off('warning', onWarning);
  }
}

function decisionFile(id: string, title: string, unknown: string): string {
  return [
    '---',
    `id: ${id}`,
    `title: ${title}`,
    'status: active',
    'enforce: advisory',
    'created: 2026-01-01T00:00:00.000Z',
    'updated: 2026-01-01T00:00:00.000Z',
    unknown.replace(/\n$/, ''),
    '---',
    '',
    `${title}.`,
    '',
  ].join('\n');
}

describe('unknown frontmatter fields round-trip exactly through a rewrite', () => {
  // each case: the unknown fields as written by hand, which must come back byte for byte after `decision revoke`
  const cases: Array<[string, string]> = [
    ['a !!binary tag', 'bar: !!binary aGVsbG8=\n'],
    ['a !!timestamp tag', 'seen: !!timestamp 2001-12-14t21:59:43.10-05:00\n'],
    ['a custom !foo tag on a mapping', 'custom: !foo {a: 1, b: [2, 3]}\n'],
    ['an anchor and an alias', 'base: &b\n  x: 1\n  y: two\nref: *b\n'],
    ['a multi-line block scalar with a header comment and # lines', 'script: | # run this\n  echo one\n  # not a comment\n\n  echo two\n'],
    ['comments above, beside and inside', '# the team\nmeta:\n  # inner\n  team: infra\n# who owns it\nowner: alice # the lead\n'],
    ['a quoted value and a long integer', 'big: 123456789012345678901234567890\nticket: "00042"\n'],
    ['a folded scalar with keep chomping', 'note: >+\n  folded\n  text\n\nzz: last\n'],
  ];

  let dir: string;
  let cleanup: () => void;
  before(async () => {
    ({ dir, cleanup } = await makeStore({ init: { claude: true, gitHooks: true, scan: 'if-new' } }));
    const files: Record<string, string> = {};
    cases.forEach(([, unknown], i) => (files[`decisions/case-${i}.md`] = decisionFile(`D-${String(i + 1).padStart(3, '0')}`, `Case ${i}`, unknown)));
    handCommit(dir, files);
    // a listing fills the parse cache on disk: the revocations below read the items from it
    await cliText(dir, decisionList);
  });
  after(() => cleanup());

  /**
   * `axme decision revoke <id> --reason <reason>`: the exit code and stderr, the first case as
   * the built binary (its real process's stderr), the others in-process (the command's notes and
   * whatever reached this process's stderr meanwhile).
   */
  const revoke = async (i: number, reason: string): Promise<{ code: number; stderr: string }> => {
    const id = `D-${String(i + 1).padStart(3, '0')}`;
    if (i === 0) return axme(dir, ['decision', 'revoke', id, '--reason', reason]);
    const { value, stderr } = await withProcessStderr(() => cliRun(dir, decisionRevoke, { id, reason }));
    return { code: value.code, stderr: value.stderr + stderr };
  };

  cases.forEach(([name, unknown], i) => {
    test(`${name} is kept as written`, async () => {
      const path = `decisions/case-${i}.md`;
      const r = await revoke(i, 'test');
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stderr, '', 'no YAML warnings on stderr');
      const after = show(dir, path);
      assert.match(after, /^status: revoked$/m);
      assert.ok(after.includes(`\n${unknown}`), `the unknown fields come back byte for byte:\n${after}`);
      // and again: a second rewrite (from a fresh parse) changes nothing more
      const again = await revoke(i, 'again');
      assert.equal(again.code, 0, again.stderr);
      assert.equal(show(dir, path), after);
    });
  });

  test('show --json gives the tagged values as plain data, not a Buffer', async () => {
    const j = await cliJson(dir, decisionShow, { id_or_slug: 'D-001' });
    assert.equal(j.extra.bar, 'aGVsbG8=');
    const t = await cliJson(dir, decisionShow, { id_or_slug: 'D-002' });
    assert.equal(t.extra.seen, '2001-12-14t21:59:43.10-05:00');
  });

  test('an alias to an anchor on a field axme rewrites is refused, naming the field; nothing is written', async () => {
    handCommit(dir, { 'decisions/anchored.md': decisionFile('D-100', '&t Anchored title', 'alt: *t\n') });
    const tip = git(dir, ['rev-parse', 'refs/memory/main']).trim();
    const err = await rejectsWith(cliRun(dir, decisionRevoke, { id: 'D-100', reason: 'test' }), 'CORRUPT', /alt/);
    assert.equal(exitCodeOf(err), 1);
    assert.match(err.message, /nothing was written/);
    assert.equal(git(dir, ['rev-parse', 'refs/memory/main']).trim(), tip);
  });

  test('the codec: encode keeps the source of unknown fields; a changed value is written anew', () => {
    const file = decisionFile('D-001', 'T', '# c\nbar: !!binary aGVsbG8= # x\nzed: &z [1, 2]\nref: *z\n');
    const d = decodeItem(decisionSpec, 't', file);
    assert.ok(d.ok, d.ok ? '' : d.reason);
    assert.equal(encodeItem(decisionSpec, d.item), file);
    const changed = encodeItem(decisionSpec, { ...d.item, extra: { ...d.item.extra, bar: 'other' } });
    assert.match(changed, /^bar: other$/m);
    // a comment above a known field stays above it when axme rewrites the field
    const commented = decodeItem(decisionSpec, 't', file.replace('status: active', '# decided in the Q3 review\nstatus: active'));
    assert.ok(commented.ok);
    assert.match(encodeItem(decisionSpec, { ...commented.item, status: 'revoked' }), /\n# decided in the Q3 review\nstatus: revoked\n/);
    const anchored = decodeItem(decisionSpec, 't', decisionFile('D-001', '&t T', 'alt: *t\n'));
    assert.ok(anchored.ok);
    assert.throws(
      () => encodeItem(decisionSpec, anchored.item),
      (err) => isAxmeError(err, 'CORRUPT') && /"alt"/.test(err.message),
    );
  });
});

describe('backlog notes at the size limit', () => {
  let dir: string;
  let cleanup: () => void;
  before(async () => {
    ({ dir, cleanup } = await makeStore({ init: { claude: true, gitHooks: true, scan: 'if-new' } }));
    await cliText(dir, backlogAdd, { title: 'Long running work' });
  });
  after(() => cleanup());

  test('a note past the limit archives the oldest notes into history; nothing is lost and the item stays editable', async () => {
    const kb = await openTestKb(dir);
    try {
      const note = (i: number) => `note ${i} ${'x'.repeat(12_000)}`;
      for (let i = 1; i <= 5; i++) await updateBacklogItem(kb, { id: 'B-001', notes: note(i) });
      const full = git(dir, ['rev-parse', 'refs/memory/main']).trim();
      const r = await updateBacklogItem(kb, { id: 'B-001', notes: note(6) });
      assert.ok(r.changed);
      assert.ok(r.item.notes.length <= LIMITS.text, `notes are ${r.item.notes.length} characters`);
      const file = show(dir, 'backlog/long-running-work.md');
      assert.match(file, /note 6 x/, 'the new note is there');
      assert.doesNotMatch(file, /note 1 x/, 'the oldest note left the file');
      assert.ok(
        file.includes(`git show ${full.slice(0, 12)}:backlog/long-running-work.md`),
        `the marker names the commit that holds them:\n${file.slice(0, 600)}`,
      );
      assert.match(git(dir, ['show', `${full}:backlog/long-running-work.md`]), /note 1 x/, 'and that commit has them');
      // still editable: another note, a status change
      const again = await updateBacklogItem(kb, { id: 'B-001', notes: note(7), status: 'in-progress' });
      assert.equal(again.item.status, 'in-progress');
      assert.ok(again.item.notes.length <= LIMITS.text);
      assert.match(show(dir, 'backlog/long-running-work.md'), /note 7 x/);
    } finally {
      await closeKnowledgeBase(kb);
    }
  });

  test('notes also make room when the item file, not the notes, reaches its size limit (multi-byte text)', async () => {
    const kb = await openTestKb(dir);
    try {
      await addBacklogItem(kb, { title: 'Wide text', description: '漢'.repeat(40_000) });
      for (let i = 1; i <= 6; i++) {
        const r = await updateBacklogItem(kb, { id: 'wide-text', notes: `wide ${i} ${'字'.repeat(10_000)}` });
        assert.match(r.item.notes, new RegExp(`wide ${i} `));
      }
      const file = show(dir, 'backlog/wide-text.md');
      assert.ok(Buffer.byteLength(file) <= LIMITS.fileBytes, `${Buffer.byteLength(file)} bytes`);
      assert.match(file, /^- Earlier notes are in git history: git show [0-9a-f]{12}:backlog\/wide-text\.md$/m);
      assert.doesNotMatch(file, /wide 1 /);
    } finally {
      await closeKnowledgeBase(kb);
    }
  });

  test('a note that cannot fit even alone is a usage error naming the limit (CLI exit 2, MCP tool error)', async () => {
    const tip = git(dir, ['rev-parse', 'refs/memory/main']).trim();
    const huge = 'y'.repeat(LIMITS.text);
    const r = await axme(dir, ['backlog', 'update', 'B-001', '--stdin', 'notes'], { input: huge });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /64\.0 KB/);
    assert.doesNotMatch(r.stderr, /internal error/);
    assert.equal(git(dir, ['rev-parse', 'refs/memory/main']).trim(), tip, 'nothing written');
    const client = await connect(dir);
    try {
      const m = (await client.callTool({ name: 'axme_backlog_update', arguments: { id: 'B-001', notes: huge } })) as Result;
      assert.equal(m.isError, true);
      assert.match(text(m), /^invalid request: .*64\.0 KB/);
      const ok = (await client.callTool({ name: 'axme_backlog_update', arguments: { id: 'B-001', notes: 'z'.repeat(30_000) } })) as Result;
      assert.ok(!ok.isError, text(ok));
    } finally {
      await client.close();
    }
  });
});

describe('broken and duplicate items are reported, never hidden', () => {
  let dir: string;
  let cleanup: () => void;
  let client: Client;
  const call = async (name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as Result;
  before(async () => {
    ({ dir, cleanup } = await makeStore({ init: { claude: true, gitHooks: true, scan: 'if-new' } }));
    await cliText(dir, decisionAdd, { title: 'First choice', decision: 'One.' });
    await cliText(dir, backlogAdd, { title: 'Some work' });
    handCommit(dir, {
      // a decision file that does not parse, but holds an ID
      'decisions/broken-one.md': '---\nid: D-007\ntitle: Broken\nstatus: bogus\ncreated: 2026-01-01\nupdated: 2026-01-01\n---\n\nx\n',
      'backlog/broken-work.md': '---\nid: B-009\ntitle: [unclosed\n---\n',
      'memories/broken-memory.md': '---\ntype: other\ntitle: T\ndescription: d\ncreated: 2026-01-01\nupdated: 2026-01-01\n---\n',
      // a second decision with the ID of the first one (as a merge by hand would leave it)
      'decisions/second-choice.md': decisionFile('D-001', 'Second choice', ''),
    });
    client = await connect(dir);
  });
  after(async () => {
    await client.close();
    cleanup();
  });

  const shows: Record<string, AnyOperation> = { decision: decisionShow, backlog: backlogShow, memory: memoryShow };
  const refKey: Record<string, string> = { decision: 'id_or_slug', backlog: 'id', memory: 'slug' };
  for (const [kind, ref, path] of [
    ['decision', 'broken-one', 'decisions/broken-one.md'],
    ['decision', 'D-007', 'decisions/broken-one.md'],
    ['backlog', 'B-009', 'backlog/broken-work.md'],
    ['memory', 'broken-memory', 'memories/broken-memory.md'],
  ] as const) {
    test(`${kind} show ${ref} reports the parse error of ${path}, not "no ${kind}"`, async () => {
      const checked = await cliRun(dir, fsck, {});
      assert.equal(checked.code, 1, '`axme fsck` exits 1 on an error finding');
      const line = checked.stdout.split('\n').find((l) => l.startsWith(`error: ${path}: `))!;
      assert.ok(line, checked.stdout);
      const reason = line.slice(`error: ${path}: `.length);
      const err = await rejectsWith(cliRun(dir, shows[kind]!, { [refKey[kind]!]: ref }), 'CORRUPT');
      assert.equal(exitCodeOf(err), 1);
      assert.doesNotMatch(err.message, new RegExp(`no ${kind} `));
      assert.ok(err.message.includes(path), err.message);
      assert.ok(err.message.includes(reason), `the reason fsck gives:\n${err.message}`);
      if (ref !== 'D-007') return;
      // the built binary once: the exit code, the message on stderr, and --json's error object there
      const r = await axme(dir, [kind, 'show', ref]);
      assert.equal(r.code, 1);
      assert.equal(r.stderr, `axme: ${err.message}\n`);
      const j = await axme(dir, [kind, 'show', ref, '--json']);
      assert.equal(JSON.parse(j.stderr).error.code, 'CORRUPT');
    });
  }

  test('MCP axme_get_decision and axme_get_memory report the parse error', async () => {
    const d = await call('axme_get_decision', { id_or_slug: 'D-007' });
    assert.equal(d.isError, true);
    assert.match(text(d), /decisions\/broken-one\.md/);
    assert.match(text(d), /status: /);
    assert.doesNotMatch(text(d), /not found|no decision/);
    const m = await call('axme_get_memory', { slug: 'broken-memory' });
    assert.equal(m.isError, true);
    assert.match(text(m), /memories\/broken-memory\.md.*type: /);
    const b = await call('axme_backlog', { id: 'B-009' });
    assert.equal(b.isError, true);
    assert.match(text(b), /backlog\/broken-work\.md/);
  });

  test('a display ID two files carry is refused on read, naming both files and what to do', async () => {
    const err = await rejectsWith(cliRun(dir, decisionShow, { id_or_slug: 'D-001' }), 'AMBIGUOUS');
    assert.equal(exitCodeOf(err), 1);
    assert.match(err.message, /decisions\/first-choice\.md/);
    assert.match(err.message, /decisions\/second-choice\.md/);
    assert.match(err.message, /slug/);
    // by slug each one is still readable
    assert.match(await cliText(dir, decisionShow, { id_or_slug: 'second-choice' }), /Second choice/);
    const m = await call('axme_get_decision', { id_or_slug: 'D-001' });
    assert.equal(m.isError, true);
    assert.match(text(m), /first-choice\.md.*second-choice\.md|second-choice\.md.*first-choice\.md/);
    // a write by that ID is refused the same way
    const w = await rejectsWith(cliRun(dir, decisionRevoke, { id: 'D-001', reason: 'which one?' }), 'AMBIGUOUS');
    assert.equal(exitCodeOf(w), 1);
    assert.match(w.message, /second-choice\.md/);
  });

  test('axme context and axme_context list the problems that need a human', async () => {
    const cli = await cliText(dir, context);
    const mcp = text(await call('axme_context'));
    for (const out of [cli, mcp]) {
      assert.match(out, /## Store problems/);
      assert.match(out, /D-001.*(first-choice|second-choice)\.md/, 'the duplicate display ID');
      assert.match(out, /decisions\/broken-one\.md: status: /, 'the broken file');
    }
  });
});
