import type { Argv } from 'yargs';
import type { HookIO } from '../../hooks/io.ts';
import { HOOK_EVENTS, runHook } from '../../hooks/run.ts';
import { doctor } from '../../setup/doctor.ts';
import { clockFrom, out, printJson, readStdin, SilentExit, type CliIO } from '../io.ts';

declare const AXME_VERSION: string | undefined;

type Args = Record<string, unknown> & { C?: string; json?: boolean };

/** doctor and hook: how axme is wired into the agent harness. */
export function setupCommands(io: CliIO) {
  return [
    {
      command: 'doctor',
      describe: 'check what is installed for agents (store, rules, Claude Code hooks run for real, MCP server, CLAUDE.md) and what is missing',
      builder: (y: Argv) => y,
      handler: async (a: Args) => {
        const r = await doctor({ cwd: a.C ?? io.cwd, env: io.env });
        if (a.json) printJson(io, r);
        else {
          for (const c of r.checks) out(io, `${c.status.padEnd(7)}  ${c.name.padEnd(18)}  ${c.detail}${c.fix ? `\n${' '.repeat(29)}fix: ${c.fix}` : ''}`);
        }
        if (!r.ok) throw new SilentExit(1);
      },
    },
    {
      command: 'hook <event>',
      describe: `answer a Claude Code hook (JSON on stdin): ${Object.keys(HOOK_EVENTS).join(', ')}`,
      builder: (y: Argv) => y.positional('event', { type: 'string', choices: Object.keys(HOOK_EVENTS) }),
      handler: async (a: Args) => {
        // normally answered by the launcher's fast path; this is the same handler for other entries
        const hookIO: HookIO = {
          stdin: await readStdin(io, 16 * 1024 * 1024),
          stdout: (t) => void io.stdout.write(t),
          stderr: (t) => void io.stderr.write(t),
          env: io.env,
          cwd: a.C ?? io.cwd,
          home: io.env.HOME ?? '/',
          now: clockFrom(io.env),
          ownerPid: process.ppid,
          version: typeof AXME_VERSION === 'string' ? AXME_VERSION : 'dev',
          loadSlow: () => import('../../hooks/slow.ts'),
        };
        const code = await runHook(a.event as string, hookIO);
        if (code) throw new SilentExit(code);
      },
    },
  ];
}
