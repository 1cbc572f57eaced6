import { isAbsolute, relative } from 'node:path';
import type { Argv } from 'yargs';
import { AxmeError } from '../../model/errors.ts';
import { GIT_HOOK_NAMES, HOOK_EVENT_NAMES } from '../../model/hook-names.ts';
import { CLIENT_IDS, HOOK_CLIENT_NAMES, type HookClientId } from '../../setup/clients/hook-registry.ts';
import { type CliArgs, type CliIO, clockFrom, out, printJson, readStdin, SilentExit } from '../io.ts';

declare const AXME_VERSION: string | undefined;

/** doctor and hook: how axme is wired into the agent harness. */
export function setupCommands(io: CliIO) {
  return [
    {
      command: 'doctor',
      describe:
        "check what is installed for agents (store, rules, every client's hooks run for real, every client's MCP entry, a team server probed, CLAUDE.md) and what is missing: a verdict first, then each problem with its fix; exit 1 when one is found",
      builder: (y: Argv) => y,
      handler: async (a: CliArgs) => {
        // each command loads its modules when it runs: the others' cost stays out of every start
        const { doctor } = await import('../../setup/doctor.ts');
        const r = await doctor({ cwd: a.C ?? io.cwd, env: io.env });
        if (a.json) printJson(io, r);
        else out(io, doctorText(r));
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
      describe: 'remove the git hooks axme init installed (chained hooks are restored); --agent <list>: instead remove what axme added to those clients',
      builder: (y: Argv) =>
        y
          .option('agent', {
            type: 'string',
            describe: `remove axme's MCP server, hooks and instructions from these clients (comma-separated: ${CLIENT_IDS.join(', ')}, all) and nothing else; the git hooks stay`,
          })
          .option('user', {
            type: 'boolean',
            describe: "with --agent windsurf or claude-desktop: remove this project's server (axme-<folder>) from the client's file of the user",
          })
          .option('dry-run', { type: 'boolean', describe: 'with --agent: print each file and the change, writing nothing' }),
      handler: async (a: CliArgs) => {
        const cwd = a.C ?? io.cwd;
        if (a.agent !== undefined) return uninstallClients(io, a, cwd);
        if (a.user)
          throw new AxmeError(
            'INVALID_INPUT',
            '--user goes with --agent windsurf or --agent claude-desktop (the clients whose MCP servers are in a file of the user)',
          );
        if (a.dryRun) throw new AxmeError('INVALID_INPUT', '--dry-run goes with --agent <list> (the git hooks have no dry run)');
        const { agentFilesRoot } = await import('../../setup/agent-files.ts');
        const { uninstallGitHooks } = await import('../../setup/git-hooks.ts');
        const root = agentFilesRoot(cwd, io.env) ?? cwd;
        const changes = await uninstallGitHooks({ cwd, env: io.env }, root);
        if (a.json) return printJson(io, { gitHooks: changes });
        for (const c of changes)
          out(io, `${c.action === 'restored' ? 'Restored' : c.action === 'updated' ? "Removed axme's lines from" : 'Removed'} ${c.hook} (${c.path})`);
        if (!changes.length) out(io, 'No axme git hooks installed');
      },
    },
    {
      command: 'hook <event>',
      describe: `answer an agent client's hook (JSON on stdin): ${HOOK_EVENT_NAMES.join(', ')}`,
      builder: (y: Argv) =>
        y.positional('event', { type: 'string', choices: HOOK_EVENT_NAMES }).option('client', {
          type: 'string',
          choices: HOOK_CLIENT_NAMES,
          default: 'claude-code',
          describe: 'whose hook protocol the payload and the answer follow',
        }),
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
          client: a.client as HookClientId,
          installDir: typeof __dirname === 'string' ? __dirname : null,
          self: io.self,
        });
        const code = await runHook(a.event as string, hookIO);
        if (code) throw new SilentExit(code);
      },
    },
  ];
}

/** The report as text: the verdict, then the problems (each fix said once), then what is fine. */
function doctorText(r: { verdict: string; checks: Array<{ name: string; status: string; detail: string; fix?: string }> }): string {
  const lines = [`axme doctor: ${r.verdict}`];
  const fixes = new Set<string>();
  const line = (c: (typeof r.checks)[number]) => `${c.status.padEnd(7)}  ${c.name.padEnd(18)}  ${c.detail}`;
  const bad = r.checks.filter((c) => c.status !== 'ok');
  for (const c of bad) {
    lines.push(line(c));
    if (c.fix) lines.push(`${' '.repeat(29)}fix: ${fixes.has(c.fix) ? 'the same as above' : c.fix}`);
    if (c.fix) fixes.add(c.fix);
  }
  if (bad.length) lines.push('');
  for (const c of r.checks) if (c.status === 'ok') lines.push(line(c));
  return lines.join('\n');
}

/** `axme uninstall --agent <list>` (setup/clients): each client's files without what axme added. */
async function uninstallClients(io: CliIO, a: CliArgs, cwd: string): Promise<void> {
  if (typeof a.agent !== 'string') throw new AxmeError('INVALID_INPUT', '--agent needs one comma-separated list of clients (give it once)');
  const { agentFilesRoot } = await import('../../setup/agent-files.ts');
  const { applyClients, describeClients, parseAgents, planClientRemoval } = await import('../../setup/clients/index.ts');
  const selection = parseAgents(a.agent, { user: a.user === true });
  const root = agentFilesRoot(cwd, io.env);
  if (!root) throw new AxmeError('NOT_A_REPO', `${cwd} is not in the working tree of a git repository: no client files to change`);
  const plan = planClientRemoval(root, selection, { env: io.env, platform: process.platform });
  const changes = a.dryRun ? describeClients(plan) : applyClients(plan);
  if (a.json) return printJson(io, { dryRun: a.dryRun === true, clients: changes, skipped: plan.skipped });
  const shown = (p: string) => (relative(root, p).startsWith('..') || isAbsolute(relative(root, p)) ? p : relative(root, p));
  const what = { server: 'the axme server', hooks: "axme's hooks", instructions: 'the axme section' };
  for (const c of changes) {
    const parts = c.parts.map((p) => what[p]).join(' and ');
    if (c.action === 'unchanged') out(io, `${c.client}: ${shown(c.path)} has nothing of axme's`);
    else if (c.action === 'removed') out(io, `${c.client}: ${a.dryRun ? 'Would remove' : 'Removed'} ${shown(c.path)}`);
    else out(io, `${c.client}: ${a.dryRun ? 'Would remove' : 'Removed'} ${parts} from ${shown(c.path)}`);
  }
  for (const s of plan.skipped) out(io, `${s.client}: skipped ${s.file}, ${s.reason}`);
  if (!changes.length) out(io, 'No client files to change');
}
