import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Timestamp } from '../../src/model/common.ts';
import { Decision, decisionSpec } from '../../src/model/decision.ts';
import { Handoff, handoffSpec } from '../../src/model/handoff.ts';
import { decodeItem, encodeItem } from '../../src/model/kind.ts';
import { CONFIG_PATH, classifyPath, itemPath, RULES_PATH } from '../../src/model/paths.ts';
import { DEFAULT_RULES, SafetyRules } from '../../src/model/safety-rules.ts';
import { findSecret } from '../../src/model/secrets.ts';
import { parseDateSpec } from '../../src/store/revision.ts';

// The safety rules' schema (safety-rules.ts), store paths (paths.ts), date specs (store/revision.ts), and edge cases across the model.

// ---------------------------------------------------------------------------------------------
// safety-rules.ts

describe('SafetyRules', () => {
  test('parse({}) equals the AXME defaults', () => {
    const r = SafetyRules.parse({});
    assert.deepEqual(r, DEFAULT_RULES);
    assert.deepEqual(r.git.protectedBranches, ['main', 'master']);
    assert.ok(r.bash.deniedPrefixes.includes('npm publish'));
    assert.ok(r.bash.deniedPrefixes.includes('git push --force'));
    assert.ok(r.filesystem.deniedPaths.includes('/etc/passwd'));
    for (const name of ['.env', '*.pem', '*.key'])
      assert.ok(!r.filesystem.deniedPaths.includes(name), `${name} is a secret file name (never read, may be made), not a denied path`);
    // the credentials are model/home-credentials.ts HOME_CREDENTIALS and model/sandbox.ts SYSTEM_CREDENTIALS (secrets.paths), not copied into the team's list
    for (const path of ['~/.ssh/id_*', '~/.aws/credentials', '~/.gnupg/*', '/etc/shadow'])
      assert.ok(!r.filesystem.deniedPaths.includes(path), `${path} is a built-in credential, not a denied path`);
    assert.equal(r.git.allowForcePush, false);
    assert.equal(r.git.requirePrForMain, true);
    assert.equal(r.git.requireAxmeSuffix, 'agents');
  });

  test('a present list replaces the default list; the others keep their defaults', () => {
    const r = SafetyRules.parse({ bash: { deniedPrefixes: ['x'] } });
    assert.deepEqual(r.bash.deniedPrefixes, ['x']);
    assert.deepEqual(r.bash.deniedCommands, DEFAULT_RULES.bash.deniedCommands);
    assert.deepEqual(r.bash.allowedPrefixes, []);
    assert.deepEqual(r.git, DEFAULT_RULES.git);
    assert.deepEqual(r.filesystem, DEFAULT_RULES.filesystem);
  });

  test('an explicit empty list stays empty', () => {
    const r = SafetyRules.parse({ git: { protectedBranches: [] } });
    assert.deepEqual(r.git.protectedBranches, []);
    assert.equal(r.git.requirePrForMain, true);
  });

  test('scalar settings override and are validated', () => {
    const r = SafetyRules.parse({ git: { allowForcePush: true, requireAxmeSuffix: 'never' } });
    assert.equal(r.git.allowForcePush, true);
    assert.equal(r.git.requireAxmeSuffix, 'never');
    assert.deepEqual(r.git.protectedBranches, ['main', 'master']);
    assert.equal(SafetyRules.safeParse({ git: { requireAxmeSuffix: 'sometimes' } }).success, false);
    assert.equal(SafetyRules.safeParse({ bash: { deniedPrefixes: 'rm' } }).success, false);
    assert.equal(SafetyRules.safeParse({ bash: { deniedPrefixes: ['ok', ''] } }).success, false);
  });

  test('mutating a parsed result does not change the defaults', () => {
    const a = SafetyRules.parse({});
    a.git.protectedBranches.push('prod');
    a.bash.deniedCommands.push('evil');
    a.filesystem.deniedPaths.length = 0;
    const b = SafetyRules.parse({ bash: { deniedPrefixes: ['x'] }, filesystem: {} });
    b.bash.deniedCommands.push('evil2');
    b.filesystem.readOnlyPaths.push('ro');
    assert.deepEqual(DEFAULT_RULES.git.protectedBranches, ['main', 'master']);
    assert.ok(!DEFAULT_RULES.bash.deniedCommands.includes('evil'));
    assert.ok(!DEFAULT_RULES.bash.deniedCommands.includes('evil2'));
    assert.ok(DEFAULT_RULES.filesystem.deniedPaths.includes('/etc/passwd'));
    assert.deepEqual(SafetyRules.parse({}), SafetyRules.parse({ git: {}, bash: {}, filesystem: {} }));
    assert.deepEqual(SafetyRules.parse({ filesystem: {} }).filesystem.readOnlyPaths, []);
  });
});

// ---------------------------------------------------------------------------------------------
// paths.ts

describe('classifyPath', () => {
  const items: Array<[string, string, string]> = [
    ['decisions/x.md', 'decision', 'x'],
    ['memories/tests-use-real-git.md', 'memory', 'tests-use-real-git'],
    ['backlog/b-1.md', 'backlog', 'b-1'],
    ['questions/which-db.md', 'question', 'which-db'],
    ['handoffs/sess-7f3a.md', 'handoff', 'sess-7f3a'],
    ['plans/p.md', 'plan', 'p'],
    ['sessions/2026-11/abc.md', 'session', 'abc'],
  ];
  for (const [path, kind, slug] of items) {
    test(`${path} is a ${kind} item`, () => {
      const c = classifyPath(path);
      assert.equal(c.type, 'item');
      assert.ok(c.type === 'item');
      assert.equal(c.spec.kind, kind);
      assert.equal(c.slug, slug);
    });
  }

  test('axme.yaml is the config, safety/rules.yaml the rules', () => {
    assert.deepEqual(classifyPath(CONFIG_PATH), { type: 'config' });
    assert.deepEqual(classifyPath('axme.yaml'), { type: 'config' });
    assert.deepEqual(classifyPath(RULES_PATH), { type: 'rules' });
    assert.deepEqual(classifyPath('safety/rules.yaml'), { type: 'rules' });
  });

  const others: Array<[string, RegExp]> = [
    ['sessions/x.md', /sessions\/<yyyy-mm>/],
    ['sessions/2026-11/sub/abc.md', /sessions\/<yyyy-mm>/],
    ['sessions/26-11/abc.md', /sessions\/<yyyy-mm>/],
    ['decisions/Bad_Name.md', /not a valid slug/],
    ['decisions/..md', /not a valid slug/],
    ['decisions/-x.md', /not a valid slug/],
    ['decisions/sub/x.md', /directly in decisions\//],
    ['decisions', /directly in decisions\//],
    ['decisions/x.txt', /\.md files/],
    ['decisions/x', /\.md files/],
    ['README.md', /not a folder axme knows/],
    ['safety/other.yaml', /not a folder axme knows/],
    ['../decisions/x.md', /not a folder axme knows/],
    ['/decisions/x.md', /not a folder axme knows/],
    ['Decisions/x.md', /not a folder axme knows/],
  ];
  for (const [path, reason] of others) {
    test(`${path} is other`, () => {
      const c = classifyPath(path);
      assert.equal(c.type, 'other');
      assert.ok(c.type === 'other');
      assert.match(c.reason, reason);
    });
  }

  test('itemPath and classifyPath agree', () => {
    assert.equal(itemPath('decision', 'use-valkey'), 'decisions/use-valkey.md');
    assert.equal(itemPath('session', 'abc', '2026-11-20T10:00:00Z'), 'sessions/2026-11/abc.md');
    const c = classifyPath(itemPath('session', 'abc', '2026-11-20T10:00:00Z'));
    assert.ok(c.type === 'item' && c.spec.kind === 'session' && c.slug === 'abc');
    assert.throws(() => itemPath('decision', '../x'), /invalid slug/);
  });
});

// ---------------------------------------------------------------------------------------------
// store/revision.ts parseDateSpec

describe('parseDateSpec', () => {
  const now = new Date('2026-06-15T12:00:00.000Z');
  const cases: Array<[string, string | null]> = [
    ['2026-01-31', '2026-01-31T23:59:59.999Z'],
    ['2026-01-31T10:00', '2026-01-31T10:00:00.000Z'],
    ['2026-01-31 10:00', '2026-01-31T10:00:00.000Z'],
    ['2026-01-31T10:00:30', '2026-01-31T10:00:30.000Z'],
    ['2026-01-31T10:00:00Z', '2026-01-31T10:00:00.000Z'],
    ['2026-01-31t10:00:00z', '2026-01-31T10:00:00.000Z'],
    ['2026-01-31T10:00:00+02:00', '2026-01-31T08:00:00.000Z'],
    ['2026-01-31T10:00:00-05:00', '2026-01-31T15:00:00.000Z'],
    ['2026-01-31 10:00:00+02:00', '2026-01-31T08:00:00.000Z'],
    ['2026-01-31T10:00:00.250Z', '2026-01-31T10:00:00.250Z'],
    ['3 days ago', '2026-06-12T12:00:00.000Z'],
    ['1 day ago', '2026-06-14T12:00:00.000Z'],
    ['  3 DAYS AGO  ', '2026-06-12T12:00:00.000Z'],
    ['2 hours ago', '2026-06-15T10:00:00.000Z'],
    ['1 week ago', '2026-06-08T12:00:00.000Z'],
    ['90 seconds ago', '2026-06-15T11:58:30.000Z'],
    ['yesterday', '2026-06-14T12:00:00.000Z'],
    ['now', '2026-06-15T12:00:00.000Z'],
    ['foo', null],
    ['', null],
    ['2026-13-45', null],
    ['2026-01-31T25:00', null],
    ['3 days', null],
    ['days ago', null],
    ['-3 days ago', null],
    ['2026/01/31', null],
    ['HEAD~3', null],
    ['abc1234', null],
    ['20260131', null],
  ];
  for (const [spec, expected] of cases) {
    test(`${JSON.stringify(spec)} -> ${expected}`, () => {
      const d = parseDateSpec(spec, now);
      assert.equal(d === null ? null : d.toISOString(), expected);
    });
  }

  test('relative specs follow the given clock', () => {
    const other = new Date('2020-01-01T00:00:00.000Z');
    assert.equal(parseDateSpec('3 days ago', other)?.toISOString(), '2019-12-29T00:00:00.000Z');
    assert.equal(parseDateSpec('now', other)?.getTime(), other.getTime());
  });
});

describe('edge cases: a __proto__ field, impossible dates, a password-only URL, empty optional fields', () => {
  test('an unknown field named __proto__ survives a round trip as data', () => {
    const text = [
      '---',
      'id: D-001',
      'title: T',
      'status: active',
      'enforce: advisory',
      'created: 2026-01-01T00:00:00.000Z',
      'updated: 2026-01-01T00:00:00.000Z',
      '__proto__:',
      '  polluted: 1',
      'owner: alice',
      '---',
      '',
      'x',
      '',
    ].join('\n');
    const r = decodeItem(decisionSpec, 'd', text);
    assert.ok(r.ok);
    if (!r.ok) return;
    assert.deepEqual(Object.keys(r.item.extra).sort(), ['__proto__', 'owner']);
    assert.equal(Object.getPrototypeOf(r.item.extra), Object.prototype, 'the prototype is not replaced');
    const again = encodeItem(decisionSpec, r.item);
    assert.match(again, /^__proto__:\n {2}polluted: 1$/m);
    assert.equal(encodeItem(decisionSpec, Decision.parse({ ...r.item })), again, 'a zod re-parse keeps it too');
  });

  for (const bad of ['2026-02-30', '2026-04-31', '2026-02-30T10:00', '2025-02-29']) {
    test(`parseDateSpec refuses the impossible date ${bad}`, () => {
      assert.equal(parseDateSpec(bad, new Date('2026-06-01T00:00:00Z')), null);
    });
  }

  test('Timestamp refuses impossible dates and accepts leap days', () => {
    assert.equal(Timestamp.safeParse('2026-02-31T10:00:00Z').success, false);
    assert.equal(Timestamp.safeParse('2024-02-29T10:00:00Z').success, true);
  });

  test('a URL with a password and no user name is a credential', () => {
    assert.equal(findSecret('f', 'REDIS_URL=redis://:s3cretpw@cache:6379')?.pattern, 'url-credentials');
  });

  test('empty optional text fields are not written', () => {
    const h = Handoff.parse({ slug: 's1', created: '2026-01-01T00:00:00.000Z', updated: '2026-01-01T00:00:00.000Z', summary: 'done' });
    assert.doesNotMatch(encodeItem(handoffSpec, h), /startup_text|stopped_at/);
  });
});
