import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { axme, axmeOk, tempRepo } from '../helpers.ts';

const LOOSE = 'git:\n  allowForcePush: true\n  protectedBranches: []\nfamilies:\n  publish: "off"\nbash:\n  deniedPrefixes: []\n';

/** A folder holding an AXME Code safety/rules.yaml `rules`. */
function axmeCodeFolder(dir: string, name: string, rules: string): string {
  const src = join(dir, name);
  mkdirSync(join(src, 'safety'), { recursive: true });
  writeFileSync(join(src, 'safety', 'rules.yaml'), rules);
  return src;
}

test("a person's import of AXME Code rules that loosen the store's is applied and says what loosened (stderr, --json loosened); a dry run says it too", async () => {
  const { dir, cleanup } = tempRepo({ commit: true });
  try {
    await axmeOk(dir, ['init']);
    const src = axmeCodeFolder(dir, '.axme-code', LOOSE);
    const dry = await axme(dir, ['import', 'axme-code', src, '--dry-run', '--json']);
    assert.equal(dry.code, 0, dry.stderr);
    assert.ok(
      JSON.parse(dry.stdout).loosened.some((l: string) => /allowForcePush/.test(l)),
      dry.stdout,
    );
    const r = await axme(dir, ['import', 'axme-code', src]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /loosen/);
    assert.match(r.stderr, /git\.allowForcePush: true \(here false\)/);
    assert.match(r.stderr, /families\.publish/);
    assert.match(r.stdout, /safety rules: replaced the store's rules.*loosen/);
    const again = await axme(dir, ['import', 'axme-code', src, '--json']);
    assert.deepEqual(JSON.parse(again.stdout).loosened, [], 'the same rules again: nothing loosens');
    assert.doesNotMatch(again.stderr, /loosen/);
  } finally {
    cleanup();
  }
});

test('an import whose rules only tighten says nothing of loosening', async () => {
  const { dir, cleanup } = tempRepo({ commit: true });
  try {
    await axmeOk(dir, ['init']);
    const src = axmeCodeFolder(dir, 'strict', 'bash:\n  deniedCommands: [shutdown, reboot, halt, poweroff, mkfs, "dd if=", "make deploy"]\n');
    const r = await axme(dir, ['import', 'axme-code', src, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.rules, 'new');
    assert.deepEqual(out.loosened, []);
    assert.doesNotMatch(r.stderr, /loosen/);
  } finally {
    cleanup();
  }
});
