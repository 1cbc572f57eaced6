import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { axmeCodexHooks, codexEventLabel, codexHookHash, codexTrust } from '../../src/setup/clients/codex-trust.ts';
import { readyCheck } from '../../src/setup/doctor-clients.ts';
import { axme, axmeOk, cleanEnv, tempRepo } from '../helpers.ts';
import { HANG_BOUND_MS } from '../until.ts';

/**
 * Codex runs a project's `.codex/hooks.json` only when `$CODEX_HOME/config.toml` trusts the project
 * and each hook (by a hash of it), and skips the others without a word: `axme doctor` reads both
 * and says what is missing and how to trust. The hashes and keys are checked against the real
 * Codex (its app server's `hooks/list`) where its binary runs here.
 */

const CODEX = resolve(import.meta.dirname, '../../node_modules/.bin/codex');

/** The hooks the real Codex lists for `cwd` with `codexHome`: key, hash, trust; null when the binary does not run here. */
async function codexHooksList(
  cwd: string,
  codexHome: string,
): Promise<Array<{ key: string; eventName: string; currentHash: string; trustStatus: string }> | null> {
  if (!existsSync(CODEX)) return null;
  const child = spawn(CODEX, ['app-server'], { cwd, env: { ...cleanEnv(), CODEX_HOME: codexHome }, stdio: ['pipe', 'pipe', 'ignore'] });
  const answer = new Promise<string | null>((done) => {
    let buf = '';
    // no answer: the binary does not run here (it failed to start, or ended with its output read); a hang fails at the bound
    const timer = setTimeout(() => done(null), HANG_BOUND_MS);
    child.on('error', () => done(null));
    child.on('close', () => done(null));
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      buf += d;
      const line = buf.split('\n').find((l) => l.startsWith('{"id":2,'));
      if (line) {
        clearTimeout(timer);
        done(line);
      }
    });
  });
  for (const m of [
    { id: 1, method: 'initialize', params: { clientInfo: { name: 'axme-test', version: '1' } } },
    { method: 'initialized' },
    { id: 2, method: 'hooks/list', params: { cwds: [cwd] } },
  ])
    child.stdin.write(`${JSON.stringify(m)}\n`);
  const line = await answer;
  child.kill();
  if (!line) return null;
  return (JSON.parse(line) as { result: { data: Array<{ hooks: Array<{ key: string; eventName: string; currentHash: string; trustStatus: string }> }> } })
    .result.data[0]!.hooks;
}

describe("axme doctor reads Codex's trust of the project and of each hook", () => {
  let dir: string;
  let cleanup: () => void;
  let codexHome: string;
  const config = () => join(codexHome, 'config.toml');
  type Check = { name: string; status: string; detail: string; fix?: string };
  /**
   * The doctor's `codex hooks` line. `doctor`: the whole `axme doctor --json` through the binary
   * (the check as people see it, after the live run of the hook); else the trust probe that line
   * reports (codexTrust, in-process) made into the line by the doctor's own `readyCheck`.
   */
  const codexCheck = async ({ doctor = false } = {}): Promise<Check> => {
    if (doctor) {
      const r = await axme(dir, ['doctor', '--json'], { env: { CODEX_HOME: codexHome } });
      return (JSON.parse(r.stdout).checks as Check[]).find((c) => c.name === 'codex hooks')!;
    }
    // the live run taken as passed (the whole doctor runs above do it for real); the line made as the doctor makes it
    const live = { name: 'codex hooks', status: 'ok' as const, detail: 'the live run passed' };
    return readyCheck(live, codexTrust(dir, cleanEnv({ CODEX_HOME: codexHome }), readFileSync(join(dir, '.codex', 'hooks.json'), 'utf8')));
  };

  before(async () => {
    ({ dir, cleanup } = tempRepo({ commit: true }));
    codexHome = mkdtempSync(join(tmpdir(), 'axme-codex-home-'));
    await axmeOk(dir, ['init', '--agent', 'codex', '--no-git-hooks', '--no-scan', '--no-fetch-config']);
  });
  after(() => {
    cleanup();
    rmSync(codexHome, { recursive: true, force: true });
  });

  test("the hash and the key are Codex's: values the real Codex 0.169 reported for these hooks", () => {
    assert.equal(codexEventLabel('PreToolUse'), 'pre_tool_use');
    assert.equal(codexEventLabel('SessionEnd'), 'session_end');
    assert.equal(
      codexHookHash('PreToolUse', undefined, { command: 'echo pre', timeout: 10 }),
      'sha256:c499432cfa04cfb51dc459b3a1d73a41bad6d025a1a192a0600a72a1a6a3163c',
    );
    assert.equal(
      codexHookHash('PostToolUse', 'apply_patch|Edit', { command: 'echo post', timeout: 10 }),
      'sha256:2db8cc1798428d0a2f22d3becafc6da405493b8708bd0b16bf664a9e1014f128',
    );
    // Codex cuts SessionEnd hooks to 3 s, and hashes the cut timeout
    assert.equal(
      codexHookHash('SessionEnd', undefined, { command: 'echo end', timeout: 10 }),
      'sha256:84be7971dba2dbb128add226e0537c753853bf675df8efb85a5dcbb611374b4f',
    );
    const hooks = axmeCodexHooks(dir, readFileSync(join(dir, '.codex', 'hooks.json'), 'utf8'));
    assert.deepEqual(
      hooks.map((h) => h.key),
      ['PreToolUse', 'SessionStart', 'SessionEnd', 'UserPromptSubmit', 'PreCompact'].map(
        (e) => `${join(dir, '.codex', 'hooks.json')}:${codexEventLabel(e)}:0:0`,
      ),
    );
  });

  test('an untrusted project: doctor says Codex runs none of the hooks, and how to trust it', async () => {
    rmSync(config(), { force: true });
    const c = await codexCheck({ doctor: true });
    assert.equal(c.status, 'problem');
    assert.match(c.detail, /Codex does not trust this project .*it runs none of \.codex\/hooks\.json/);
    assert.ok(c.fix!.includes(`[projects.${JSON.stringify(dir)}] trust_level = "trusted"`), c.fix);
    assert.match(c.fix!, /\/hooks in Codex/);
    writeFileSync(config(), `[projects.${JSON.stringify(dir)}]\ntrust_level = "untrusted"\n`);
    assert.match((await codexCheck()).detail, /trust_level = "untrusted"/);
  });

  test('a trusted project whose hooks are not trusted: each one named; trusted: ok; changed or turned off: said', async () => {
    const project = `[projects.${JSON.stringify(dir)}]\ntrust_level = "trusted"\n`;
    writeFileSync(config(), project);
    const untrusted = await codexCheck();
    assert.equal(untrusted.status, 'problem');
    assert.match(
      untrusted.detail,
      /Codex skips axme's hooks it has not trusted, without a word: PreToolUse \(not trusted\), SessionStart \(not trusted\), SessionEnd \(not trusted\), UserPromptSubmit \(not trusted\), PreCompact \(not trusted\)/,
    );
    assert.match(
      untrusted.fix!,
      /run \/hooks in Codex in this project and trust axme's hooks \(PreToolUse, SessionStart, SessionEnd, UserPromptSubmit, PreCompact\)/,
    );
    const hooks = axmeCodexHooks(dir, readFileSync(join(dir, '.codex', 'hooks.json'), 'utf8'));
    const state = (hash: (h: (typeof hooks)[number]) => string, extra = '') =>
      hooks
        .map((h) => `[hooks.state.${JSON.stringify(h.key)}]\ntrusted_hash = ${JSON.stringify(hash(h))}\n${h.event === 'SessionStart' ? extra : ''}`)
        .join('\n');
    writeFileSync(config(), `${project}\n${state((h) => h.hash)}`);
    const ok = await codexCheck({ doctor: true });
    assert.equal(ok.status, 'ok', ok.detail);
    assert.match(ok.detail, /Codex trusts the project and axme's 5 hooks/);
    writeFileSync(config(), `${project}\n${state((h) => (h.event === 'PreToolUse' ? 'sha256:0000' : h.hash), 'enabled = false\n')}`);
    const changed = await codexCheck();
    assert.match(changed.detail, /: PreToolUse \(changed since it was trusted\), SessionStart \(turned off\) \(/);
    assert.match(changed.fix!, /turning them on/);
    writeFileSync(config(), '[projects\nbroken');
    const broken = await codexCheck();
    assert.equal(broken.status, 'problem');
    assert.match(broken.detail, /config\.toml is not valid TOML/);
  });

  test('the real Codex agrees: the same keys and hashes, and it trusts the hooks doctor calls trusted', async (t) => {
    writeFileSync(config(), `[projects.${JSON.stringify(dir)}]\ntrust_level = "trusted"\n`);
    const listed = await codexHooksList(dir, codexHome);
    if (!listed) return t.skip('the Codex binary does not run here');
    const ours = axmeCodexHooks(dir, readFileSync(join(dir, '.codex', 'hooks.json'), 'utf8'));
    assert.deepEqual(
      // Codex lists them in its own order of events
      listed.map((h) => ({ key: h.key, hash: h.currentHash })).sort((a, b) => a.key.localeCompare(b.key)),
      ours.map((h) => ({ key: h.key, hash: h.hash })).sort((a, b) => a.key.localeCompare(b.key)),
    );
    writeFileSync(
      config(),
      `[projects.${JSON.stringify(dir)}]\ntrust_level = "trusted"\n\n${ours.map((h) => `[hooks.state.${JSON.stringify(h.key)}]\ntrusted_hash = ${JSON.stringify(h.hash)}\n`).join('\n')}`,
    );
    assert.deepEqual(
      (await codexHooksList(dir, codexHome))!.map((h) => h.trustStatus),
      ['trusted', 'trusted', 'trusted', 'trusted', 'trusted'],
    );
    assert.equal((await codexCheck()).status, 'ok');
  });
});
