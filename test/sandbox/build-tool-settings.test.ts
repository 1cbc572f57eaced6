/**
 * A build tool's settings (model/home-credentials.ts HOME_CREDENTIALS `readBy`: Maven's settings.xml,
 * Gradle's gradle.properties, pip's pip.conf, yarn's and bun's rc files, dbt's profiles) are the
 * parser's alone: inside the sandbox, the tool that reads them on every build finds them whole,
 * while the credentials beside them still cannot be read. Real bubblewrap runs the readers over a
 * real home folder, outside the temp folder (writable in the sandbox).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { shellQuote } from '../../src/model/shell-quote.ts';
import { bwrapRun, sandboxInner } from '../../src/sandbox/bwrap.ts';
import { sandboxPolicy } from '../../src/sandbox/policy.ts';
import { sandboxWorldBase } from '../helpers.ts';

const bwrapWorks = spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--', '/bin/true']).status === 0;
const SETTINGS = ['.m2/settings.xml', '.gradle/gradle.properties', '.config/pip/pip.conf', '.yarnrc.yml', '.bunfig.toml', '.dbt/profiles.yml'];
const HIDDEN = ['.s3cfg', '.claude.json', '.config/rclone/rclone.conf', '.kaggle/kaggle.json', '.config/sops/age/keys.txt', '.npmrc'];

let root: string;
let home: string;
let project: string;
before(() => {
  const base = sandboxWorldBase();
  mkdirSync(base, { recursive: true });
  root = mkdtempSync(join(base, 'build-settings-'));
  home = join(root, 'home');
  project = join(home, 'proj');
  mkdirSync(project, { recursive: true });
  // each file holds its own name: what a reader in the sandbox sees says which it found
  for (const f of [...SETTINGS, ...HIDDEN]) {
    mkdirSync(dirname(join(home, f)), { recursive: true });
    writeFileSync(join(home, f), `held:${f}\n`);
  }
});
after(() => rmSync(root, { recursive: true, force: true }));

test("the sandbox hides the home's credentials but leaves the build tools' settings", () => {
  const policy = sandboxPolicy({ loc: null, cwd: project, home, env: {}, guarded: [] });
  const hidden = [...policy.hiddenFiles, ...policy.hiddenDirs];
  for (const f of SETTINGS) assert.ok(!hidden.includes(join(home, f)), `${f} stays readable`);
  for (const f of HIDDEN) assert.ok(hidden.includes(join(home, f)), `${f} is hidden`);
});

test('in bubblewrap, the settings read whole and the credentials not at all (empty, or refused)', {
  skip: !bwrapWorks && 'bubblewrap cannot start a sandbox here',
}, () => {
  const policy = sandboxPolicy({ loc: null, cwd: project, home, env: {}, guarded: [] });
  const files = [...SETTINGS, ...HIDDEN].map((f) => shellQuote(join(home, f))).join(' ');
  const line = bwrapRun('bwrap', policy, project, sandboxInner(policy, '/bin/bash', shellQuote(`cat ${files}`)));
  const r = spawnSync('/bin/bash', ['-c', line], { cwd: project, encoding: 'utf8', env: { ...process.env, HOME: home } });
  assert.notEqual(r.status, null, r.stderr);
  for (const f of SETTINGS) assert.match(r.stdout, new RegExp(`held:${f.replaceAll('.', '\\.')}`), `${f} is read in the sandbox`);
  for (const f of HIDDEN) assert.doesNotMatch(r.stdout, new RegExp(`held:${f.replaceAll('.', '\\.')}`), `${f} reads as empty`);
});
