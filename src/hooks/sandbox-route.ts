import { existsSync } from 'node:fs';
import { sep } from 'node:path';
import type { RepoLocation } from '../knowledge/core/location.ts';
import { dropGrants, writeConfigGrant } from '../sandbox/config-grants.ts';
import { requiredButOff } from '../sandbox/state.ts';
import { CLAUDE_SHELL_PREFIX } from '../setup/clients/claude-code.hook.ts';
import {
  openSandbox,
  type Sandbox,
  sandboxGrantsDir,
  sandboxShellDir,
  sandboxShellInstalled,
  sandboxShellPath,
  sandboxShellText,
  writeSandboxShell,
} from '../setup/sandbox.ts';
import type { HookIO } from './io.ts';

/**
 * A shell call the guard let through, on its way into the kernel sandbox (docs/safety.md): the
 * sandbox for it, a deny when the sandbox is required but cannot start, and Claude Code's prefix
 * script rewritten for the policy as it is now, with a grant for each of `commands` whose writes of
 * git's settings axme records (setup/sandbox-git-config.ts). Imported statically: every shell call needs it,
 * and a lazily loaded chunk cost each one more than it saved the others (measured: +13–28 ms).
 */
export async function routeIntoSandbox(
  io: HookIO,
  at: { loc: RepoLocation | null; cwd: string; protectedPaths: readonly string[]; commands?: readonly string[] },
): Promise<{ sandbox: Sandbox; deny: string | null }> {
  const sandbox = await openSandbox({ loc: at.loc, cwd: at.cwd, home: io.home, env: io.env, protectedPaths: at.protectedPaths, parseYaml: hookYaml(io) });
  const deny = !sandbox.state.on && sandbox.state.required ? requiredButOff(sandbox.state) : null;
  if (at.loc && io.protocol.sandbox === 'shell-prefix' && keepSandboxShell(io, sandbox, at.loc, at.cwd))
    grantConfigWrites(io, sandbox, at.loc, at.cwd, deny ? [] : (at.commands ?? []));
  if (!deny && sandbox.settings.network === 'allowlist') {
    // no proxy, no network: the command runs, and reaches nothing (fails closed)
    const problem = await sandbox.ensureNetwork(io.installDir);
    if (problem) io.stderr(`axme: ${problem}; commands in the sandbox reach no network\n`);
  }
  return { sandbox, deny };
}

/**
 * This tree's prefix script, when installed. Claude Code hands its settings' `env` to the hooks it
 * runs, so the script's path is there: naming it by hashing the tree's path would load node:crypto
 * (10–30 ms) on every Bash call. Taken from there only when it is one of this clone's scripts.
 */
function installedShell(io: HookIO, loc: RepoLocation): string | null {
  const named = io.env[CLAUDE_SHELL_PREFIX];
  const dir = sandboxShellDir(loc);
  if (named && named.startsWith(`${dir}${sep}shell-`) && named.endsWith('.sh') && !named.slice(dir.length + 1).includes(sep) && existsSync(named)) return named;
  return sandboxShellInstalled(loc) ? sandboxShellPath(loc) : null;
}

/** The hook's YAML reader: the heavy half's, loaded only when a settings file is there to read. */
export const hookYaml = (io: HookIO) => async (text: string) => (await io.loadStoreWork()).parseYaml(text);

/**
 * Claude Code's prefix script (setup/sandbox.ts), where `axme init` installed it, rewritten for the
 * policy as it is now: the Bash call about to run goes through it. A script that cannot be written
 * keeps its last policy (said on stderr); one that is not installed is left alone.
 */
function keepSandboxShell(io: HookIO, sandbox: Sandbox, loc: RepoLocation, cwd: string): boolean {
  const script = installedShell(io, loc);
  if (!script) return false;
  try {
    const on = sandbox.state.on ? sandbox.state.bwrap : null;
    writeSandboxShell(script, sandboxShellText(on, on ? sandbox.policy(cwd) : null, sandboxGrantsDir(loc)));
    return true;
  } catch (err) {
    io.stderr(`axme: could not update the sandbox's shell script (${(err as Error).message}); it keeps its last policy\n`);
    return false;
  }
}

/**
 * The grants the prefix script uses for the commands' writes of git's settings (sandbox/config-grants.ts),
 * those an earlier call left unused removed first; one that cannot be written leaves the command in
 * the sandbox (said on stderr).
 */
function grantConfigWrites(io: HookIO, sandbox: Sandbox, loc: RepoLocation, cwd: string, commands: readonly string[]): void {
  dropGrants(sandboxGrantsDir(loc));
  // a grant is one line: the prefix script reads it with `read`
  for (const command of commands.filter((c) => !/[\n\r]/.test(c))) {
    const grant = sandbox.configGrant(command, cwd);
    if (!grant) continue;
    try {
      writeConfigGrant(sandboxGrantsDir(loc), { command, kind: grant.kind, script: grant.script });
    } catch (err) {
      io.stderr(`axme: could not leave the sandbox the grant for this command's git settings (${(err as Error).message})\n`);
    }
  }
}
