import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ADAPTERS } from '../../src/setup/clients/adapters.ts';
import { HOOK_CLIENT_NAMES, HOOK_PARTS, isHookClient } from '../../src/setup/clients/hook-registry.ts';
import { guardedPaths } from '../../src/setup/paths.ts';
import { CLI, cleanEnv } from '../helpers.ts';
import { makeStore } from '../store-fixture.ts';

/**
 * The clients' registry: one adapter per client (ADAPTERS), whose hook parts the hook process
 * reads without the rest (HOOK_PARTS). Every file an adapter writes to connect its client — its
 * hook file, its MCP file — is a guarded path: no agent may write it, so none can switch axme off.
 */

const ROOT = '/work/app';
const HOME = '/home/dev';
const loc = { gitDir: `${ROOT}/.git`, commonDir: `${ROOT}/.git`, worktree: ROOT };

describe("the adapters' registry", () => {
  test("each adapter is its hook part and the rest, in the hook parts' order", () => {
    assert.deepEqual(
      ADAPTERS.map((a) => a.id),
      HOOK_PARTS.map((p) => p.id),
    );
    ADAPTERS.forEach((a, i) => {
      const part = HOOK_PARTS[i]!;
      assert.equal(a.label, part.label, a.id);
      assert.deepEqual(a.guarded, part.guarded, a.id);
      assert.equal(a.protocol, 'protocol' in part ? part.protocol : undefined, a.id);
    });
    assert.deepEqual(
      HOOK_CLIENT_NAMES,
      ADAPTERS.filter((a) => a.protocol)
        .map((a) => a.id)
        .sort(),
    );
    assert.ok(isHookClient('gemini') && !isHookClient('vscode') && !isHookClient('nobody'));
  });

  test("every adapter's hook file and MCP file is a guarded path, in the project and (a file of the user) in the home folder", () => {
    const guarded = guardedPaths(loc, HOME);
    for (const a of ADAPTERS) {
      for (const file of [a.hooks?.file, a.mcp?.file].filter((f): f is string => f !== undefined)) {
        assert.ok(guarded.includes(join(ROOT, file)), `${a.id}: ${file} is guarded`);
      }
      for (const platform of ['linux', 'darwin'] as const) {
        if (a.user) assert.ok(guarded.includes(a.user.path({ env: { HOME }, platform })), `${a.id}: its file of the user on ${platform} is guarded`);
      }
    }
    // the hooks that install a client's hooks for every project are guarded in the home folder too
    for (const a of ADAPTERS.filter((x) => x.hooks)) assert.ok(guarded.includes(join(HOME, a.hooks!.file)), `${a.id}: ~/${a.hooks!.file}`);
  });

  test('the generated help lists every client', () => {
    const init = spawnSync(process.execPath, [CLI, 'init', '--help'], { env: cleanEnv(), encoding: 'utf8' }).stdout.replace(/\s+/g, ' ');
    assert.match(init, new RegExp(`comma-separated: ${ADAPTERS.map((a) => (a.isDefault ? `${a.id} \\(the default\\)` : a.id)).join(', ')}, or all`));
    const hook = spawnSync(process.execPath, [CLI, 'hook', '--help'], { env: cleanEnv(), encoding: 'utf8' }).stdout.replace(/\s+/g, ' ');
    assert.match(hook, new RegExp(`choices: ${HOOK_CLIENT_NAMES.map((n) => `"${n}"`).join(', ')}`));
  });
});

describe("the guard holds every adapter's files, through the installed hook", () => {
  let dir: string;
  let cleanup: () => void;
  before(async () => {
    ({ dir, cleanup } = await makeStore({ init: { claude: true, fetchConfig: false } }));
  });
  after(() => cleanup());

  test("a Write of any adapter's hook or MCP file is denied; reading it is fine", () => {
    const call = (tool: string, file: string) =>
      spawnSync(process.execPath, [CLI, 'hook', 'pre-tool-use'], {
        cwd: dir,
        env: cleanEnv(),
        input: JSON.stringify({ cwd: dir, hook_event_name: 'PreToolUse', tool_name: tool, tool_input: { file_path: file, content: '{}' } }),
        encoding: 'utf8',
      }).stdout;
    for (const a of ADAPTERS) {
      for (const file of [a.hooks?.file, a.mcp?.file].filter((f): f is string => f !== undefined)) {
        assert.match(call('Write', join(dir, file)), /"permissionDecision":"deny"/, `${a.id}: ${file}`);
        assert.equal(call('Read', join(dir, file)), '', `${a.id}: reading ${file}`);
      }
    }
  });
});
