/**
 * The built hook answering in the test's own process: `runHook` of dist/hook.cjs, loaded as the
 * launcher loads it (dist/cli-loader.cjs `loadHook`, with its code cache), with the same payload,
 * folder and environment the binary would get. For the tests whose point is the answer over many
 * cases; the process around it (stdin, stdout, the exit code, the launcher, failing closed) keeps
 * its own tests through the binary, and a sample of each table goes through both (`sameAnswer`).
 * The hooks' slow half (the knowledge layer) is the source's (src/hooks/store-work.ts), which
 * the test process has mostly loaded already: the built one, an ES module, costs the test
 * process more to import (through tsx) than the calls it saves.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { HookClientId } from '../../src/setup/clients/hook-registry.ts';
import { axme, CLI, cleanEnv } from '../helpers.ts';

const dist = dirname(CLI);
const load = createRequire(import.meta.url);
let bundle: typeof import('../../src/cli/hook-main.ts') | undefined;
/** dist/cli-loader.cjs: how the launcher loads the hook and the query at the tip */
const loader = () => load(join(dist, 'cli-loader.cjs')) as typeof import('../../src/cli/cli-loader.ts');
// the code caches of the test machine's cache folder (a test's own HOME is removed before this process ends and writes them)
const hookCode = () => (bundle ??= loader().loadHook(dist, cleanEnv()));

/** What one hook call ends with: the exit code and what it printed. */
export interface HookRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface HookCall {
  /** the folder the hook runs in */
  cwd: string;
  /** the payload the client writes to stdin */
  input: string;
  /** added to the test environment (test/helpers.ts cleanEnv) */
  env?: NodeJS.ProcessEnv;
  /** whose protocol (`--client`); Claude Code's when unsaid */
  client?: HookClientId;
  /** this test process as the harness that owns the sessions, as a hook process it started would find (else the hook looks up its parent's) */
  harnessHere?: boolean;
}

/**
 * Loads the built hook and its slow half into this process: called in a `before`, so that the
 * first call's deadline (a wall-clock one, as the binary's) is not spent loading modules the
 * binary gets from its code cache.
 */
export async function loadBuiltHook(): Promise<void> {
  hookCode();
  await import('../../src/hooks/store-work.ts');
}

/** `axme hook <event>` answered in this process by dist/hook.cjs: what the binary would print and exit with. */
export async function hookInProcess(event: string, call: HookCall): Promise<HookRun> {
  // loaded before the hook's deadline starts (the binary's come from its code cache)
  await loadBuiltHook();
  const hook = hookCode();
  const env = cleanEnv(call.env);
  let stdout = '';
  let stderr = '';
  const io = hook.processHookIO({
    client: call.client ?? 'claude-code',
    stdin: call.input,
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    env,
    cwd: call.cwd,
    loadStoreWork: () => import('../../src/hooks/store-work.ts'),
    loadTipSearch: () => loader().loadTipSearch(dist, cleanEnv()),
    // the built axme's folder, as the binary's: its code is guarded as the running axme's
    installDir: dist,
    // the built axme runs the background work, as the binary's own script would (not this test file)
    self: { execPath: process.execPath, script: CLI },
  });
  const code = await hook.runHook(event, call.harnessHere ? { ...io, ownerPid: () => process.pid } : io, Number(env.AXME_HOOK_DEADLINE_MS) || undefined);
  return { code, stdout, stderr };
}

/** `axme hook <event> [--client <name>]` through the built binary (dist/axme.cjs), the payload on its stdin. */
export async function hookBinary(event: string, call: HookCall): Promise<HookRun> {
  const r = await axme(call.cwd, ['hook', event, ...(call.client ? ['--client', call.client] : [])], { input: call.input, env: call.env });
  return { code: r.code, stdout: r.stdout, stderr: r.stderr };
}

/**
 * The built binary's answer to Claude Code's PreToolUse call of a Bash `command` in `cwd`: the deny
 * reason, or null where it lets the call go ahead (an answer other than a deny fails the test).
 */
export async function bashDenial(cwd: string, command: string, env: NodeJS.ProcessEnv): Promise<string | null> {
  const input = JSON.stringify({
    session_id: 'a1b2c3d4-e5f6-4789-9abc-def012345678',
    transcript_path: join(cwd, '.claude-transcript.jsonl'),
    cwd,
    hook_event_name: 'PreToolUse',
    permission_mode: 'default',
    tool_name: 'Bash',
    tool_input: { command },
    tool_use_id: 'toolu_01XYZ',
  });
  const r = await hookBinary('pre-tool-use', { cwd, input, env });
  assert.equal(r.code, 0, r.stderr);
  if (!r.stdout.trim()) return null;
  const out = JSON.parse(r.stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
  assert.equal(out.hookSpecificOutput.permissionDecision, 'deny', r.stdout);
  return out.hookSpecificOutput.permissionDecisionReason;
}

/** Asserts that the binary and the in-process hook gave the same answer to the same call. */
export function sameAnswer(binary: HookRun, inProcess: HookRun, what: string): void {
  assert.deepEqual(inProcess, binary, `${what}: runHook of dist/hook.cjs in this process answers as the binary does`);
}
