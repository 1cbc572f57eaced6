import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { declaredVersions } from '../../src/knowledge/stale/dep-versions.ts';
import type { VerifyResult } from '../../src/knowledge/stale/types.ts';
import { verifyKnowledge } from '../../src/knowledge/stale/verify-knowledge.ts';
import { staleLine, staleMarks } from '../../src/knowledge/views/stale-marks.ts';
import { verify } from '../../src/operations/verify.ts';
import { coreAt, runOp, withCore } from '../core.ts';
import { axme, commitFiles, git, tempRepo } from '../helpers.ts';

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

const run = (dir: string): Promise<VerifyResult> => withCore(dir, (kb) => verifyKnowledge(kb));
const decide = (dir: string, title: string, anchors: string[]) => coreAt(dir).addDecision({ title, decision: `${title}.`, anchors });
const only = (r: VerifyResult, slug: string) => r.stale.find((s) => s.slug === slug);

describe('axme verify: knowledge that knows the code moved', () => {
  test('a decision goes stale when its file changes, with the commits and a diffstat; learned_at is set on save', async () => {
    const { dir } = await project({ 'src/pay.ts': 'export function charge() {}\n', 'README.md': 'hi\n' });
    const saved = await decide(dir, 'Charge through the payment service', ['src/pay.ts']);
    assert.equal(saved.item.learned_at, git(dir, ['rev-parse', 'HEAD']).trim(), 'learned_at is HEAD at save time');
    const fresh = await run(dir);
    assert.equal(fresh.checked, 1);
    assert.deepEqual(fresh.stale, []);
    const c1 = commitFiles(dir, { 'src/pay.ts': 'export function charge() { retry(); }\n' }, 'Retry declined charges');
    const c2 = commitFiles(dir, { 'src/pay.ts': 'export function charge() { retry(); log(); }\nexport const x = 1;\n' }, 'Log charges');
    const r = await run(dir);
    const s = only(r, 'charge-through-the-payment-service')!;
    assert.ok(s, JSON.stringify(r));
    assert.equal(s.reason, 'src/pay.ts changed in 2 commits since this was decided');
    assert.equal(s.id, 'D-001');
    assert.equal(s.kind, 'decision');
    assert.deepEqual(
      s.commits.map((c) => c.sha),
      [c2, c1],
      'newest first',
    );
    assert.deepEqual(
      s.commits.map((c) => c.subject),
      ['Log charges', 'Retry declined charges'],
    );
    assert.equal(s.changes[0]!.change, 'touched');
    assert.deepEqual(s.changes[0]!.diffstat, { files: 1, insertions: 3, deletions: 2 });
    assert.match(staleLine(s), /^May be outdated: src\/pay\.ts changed in 2 commits since this was decided\. .*axme reconfirm D-001/);
    assert.equal(r.head, c2);
  });

  test('an unrelated file changing leaves it fresh', async () => {
    const { dir } = await project({ 'src/pay.ts': 'a\n', 'src/other.ts': 'b\n' });
    await decide(dir, 'Pay decision', ['src/pay.ts']);
    commitFiles(dir, { 'src/other.ts': 'c\n', 'src/pay.tsx': 'd\n', 'src/pay.ts.bak': 'e\n' }, 'unrelated');
    const r = await run(dir);
    assert.equal(r.checked, 1);
    assert.deepEqual(r.stale, []);
  });

  test('a rename is followed (git mv + edit): renamed, with the new path, still stale', async () => {
    const { dir } = await project({ 'src/pay.ts': 'export function chargeCard() {}\n'.repeat(10) });
    await decide(dir, 'Cards', ['src/pay.ts']);
    git(dir, ['mv', 'src/pay.ts', 'src/billing.ts']);
    commitFiles(dir, { 'src/billing.ts': 'export function chargeCard() {}\n'.repeat(10) + 'export const y = 2;\n' }, 'Move pay to billing');
    commitFiles(dir, { 'src/billing.ts': 'export function chargeCard() {}\n'.repeat(10) + 'export const y = 3;\n' }, 'Tune billing');
    const s = only(await run(dir), 'cards')!;
    assert.equal(s.changes[0]!.change, 'renamed');
    assert.equal(s.changes[0]!.to, 'src/billing.ts');
    assert.equal(s.commits.length, 2, 'the edit after the rename counts too');
    assert.equal(s.reason, 'src/pay.ts was renamed to src/billing.ts since this was decided');
  });

  test('a deleted file', async () => {
    const { dir } = await project({ 'src/old.ts': 'x\n', 'src/keep.ts': 'y\n' });
    await decide(dir, 'Old module', ['src/old.ts']);
    commitFiles(dir, { 'src/old.ts': null }, 'Remove old module');
    const s = only(await run(dir), 'old-module')!;
    assert.equal(s.changes[0]!.change, 'deleted');
    assert.equal(s.reason, 'src/old.ts was deleted since this was decided');
  });

  test('a folder anchor covers the files under it; a folder renamed as a whole is renamed', async () => {
    const { dir } = await project({ 'src/pay/a.ts': 'a\n', 'src/pay/b.ts': 'b\n', 'src/payroll.ts': 'p\n', 'src/api/x.ts': 'x\n' });
    await decide(dir, 'Pay folder', ['src/pay/']);
    await decide(dir, 'Api folder', ['src/api']);
    commitFiles(dir, { 'src/payroll.ts': 'q\n' }, 'not under src/pay/');
    assert.deepEqual((await run(dir)).stale, []);
    commitFiles(dir, { 'src/pay/b.ts': 'b2\n' }, 'Change b');
    git(dir, ['mv', 'src/api', 'src/http']);
    commitFiles(dir, {}, 'Rename api to http');
    const r = await run(dir);
    assert.equal(only(r, 'pay-folder')!.reason, 'src/pay/ changed in 1 commit since this was decided');
    const api = only(r, 'api-folder')!;
    assert.equal(api.changes[0]!.change, 'renamed');
    assert.equal(api.changes[0]!.to, 'src/http/');
  });

  test('a glob anchor: any matching file touched', async () => {
    const { dir } = await project({ 'db/schema/a.sql': 'create\n', 'db/readme.md': 'r\n' });
    await decide(dir, 'Schema rules', ['db/**/*.sql']);
    commitFiles(dir, { 'db/readme.md': 'r2\n' }, 'docs only');
    assert.deepEqual((await run(dir)).stale, []);
    commitFiles(dir, { 'db/schema/new/b.sql': 'alter\n' }, 'Add migration');
    const s = only(await run(dir), 'schema-rules')!;
    assert.equal(s.changes[0]!.change, 'touched');
    assert.equal(s.reason, 'db/**/*.sql changed in 1 commit since this was decided');
  });

  test('a grep anchor is stale only when the file no longer contains the symbol', async () => {
    const { dir } = await project({ 'src/pay.ts': 'export function chargeCard() {}\n' });
    await decide(dir, 'Charge cards', ['src/pay.ts#chargeCard']);
    commitFiles(dir, { 'src/pay.ts': '// touched\nexport function chargeCard() { return 1; }\n' }, 'Touch but keep');
    assert.deepEqual((await run(dir)).stale, [], 'touched but still matching: fresh');
    commitFiles(dir, { 'src/pay.ts': 'export function chargePayment() {}\n' }, 'Rename the function');
    const s = only(await run(dir), 'charge-cards')!;
    assert.equal(s.changes[0]!.change, 'no-match');
    assert.equal(s.reason, 'src/pay.ts no longer contains chargeCard since this was decided');
  });

  test('a dependency range moved in package.json (and removed in requirements.txt)', async () => {
    const { dir } = await project({
      'package.json': JSON.stringify({ dependencies: { react: '^17.0.0', lodash: '^4' } }),
      'requirements.txt': 'Django>=4.2\nrequests==2.31\n',
    });
    await decide(dir, 'React version', ['dep:react']);
    await decide(dir, 'Lodash', ['dep:lodash']);
    await decide(dir, 'Django', ['dep:django']);
    commitFiles(
      dir,
      {
        'package.json': JSON.stringify({ dependencies: { react: '^18.2.0', lodash: '^4' }, devDependencies: { vitest: '1' } }),
        'requirements.txt': 'requests==2.32\n',
      },
      'Upgrade React',
    );
    const r = await run(dir);
    const react = only(r, 'react-version')!;
    assert.deepEqual(
      { ...react.changes[0], commits: undefined },
      { anchor: 'dep:react', change: 'dep-changed', path: 'package.json', from_version: '^17.0.0', to_version: '^18.2.0', commits: undefined },
    );
    assert.equal(react.reason, 'dependency react moved from ^17.0.0 to ^18.2.0 (package.json) since this was decided');
    assert.equal(only(r, 'lodash'), undefined, 'the same range: fresh');
    assert.equal(only(r, 'django')!.reason, 'dependency django was removed from requirements.txt since this was decided');
  });

  test('a superseded decision is not checked; memories and backlog items are', async () => {
    const { dir, core } = await project({ 'src/a.ts': 'a\n' });
    await decide(dir, 'Old way', ['src/a.ts']);
    await core.supersede({ id: 'old-way', title: 'New way', decision: 'New.', anchors: ['src/a.ts'] });
    await core.addMemory({ type: 'pattern', title: 'A pattern', description: 'd', anchors: ['src/a.ts'] });
    await core.addBacklog({ title: 'Refactor a', anchors: ['src/a.ts'] });
    commitFiles(dir, { 'src/a.ts': 'b\n' }, 'Change a');
    const r = await run(dir);
    assert.deepEqual(r.stale.map((s) => `${s.kind}:${s.slug}`).sort(), ['backlog:refactor-a', 'decision:new-way', 'memory:a-pattern']);
    assert.equal(r.checked, 3);
    assert.match(only(r, 'a-pattern')!.reason, /since this was noted$/);
  });

  test("learned_at off HEAD's history compares contents; an unknown learned_at is unverifiable, not a crash", async () => {
    const { dir } = await project({ 'src/a.ts': 'a\n', 'src/b.ts': 'b\n' });
    git(dir, ['checkout', '-q', '-b', 'side']);
    commitFiles(dir, { 'src/side.ts': 's\n' }, 'side work');
    await decide(dir, 'Learned on a side branch', ['src/a.ts']);
    await decide(dir, 'Also on the side', ['src/b.ts']);
    git(dir, ['checkout', '-q', 'main']);
    commitFiles(dir, { 'src/a.ts': 'a2\n' }, 'main moves a');
    let r = await run(dir);
    const s = only(r, 'learned-on-a-side-branch')!;
    assert.equal(s.changes[0]!.change, 'touched');
    assert.deepEqual(s.commits, [], 'no commits: the contents were compared');
    assert.match(s.reason, /^src\/a\.ts differs since this was decided \(its commit is not in HEAD's history/);
    assert.equal(only(r, 'also-on-the-side'), undefined, 'b.ts is the same in both');
    git(dir, ['branch', '-q', '-D', 'side']);
    git(dir, ['reflog', 'expire', '--expire=now', '--all']);
    git(dir, ['gc', '-q', '--prune=now']);
    r = await run(dir);
    assert.equal(r.stale.length, 0);
    assert.deepEqual(r.unverifiable.map((u) => u.slug).sort(), ['also-on-the-side', 'learned-on-a-side-branch']);
    assert.match(r.unverifiable[0]!.reason, /is not a commit of this repository/);
  });

  test('staleMarks: by kind and slug, from the remembered result', async () => {
    const { dir } = await project({ 'src/a.ts': 'a\n' });
    await decide(dir, 'Index me', ['src/a.ts']);
    commitFiles(dir, { 'src/a.ts': 'b\n' }, 'Change a');
    await withCore(dir, async (kb) => {
      const first = await staleMarks(kb);
      assert.deepEqual(
        first.all.map((s) => `${s.kind}:${s.slug}`),
        ['decision:index-me'],
      );
      assert.equal(first.of('decision', 'index-me')?.slug, 'index-me');
      assert.equal(first.of('memory', 'index-me'), undefined);
      assert.equal(await staleMarks(kb), first, 'the same marks while the store and HEAD do not move');
    });
  });

  test('a bare repository has nothing to compare, and says so', async () => {
    const { dir, cleanup } = tempRepo({ bare: true });
    cleanups.push(cleanup);
    await coreAt(dir).init();
    const r = await run(dir);
    assert.equal(r.head, null);
    assert.equal(r.checked, 0);
    assert.match(r.note!, /bare repository/);
  });

  test('axme verify --check exits 1 when something is stale, 0 otherwise; the JSON shape', async () => {
    const { dir } = await project({ 'src/pay.ts': 'a\n', 'src/other.ts': 'o\n' });
    await decide(dir, 'Pay', ['src/pay.ts']);
    commitFiles(dir, { 'src/other.ts': 'o2\n' }, 'unrelated');
    let cli = await axme(dir, ['verify', '--check']);
    assert.equal(cli.code, 0, cli.stderr);
    assert.match(cli.stderr, /0 of 1 anchored item may be outdated/);
    const sha = commitFiles(dir, { 'src/pay.ts': 'b\n' }, 'Change pay');
    cli = await axme(dir, ['verify', '--check']);
    assert.equal(cli.code, 1, cli.stderr);
    assert.match(cli.stdout, /D-001 Pay \(pay\)\n {2}src\/pay\.ts changed in 1 commit since this was decided\n {4}[0-9a-f]{12} \d{4}-\d\d-\d\d Change pay/);
    assert.equal((await axme(dir, ['verify'])).code, 0, 'without --check: a report, exit 0');
    const json = JSON.parse((await axme(dir, ['verify', '--json'])).stdout);
    assert.deepEqual(Object.keys(json).sort(), ['checked', 'head', 'stale', 'unlearned', 'unmatched', 'unverifiable']);
    assert.equal(json.head, sha);
    assert.equal(json.checked, 1);
    assert.deepEqual(Object.keys(json.stale[0]).sort(), ['changes', 'commits', 'id', 'kind', 'learned_at', 'reason', 'slug', 'title']);
    assert.deepEqual(
      json.stale[0].commits.map((c: { sha: string; subject: string }) => [c.sha, c.subject]),
      [[sha, 'Change pay']],
    );
    assert.deepEqual(json.stale[0].changes[0].commits, [sha]);
    assert.deepEqual(await runOp(dir, verify, {}), json, 'the operation gives the same object');
  });
});

describe('declared dependency ranges', () => {
  const cases: Array<[string, string, Record<string, string>]> = [
    [
      'package.json',
      JSON.stringify({ dependencies: { a: '1' }, devDependencies: { b: '^2' }, peerDependencies: { c: '>=3' }, optionalDependencies: { d: '4' } }),
      { a: '1', b: '^2', c: '>=3', d: '4' },
    ],
    ['requirements.txt', '# c\nDjango[argon2]>=4.2,<5 ; python_version>"3.8"\n-r base.txt\nzope.interface\n', { django: '>=4.2,<5', 'zope-interface': '*' }],
    [
      'go.mod',
      'module x\n\nrequire github.com/a/b v1.2.3\nrequire (\n\tgolang.org/x/net v0.1.0 // indirect\n)\n',
      { 'github.com/a/b': 'v1.2.3', 'golang.org/x/net': 'v0.1.0' },
    ],
    [
      'Cargo.toml',
      '[package]\nname = "x"\nversion = "0.1.0"\n[dependencies]\nserde = { version = "1.0", features = ["derive"] }\nrand = "0.8"\n[dev-dependencies.tokio]\nversion = "1"\n',
      { serde: '1.0', rand: '0.8', tokio: '1' },
    ],
    [
      'pyproject.toml',
      '[project]\nname = "x"\ndependencies = [\n  "httpx>=0.27",\n  "Pydantic_Core==2",\n]\n[tool.poetry.dependencies]\npython = "^3.11"\nflask = "^3"\n',
      { httpx: '>=0.27', 'pydantic-core': '==2', flask: '^3' },
    ],
  ];
  for (const [path, text, want] of cases) {
    test(path, () => assert.deepEqual(Object.fromEntries(declaredVersions(path, text)), want));
  }
});
