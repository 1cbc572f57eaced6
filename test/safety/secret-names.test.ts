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
      assert.match(shell.rule ?? '', /^(secrets\.paths|filesystem\.deniedPaths): /);
      const tool = await evaluate({ tool: 'Read', input: { file_path: `${ROOT}/deploy/${name}` } }, policy, safetyContext());
      assert.equal(tool.decision, 'deny', tool.reason);
    });
  }
  for (const name of SECRET) {
    // the default filesystem.deniedPaths (`.env`, `*.pem`, `*.key`) deny every access but a mode change, whatever the name rule allows
    const listed = /^\.env$|\.pem$|\.key$/.test(name);
    test(`${name}: touch, >> and rm ${listed ? 'are denied (filesystem.deniedPaths)' : 'pass'}; sed -i and Edit are denied`, async () => {
      for (const command of [`touch deploy/${name}`, `echo x >> deploy/${name}`, `rm -f deploy/${name}`]) {
        const v = await evaluateCommand(command, policy, safetyContext());
        assert.equal(v.decision, listed ? 'deny' : 'allow', `${command}: ${v.reason}`);
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
