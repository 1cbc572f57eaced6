import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClientAdapter, ClientHooks, ClientProbe, DoctorCheck, ProbeReadiness } from './clients/adapter.ts';
import { ADAPTERS } from './clients/adapters.ts';
import { mergeClientHooks, removeClientHooks } from './clients/hooks.ts';
import { installHintFor } from './launch.ts';

/** A client whose hooks `axme init --agent` writes, with the doctor's probe of its safety hook. */
type ProbedClient = ClientAdapter & { hooks: ClientHooks; probe: ClientProbe };

/**
 * The hooks of the other clients `axme init --agent` connected (each adapter with hooks and a
 * probe: Cursor, Codex, Gemini CLI), for each whose file holds axme's hooks: are they today's (what
 * init would write: nothing to change), does the installed safety hook run — it must deny
 * `rm -rf /` and let `git status` through, answered in that client's protocol — and will the client
 * run them (its probe's `ready`: Codex's trust). A client axme was never connected to is not mentioned.
 */
export function clientHookChecks(root: string, env: NodeJS.ProcessEnv): DoctorCheck[] {
  const out: DoctorCheck[] = [];
  for (const client of ADAPTERS) {
    if (client.isDefault || !client.hooks || !client.probe) continue;
    const c = client as ProbedClient;
    const file = c.hooks.file;
    const path = join(root, file);
    const name = `${c.id} hooks`;
    if (!existsSync(path)) continue;
    let text: string;
    let current: string;
    try {
      text = readFileSync(path, 'utf8');
      if (removeClientHooks(c, text, path) === text) continue; // no hook of axme's: not connected
      current = mergeClientHooks(c, text, path);
    } catch (err) {
      out.push({ name, status: 'problem', detail: (err as Error).message, fix: `fix ${file}, then axme init --agent ${c.id}` });
      continue;
    }
    // the same hooks in another layout (minified, no final newline) are today's hooks
    if (!sameJson(current, text)) {
      out.push({
        name,
        status: 'problem',
        detail: `${file} does not hold today's axme hooks (one is missing, changed or from an earlier axme)`,
        fix: `axme init --agent ${c.id}`,
      });
      continue;
    }
    const command = safetyCommand(c, text);
    if (!command) {
      out.push({ name, status: 'problem', detail: `${file} has no axme safety hook`, fix: `axme init --agent ${c.id}` });
      continue;
    }
    const live = liveCheck(name, c, command, root, env);
    out.push(readyCheck(live, live.status === 'ok' ? c.probe.ready?.(root, env, text) : undefined));
  }
  return out;
}

/** A client's hooks line from its live run and, when that ran, whether the client will run them (its probe's `ready`: Codex's trust). */
export function readyCheck(live: DoctorCheck, ready: ProbeReadiness | undefined): DoctorCheck {
  if (!ready) return live;
  if (ready.ok) return { ...live, detail: `${live.detail}; ${ready.detail}` };
  return { name: live.name, status: 'problem', detail: ready.detail, fix: ready.fix };
}

function sameJson(a: string, b: string): boolean {
  return JSON.stringify(JSON.parse(a)) === JSON.stringify(JSON.parse(b));
}

/** The installed command answering the client's first pre-tool-use event (its shell's). */
function safetyCommand(c: ProbedClient, text: string): string | null {
  const event = c.hooks.events.find((s) => s.hook === 'pre-tool-use')!.event;
  const list = (JSON.parse(text) as { hooks?: Record<string, unknown[]> }).hooks?.[event] ?? [];
  const commands = c.hooks.layout.grouped
    ? list.flatMap((g) => ((g as { hooks?: Array<{ command?: unknown }> }).hooks ?? []).map((h) => h.command))
    : list.map((h) => (h as { command?: unknown }).command);
  return (commands.find((x): x is string => typeof x === 'string' && / hook pre-tool-use --client /.test(x)) as string | undefined) ?? null;
}

function liveCheck(name: string, c: ProbedClient, command: string, root: string, env: NodeJS.ProcessEnv): DoctorCheck {
  const run = (cmd: string) =>
    spawnSync('/bin/sh', ['-c', command], { input: JSON.stringify(c.probe.shellPayload(root, cmd)), cwd: root, env, timeout: 15_000, encoding: 'utf8' });
  const shown = (stdout: string) => JSON.stringify(stdout.trim().slice(0, 200));
  const denied = run('rm -rf /');
  if (c.probe.decision(denied.stdout) !== 'deny') {
    const why = denied.error
      ? denied.error.message
      : `exit ${denied.status}, stdout ${shown(denied.stdout)}, stderr ${JSON.stringify(denied.stderr.slice(0, 200))}`;
    // exit 2 with axme's "not installed" line: the command is right, axme is missing here
    const missing = denied.status === 2 && /axme is not installed on this machine/.test(denied.stderr);
    return {
      name,
      status: 'problem',
      detail: `the ${c.id} safety hook did not deny \`rm -rf /\` (${why})`,
      fix: missing ? installHintFor(root) : `axme init --agent ${c.id}`,
    };
  }
  const allowed = run('git status').stdout;
  if (c.probe.decision(allowed) !== 'pass')
    return { name, status: 'problem', detail: `the ${c.id} safety hook does not let \`git status\` through: ${shown(allowed)}` };
  return { name, status: 'ok', detail: `current; the safety hook denies \`rm -rf /\` and lets \`git status\` through (${c.id}'s protocol)` };
}
