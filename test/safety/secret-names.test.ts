/**
 * A file that holds secrets by its name is one list for both guards: the kernel sandbox hides it
 * in the tree (sandbox/policy.ts treeSecrets, over a real folder) and the parser denies reading it
 * through the shell and the file tools (safety/path-rules.ts), wherever it lies in the project —
 * reading only: making, writing or removing one reads nothing (docs/safety.md, "Secret file
 * names"). Each name below is what docs/safety.md promises, one way or the other: an example, a
 * template or a public key is no secret.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { evaluate, evaluateCommand } from '../../src/safety/evaluate.ts';
import { defaultPolicy } from '../../src/safety/policy.ts';
import { treeSecrets } from '../../src/sandbox/policy.ts';
import { ROOT, safetyContext } from './context.ts';

const SECRET = [
  '.env',
  '.env.local',
  '.env.production',
  'server.pem',
  'tls.key',
  'client.p12',
  'client.pfx',
  'id_rsa',
  'id_rsa.old',
  'id_dsa',
  'id_ecdsa',
  'id_ecdsa_sk',
  'id_ed25519',
  'id_ed25519_sk',
  '.npmrc.secret',
  '.git-credentials',
  '.netrc',
];
const NOT_SECRET = [
  '.env.example',
  '.env.sample',
  '.env.template',
  '.env.dist',
  'id_rsa.pub',
  'id_ed25519.pub',
  'id_ed25519_sk.pub',
  'id_ecdsa-cert.pub',
  'env.ts',
  'keys.ts',
  'monkey',
  'pem.txt',
  'README.md',
];

const policy = defaultPolicy();
const tree = realpathSync(mkdtempSync(join(tmpdir(), 'axme-secret-names-')));
after(() => rmSync(tree, { recursive: true, force: true }));

describe('the secret file names: the sandbox and the parser agree', () => {
  test('the sandbox hides exactly the secret names in a real tree', () => {
    mkdirSync(join(tree, 'deploy'));
    for (const name of [...SECRET, ...NOT_SECRET]) writeFileSync(join(tree, 'deploy', name), 'x');
    const hidden = treeSecrets(tree).map((p) => basename(p));
    assert.deepEqual(hidden.sort(), [...SECRET].sort());
  });

  for (const name of SECRET) {
    test(`${name}: cat and Read are denied`, async () => {
      const shell = await evaluateCommand(`cat deploy/${name}`, policy, safetyContext());
      assert.equal(shell.decision, 'deny', shell.reason);
      assert.match(shell.rule ?? '', /^secrets\.paths: /, 'no default filesystem.deniedPaths entry names a file in the project');
      const tool = await evaluate({ tool: 'Read', input: { file_path: `${ROOT}/deploy/${name}` } }, policy, safetyContext());
      assert.equal(tool.decision, 'deny', tool.reason);
    });
  }
  for (const name of SECRET) {
    // no secret name is in the default filesystem.deniedPaths (which deny writing too): `.env`, `*.pem`, `*.key` left it
    test(`${name}: touch, >> and rm pass (nothing read); sed -i and Edit are denied`, async () => {
      for (const command of [`touch deploy/${name}`, `echo x >> deploy/${name}`, `rm -f deploy/${name}`]) {
        const v = await evaluateCommand(command, policy, safetyContext());
        assert.equal(v.decision, 'allow', `${command}: ${v.reason}`);
      }
      const sed = await evaluateCommand(`sed -i s/a/b/ deploy/${name}`, policy, safetyContext());
      assert.equal(sed.decision, 'deny', sed.reason);
      const edit = await evaluate({ tool: 'Edit', input: { file_path: `${ROOT}/deploy/${name}`, old_string: 'a', new_string: 'b' } }, policy, safetyContext());
      assert.equal(edit.decision, 'deny', edit.reason);
    });
  }
  for (const name of NOT_SECRET) {
    test(`${name}: cat and Read pass`, async () => {
      const shell = await evaluateCommand(`cat deploy/${name}`, policy, safetyContext());
      assert.equal(shell.decision, 'allow', shell.reason);
      const tool = await evaluate({ tool: 'Read', input: { file_path: `${ROOT}/deploy/${name}` } }, policy, safetyContext());
      assert.equal(tool.decision, 'allow', tool.reason);
    });
  }
});

describe("an agent's first day with the default rules: a secret file is made, written, removed and listed, never read", () => {
  // [what the agent does, what it gets]; a denied row names the rule it meets
  const SHELL: Array<[string, 'allow' | `deny ${string}`]> = [
    ['cp .env.example .env', 'allow'],
    ['touch .env', 'allow'],
    ['echo PORT=3000 >> .env', 'allow'],
    ['echo x > sub/.env', 'allow'],
    ['rm server.pem', 'allow'],
    ['git rm .env', 'allow'],
    ['cp "$SRC" .env', 'allow'],
    ['cat .env', 'deny secrets.paths: .env'],
    ['source .env', 'deny secrets.paths: .env'],
    ['git add .env', 'deny secrets.paths: .env'],
    ['cp .env "$DST"', 'deny secrets.paths: .env'],
    ['mv .env notes.txt', 'deny secrets.paths: .env'],
    ['cat certs/server.pem', 'deny secrets.paths: *.pem'],
    ['cat tls.key', 'deny secrets.paths: *.key'],
  ];
  for (const [command, expected] of SHELL)
    test(`${command}: ${expected}`, async () => {
      const v = await evaluateCommand(command, policy, safetyContext());
      assert.equal(v.decision === 'allow' ? 'allow' : `${v.decision} ${v.rule}`, expected, v.reason);
    });

  const TOOLS: Array<[string, Record<string, unknown>, 'allow' | `deny ${string}`]> = [
    ['Write', { file_path: '.env', content: 'PORT=3000' }, 'allow'],
    ['Write', { file_path: `${ROOT}/certs/server.pem`, content: 'x' }, 'allow'],
    ['Glob', { pattern: '**/*.pem' }, 'allow'],
    ['Glob', { pattern: '.env*' }, 'allow'],
    ['Glob', { pattern: '**/*.key' }, 'allow'],
    ['Read', { file_path: '.env' }, 'deny secrets.paths: .env'],
    ['Read', { file_path: `${ROOT}/certs/server.pem` }, 'deny secrets.paths: *.pem'],
    ['Edit', { file_path: '.env', old_string: 'a', new_string: 'b' }, 'deny secrets.paths: .env'],
    ['Grep', { pattern: 'TOKEN', glob: '*.key' }, 'deny secrets.paths: *.key'],
    ['Grep', { pattern: 'TOKEN', path: '.env' }, 'deny secrets.paths: .env'],
  ];
  for (const [tool, input, expected] of TOOLS)
    test(`${tool} ${JSON.stringify(input)}: ${expected}`, async () => {
      const v = await evaluate({ tool, input }, policy, safetyContext());
      assert.equal(v.decision === 'allow' ? 'allow' : `${v.decision} ${v.rule}`, expected, v.reason);
    });

  // openssl writes the key it makes (-keyout, -out): path-uses-keys.ts
  test('openssl req … -keyout key.pem -out cert.pem makes a key and a certificate: allow', async () => {
    const v = await evaluateCommand('openssl req -x509 -newkey rsa:2048 -nodes -keyout key.pem -out cert.pem -subj /CN=localhost', policy, safetyContext());
    assert.equal(v.decision, 'allow', v.reason);
  });
});
