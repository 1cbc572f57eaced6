import type { Argv } from 'yargs';
import { GIT_HOOK_NAMES, HOOK_EVENT_NAMES } from '../../model/hook-names.ts';
import { relative } from 'node:path';
import { AxmeError } from '../../model/errors.ts';
import { clockFrom, out, printJson, readStdin, SilentExit, type CliIO, type CliArgs } from '../io.ts';

declare const AXME_VERSION: string | undefined;

/** doctor and hook: how axme is wired into the agent harness. */
export function setupCommands(io: CliIO) {
  return [
    {
      command: 'doctor',
      describe: 'check what is installed for agents (store, rules, Claude Code hooks run for real, MCP server, CLAUDE.md) and what is missing',
      builder: (y: Argv) => y,
      handler: async (a: CliArgs) => {
        // each command loads its modules when it runs: the others' cost stays out of every start
        const { doctor } = await import('../../setup/doctor.ts');
        const r = await doctor({ cwd: a.C ?? io.cwd, env: io.env });
        if (a.json) printJson(io, r);
        else {
          for (const c of r.checks) out(io, `${c.status.padEnd(7)}  ${c.name.padEnd(18)}  ${c.detail}${c.fix ? `\n${' '.repeat(29)}fix: ${c.fix}` : ''}`);
        }
        if (!r.ok) throw new SilentExit(1);
      },
    },
    {
      command: 'git-hook <name> [args..]',
      describe: `answer a git hook (installed by axme init): ${GIT_HOOK_NAMES.join(', ')}`,
      builder: (y: Argv) => y.positional('name', { type: 'string', choices: GIT_HOOK_NAMES }).positional('args', { type: 'string', array: true }).strict(false),
      handler: async (a: CliArgs) => {
        const name = a.name as string;
        // only pre-push and post-rewrite get data on stdin; the others may inherit a terminal
        const stdin = name === 'pre-push' || name === 'post-rewrite' ? await readStdin(io, 16 * 1024 * 1024) : '';
        const { runGitHook } = await import('../../hooks/git/run.ts');
        const code = await runGitHook(name, {
          args: ((a.args as unknown[] | undefined) ?? []).map(String),
          stdin,
          cwd: a.C ?? io.cwd,
          env: io.env,
          stdout: (t) => void io.stdout.write(t),
          stderr: (t) => void io.stderr.write(t),
          now: clockFrom(io.env),
          version: typeof AXME_VERSION === 'string' ? AXME_VERSION : 'dev',
          loadStoreWork: () => import('../../hooks/store-work.ts'),
        });
        if (code) throw new SilentExit(code);
      },
    },
    {
      command: 'uninstall',
      describe: 'remove the git hooks axme init installed (chained hooks are restored); --agent <list>: instead remove the axme MCP server of those clients',
      builder: (y: Argv) =>
        y
          .option('agent', { type: 'string', describe: 'remove the axme MCP server entry of these clients (comma-separated: claude-code, cursor, vscode, gemini, codex, all) and nothing else; the git hooks stay' })
          .option('dry-run', { type: 'boolean', describe: 'with --agent: print each file and the change, writing nothing' }),
      handler: async (a: CliArgs) => {
        const cwd = a.C ?? io.cwd;
        if (a.agent !== undefined) return uninstallClients(io, a, cwd);
        if (a.dryRun) throw new AxmeError('INVALID_INPUT', '--dry-run goes with --agent <list> (the git hooks have no dry run)');
        const { agentFilesRoot } = await import('../../setup/agent-files.ts');
        const { uninstallGitHooks } = await import('../../setup/git-hooks.ts');
        const root = agentFilesRoot(cwd, io.env) ?? cwd;
        const changes = await uninstallGitHooks({ cwd, env: io.env }, root);
        if (a.json) return printJson(io, { gitHooks: changes });
        for (const c of changes) out(io, `${c.action === 'restored' ? 'Restored' : 'Removed'} ${c.hook} (${c.path})`);
        if (!changes.length) out(io, 'No axme git hooks installed');
      },
    },
    {
      command: 'hook <event>',
      describe: `answer a Claude Code hook (JSON on stdin): ${HOOK_EVENT_NAMES.join(', ')}`,
      builder: (y: Argv) => y.positional('event', { type: 'string', choices: HOOK_EVENT_NAMES }),
      handler: async (a: CliArgs) => {
        // normally answered by the launcher's fast path; this is the same handler for other entries
        const { processHookIO } = await import('../../hooks/io.ts');
        const { runHook } = await import('../../hooks/run.ts');
        const hookIO = processHookIO({
          stdin: await readStdin(io, 16 * 1024 * 1024),
          stdout: (t) => void io.stdout.write(t),
          stderr: (t) => void io.stderr.write(t),
          env: io.env,
          cwd: a.C ?? io.cwd,
          loadStoreWork: () => import('../../hooks/store-work.ts'),
        });
        const code = await runHook(a.event as string, hookIO);
        if (code) throw new SilentExit(code);
      },
    },
  ];
}

/** `axme uninstall --agent <list>` (setup/clients): each client's file without the axme entry. */
async function uninstallClients(io: CliIO, a: CliArgs, cwd: string): Promise<void> {
  if (typeof a.agent !== 'string') throw new AxmeError('INVALID_INPUT', '--agent needs one comma-separated list of clients (give it once)');
  const { agentFilesRoot } = await import('../../setup/agent-files.ts');
  const { applyClients, describeClients, parseAgents, planClientRemoval } = await import('../../setup/clients/index.ts');
  const selection = parseAgents(a.agent);
  const root = agentFilesRoot(cwd, io.env);
  if (!root) throw new AxmeError('NOT_A_REPO', `${cwd} is not in the working tree of a git repository: no client files to change`);
  const plan = planClientRemoval(root, selection);
  const changes = a.dryRun ? describeClients(plan) : applyClients(plan);
  if (a.json) return printJson(io, { dryRun: a.dryRun === true, clients: changes });
  const verb = a.dryRun ? 'Would remove the axme server from' : 'Removed the axme server from';
  for (const c of changes) {
    if (c.action === 'unchanged') out(io, `${c.client}: ${relative(root, c.path)} has no axme server`);
    else out(io, `${c.client}: ${c.action === 'removed' ? (a.dryRun ? 'Would remove' : 'Removed') : verb} ${relative(root, c.path)}`);
  }
  if (!changes.length) out(io, 'No client files to change');
}
