import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { locateRepo } from '../knowledge/core/location.ts';
import { PENDING_NOTE } from '../knowledge/history/git-hook-files.ts';
import { childProcess, crypto } from '../model/builtins.ts';
import { SANDBOX_SHELL, SOCAT_INSTALL } from '../model/sandbox.ts';
import { shellQuote } from '../model/shell-quote.ts';
import { bwrapRun, findSocat, sandboxedCommandLine, sandboxInner } from '../sandbox/bwrap.ts';
import { AFTER_GRANT, grantLines } from '../sandbox/config-grants.ts';
import { deniedLogPath, ensureNetworkProxy, proxySocketPath } from '../sandbox/net-daemon.ts';
import { type SandboxPolicy, sandboxPolicy } from '../sandbox/policy.ts';
import { readSandboxSettings, type SandboxSettings, type YamlParser } from '../sandbox/settings.ts';
import { type SandboxState, sandboxState } from '../sandbox/state.ts';
import { sessionsDir } from '../session/sessions.ts';
import type { RepoLocation } from '../store/locate.ts';
import { gitDirIsTrees } from '../store/tree-git-dir.ts';
import { CLAUDE_LOCAL_SETTINGS } from './clients/claude-code.hook.ts';
import { claudeCode } from './clients/claude-code.ts';
import type { ConfigGrant } from './git-config-grant.ts';
import { excludeFromGit } from './git-exclude.ts';
import { hookCommand, mcpServerEntry } from './launch.ts';
import { guardedPaths } from './paths.ts';
import { repoFacts } from './repo-facts.ts';
import { gitConfigGrant } from './sandbox-git-config.ts';

/**
 * The kernel sandbox for one repository (docs/safety.md, "The kernel sandbox"): its settings, whether
 * it can start here, and the policy and command line for a command run in a folder. The guard
 * decides first; what it lets through runs here.
 */
export interface Sandbox {
  settings: SandboxSettings;
  state: SandboxState;
  /** the policy for a command run in `cwd` (paths as they are now) */
  policy(cwd: string): SandboxPolicy;
  /**
   * the command line running `command` in the sandbox from `cwd` (a write of git's settings axme
   * records runs outside: configGrant); null when the sandbox is off
   */
  commandLine(command: string, cwd: string): string | null;
  /** what axme does outside the sandbox for `command`'s writes of git's settings (setup/sandbox-git-config.ts); null: nothing, or the sandbox is off */
  configGrant(command: string, cwd: string): ConfigGrant | null;
  /**
   * With network `allowlist`: makes sure the proxy outside answers (starting it from `installDir`);
   * null when it does or nothing needs it, else why not (commands then reach no network).
   */
  ensureNetwork(installDir: string | null): Promise<string | null>;
}

export interface SandboxInput {
  loc: RepoLocation | null;
  cwd: string;
  home: string;
  env: NodeJS.ProcessEnv;
  /** the folder axme runs from (guarded) */
  installDir?: string | null;
  /** more guarded paths (a workspace store) */
  guarded?: readonly string[];
  /** reads the settings files (sandbox/settings.ts): `parseYamlText`, or the hook's loader */
  parseYaml: YamlParser;
  /** every guarded path, when the caller has them already (the hook's guard computed them): used instead of guardedPaths + `guarded` */
  protectedPaths?: readonly string[];
}

export async function openSandbox(input: SandboxInput): Promise<Sandbox> {
  const settings = await readSandboxSettings(input.loc?.commonDir ?? null, input.env, input.parseYaml);
  const state = sandboxState(settings, input.env, input.loc?.commonDir ?? null);
  const guarded = input.protectedPaths ?? [
    ...guardedPaths(input.loc, input.home, { installDir: input.installDir ?? null, env: input.env }),
    ...(input.guarded ?? []),
  ];
  // an agent's commit runs axme's git hooks in the sandbox: they record the commit in its session and leave its note
  const writableAgain = input.loc ? [sessionsDir(input.loc.commonDir), dirname(join(input.loc.gitDir, PENDING_NOTE))] : [];
  const allowlist = settings.network === 'allowlist' && input.loc !== null;
  const proxySocket = allowlist ? proxySocketPath(input.loc!.commonDir, settings.domains) : undefined;
  if (allowlist && state.on && !findSocat(input.env))
    settings.problems.push(`sandbox.network is allowlist but socat is not installed: commands reach no network (${SOCAT_INSTALL})`);
  const policy = (cwd: string) =>
    sandboxPolicy({
      loc: input.loc,
      cwd,
      home: input.home,
      env: input.env,
      guarded,
      network: settings.network,
      proxySocket,
      extraWritable: settings.writable,
      extraHidden: settings.hidden,
      extraSockets: settings.sockets,
      writableAgain,
    });
  // axme's own git line runs outside the sandbox only for a git dir that is the tree's (tree-git-dir.ts)
  const configGrant = (command: string, cwd: string): ConfigGrant | null =>
    state.on && input.loc && gitDirIsTrees(input.loc) ? gitConfigGrant(command, { cwd, home: input.home, facts: repoFacts(input.loc, input.env) }) : null;
  return {
    settings,
    state,
    policy,
    configGrant,
    commandLine: (command, cwd) => {
      if (!state.on) return null;
      const grant = configGrant(command, cwd);
      if (grant?.kind === 'instead') return grant.script;
      const line = sandboxedCommandLine(state.bwrap, policy(cwd), cwd, command, grant?.kind === 'after' ? grant.script : undefined);
      return grant?.kind === 'note' ? `${grant.script}; ${line}` : line;
    },
    ensureNetwork: async (installDir) =>
      proxySocket && state.on && settings.domains.length
        ? ensureNetworkProxy({ socket: proxySocket, domains: settings.domains, deniedLog: deniedLogPath(input.loc!.commonDir), installDir })
        : null,
  };
}

/**
 * Claude Code's way in (docs/safety.md): it runs every Bash command as `<prefix> '<command>'` when
 * CLAUDE_CODE_SHELL_PREFIX is set, and matches its permission rules against the command as the
 * model wrote it — a hook's `updatedInput` would have them matched against the sandbox's command
 * line instead, so every rule the user wrote would stop matching. The prefix is this script, one
 * per working tree, in the git dir's `axme/` (guarded); the pre-tool-use hook rewrites it before
 * each Bash call when the policy has changed (a new `.env`, a new guarded file).
 */
export function sandboxShellPath(loc: RepoLocation): string {
  const tree = loc.worktree ?? loc.gitDir;
  const id = crypto().createHash('sha256').update(resolve(tree)).digest('hex').slice(0, 12);
  return join(sandboxShellDir(loc), `shell-${id}.sh`);
}

/** The folder of the clone's prefix scripts (guarded: in the git dir's `axme/`). */
export const sandboxShellDir = (loc: RepoLocation): string => join(loc.commonDir, 'axme', 'sandbox');

/** The folder of the one-time grants the hook leaves the prefix script (sandbox/config-grants.ts; guarded). */
export const sandboxGrantsDir = (loc: RepoLocation): string => join(sandboxShellDir(loc), GRANTS);
const GRANTS = 'grants';

/**
 * The prefix script's text: bubblewrap with the policy, in the command's own folder, running the
 * one argument with the shell Claude Code wrote it for (zsh when that is the user's shell, else
 * bash). With the sandbox off (`bwrap` null: off by choice, or none here) it runs the command as is.
 * With `grants` (the clone's grants folder), a grant the hook left for the command is used first
 * (sandbox/config-grants.ts): axme's own git line for its writes of git's settings. The policy's
 * paths stand in it as written: a file's text is no process's argument (bwrapRun).
 */
export function sandboxShellText(bwrap: string | null, policy: SandboxPolicy | null, grants: string | null = null): string {
  const on = bwrap && policy;
  const run = on ? bwrapRun(bwrap, policy, null, sandboxInner(policy, '"$s"', '"$1"'), grants ? AFTER_GRANT : undefined, false) : 'exec "$s" -c "$1"';
  // Claude Code runs hook commands and MCP servers through the prefix too: axme's own, matched
  // whole, run outside (they write the store and the session records). A Bash command never equals
  // one: Claude Code wraps each (`eval '<command>' && pwd -P >| …`), so no command of the agent's can
  // pass as one of them.
  const axmeOwn = [...CLAUDE_HOOK_COMMANDS.map((c) => `[ "$1" = ${shellQuote(c)} ]`), `[ "$1" = ${CLAUDE_MCP_SERVER} ]`].join(' || ');
  return [
    `#!${SANDBOX_SHELL}`,
    '# Written by axme (docs/safety.md, The kernel sandbox): Claude Code runs each Bash command through it',
    `# (CLAUDE_CODE_SHELL_PREFIX). Rewritten by the pre-tool-use hook; do not edit.${bwrap ? '' : ' The sandbox is off here.'}`,
    `if ${axmeOwn}; then exec /bin/sh -c "$1"; fi`,
    `case "\${SHELL:-}" in */zsh) s=$SHELL ;; *) s=${SANDBOX_SHELL} ;; esac`,
    ...(on && grants ? [grantLines(grants)] : []),
    run,
    '',
  ].join('\n');
}

/** The commands of axme's Claude Code hooks, as `axme init` writes them into its settings. */
const CLAUDE_HOOK_COMMANDS: readonly string[] = claudeCode.hooks.events.map((e) => hookCommand(e.hook));

/**
 * axme's MCP server as Claude Code hands it to the prefix (seen in 2.1.332): `.mcp.json`'s command
 * and arguments, each `${NAME:-default}` in them expanded from its environment, joined with spaces,
 * an argument that needs it in single quotes (a quote inside as `'"'"'`). Written as a double-quoted
 * word in which each `${NAME:-default}` is `${NAME-default}`, which the prefix expands from the same
 * environment as Claude Code does: Claude Code gives a variable set but empty its value (""), the
 * default only to an unset one, where sh's `:-` would take the default (AXME_NODE='' left the server
 * in the sandbox, its writes failing with EROFS). A value Claude Code would quote otherwise (one
 * holding a quote) only leaves the server in the sandbox.
 */
const CLAUDE_MCP_SERVER = ((): string => {
  const { command, args } = mcpServerEntry();
  const line = [command, ...args].map((a) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(a) ? a : `'${a.replaceAll("'", `'"'"'`)}'`)).join(' ');
  const inDoubleQuotes = (text: string) => text.replace(/[\\$"`]/g, (c) => `\\${c}`);
  const word = line
    .split(/(\$\{[A-Za-z_][A-Za-z0-9_]*:-[^}]*\})/)
    .map((part, i) =>
      i % 2 ? part.replace(/^\$\{(\w+):-(.*)\}$/, (_, name: string, fallback: string) => `\${${name}-${inDoubleQuotes(fallback)}}`) : inDoubleQuotes(part),
    )
    .join('');
  return `"${word}"`;
})();

/**
 * Writes the prefix script when its text changed (atomically: a command starting meanwhile reads
 * the old one or the new one), beside the grants folder it reads, made with it: a grant then
 * leaves nothing behind once used. Returns whether it wrote.
 */
export function writeSandboxShell(path: string, text: string): boolean {
  try {
    if (readFileSync(path, 'utf8') === text) return false;
  } catch {
    // none yet
  }
  mkdirSync(join(dirname(path), GRANTS), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode: 0o755 });
  renameSync(tmp, path);
  return true;
}

/** Whether the prefix script of this tree is installed (Claude Code is routed through it). */
export const sandboxShellInstalled = (loc: RepoLocation): boolean => existsSync(sandboxShellPath(loc));

/**
 * `axme init` for Claude Code: the prefix script of the tree at `root` with the policy as it is
 * (or a pass-through where the sandbox is off), and the personal settings file kept out of git
 * (`.git/info/exclude`) when nothing ignores it yet — it names a path of this machine.
 */
export async function installSandboxShell(root: string, env: NodeJS.ProcessEnv, installDir: string | null, parseYaml: YamlParser): Promise<void> {
  const loc = process.platform === 'linux' ? locateRepo(root, env) : null;
  if (!loc) return;
  const sandbox = await openSandbox({ loc, cwd: root, home: env.HOME || homedir(), env, installDir, parseYaml });
  const on = sandbox.state.on ? sandbox.state.bwrap : null;
  writeSandboxShell(sandboxShellPath(loc), sandboxShellText(on, on ? sandbox.policy(root) : null, sandboxGrantsDir(loc)));
  excludeFromGit(loc, root, CLAUDE_LOCAL_SETTINGS);
}
