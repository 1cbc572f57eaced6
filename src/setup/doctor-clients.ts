import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLIENTS } from './clients/index.ts';
import { INSTALL_HINT } from './launch.ts';
import { CLIENT_HOOKS, mergeClientHooks, removeClientHooks, type HooksFormat } from './clients/hooks.ts';

/** One line of `axme doctor` (the shape of doctor.ts's Check). */
interface ClientCheck {
  name: string;
  status: 'ok' | 'missing' | 'problem';
  detail: string;
  fix?: string;
}

/**
 * The hooks of the other clients `axme init --agent` connected (Cursor, Codex, Gemini CLI), for
 * each whose file holds axme's hooks: are they today's (what init would write: nothing to change),
 * and does the installed safety hook run — it must deny `rm -rf /` and let `git status` through,
 * answered in that client's protocol. A client axme was never connected to is not mentioned.
 */
export function clientHookChecks(root: string, env: NodeJS.ProcessEnv): ClientCheck[] {
  const out: ClientCheck[] = [];
  for (const client of CLIENTS) {
    if (!client.hooks) continue;
    const { format } = client.hooks;
    const path = join(root, client.hooks.file);
    const name = `${client.id} hooks`;
    if (!existsSync(path)) continue;
    let text: string;
    let current: string;
    try {
      text = readFileSync(path, 'utf8');
      if (removeClientHooks(format, text, path) === text) continue; // no hook of axme's: not connected
      current = mergeClientHooks(format, text, path);
    } catch (err) {
      out.push({ name, status: 'problem', detail: (err as Error).message, fix: `fix ${client.hooks.file}, then axme init --agent ${client.id}` });
      continue;
    }
    // the same hooks in another layout (minified, no final newline) are today's hooks
    if (!sameJson(current, text)) {
      out.push({ name, status: 'problem', detail: `${client.hooks.file} does not hold today's axme hooks (one is missing, changed or from an earlier axme)`, fix: `axme init --agent ${client.id}` });
      continue;
    }
    const command = safetyCommand(format, text);
    out.push(command ? liveCheck(name, format, command, root, env) : { name, status: 'problem', detail: `${client.hooks.file} has no axme safety hook`, fix: `axme init --agent ${client.id}` });
  }
  return out;
}

function sameJson(a: string, b: string): boolean {
  return JSON.stringify(JSON.parse(a)) === JSON.stringify(JSON.parse(b));
}

/** The installed command answering the client's shell event. */
function safetyCommand(format: HooksFormat, text: string): string | null {
  const event = CLIENT_HOOKS[format].find((s) => s.hook === 'pre-tool-use')!.event;
  const list = (JSON.parse(text) as { hooks?: Record<string, unknown[]> }).hooks?.[event] ?? [];
  const commands = format === 'cursor' ? list.map((h) => (h as { command?: unknown }).command) : list.flatMap((g) => ((g as { hooks?: Array<{ command?: unknown }> }).hooks ?? []).map((h) => h.command));
  return (commands.find((c): c is string => typeof c === 'string' && / hook pre-tool-use --client /.test(c)) as string | undefined) ?? null;
}

/** The client's payload for a shell command (no session id: a check opens no session). */
function shellPayload(format: HooksFormat, root: string, command: string): string {
  if (format === 'cursor') return JSON.stringify({ hook_event_name: 'beforeShellExecution', workspace_roots: [root], cwd: root, command });
  if (format === 'gemini') return JSON.stringify({ hook_event_name: 'BeforeTool', cwd: root, tool_name: 'run_shell_command', tool_input: { command } });
  return JSON.stringify({ hook_event_name: 'PreToolUse', cwd: root, tool_name: 'Bash', tool_input: { command } });
}

/** 'deny', 'pass' (no objection, in the client's words) or what came back instead. */
function verdictOf(format: HooksFormat, stdout: string): 'deny' | 'pass' | string {
  const text = stdout.trim();
  if (format === 'codex' && text === '') return 'pass';
  try {
    const o = JSON.parse(text) as Record<string, unknown> & { hookSpecificOutput?: { permissionDecision?: string } };
    const decision = format === 'cursor' ? o.permission : format === 'gemini' ? o.decision : o.hookSpecificOutput?.permissionDecision;
    if (decision === 'deny') return 'deny';
    if (decision === undefined && format !== 'codex') return 'pass';
  } catch {
    // not the client's JSON: reported below
  }
  return JSON.stringify(text.slice(0, 200));
}

function liveCheck(name: string, format: HooksFormat, command: string, root: string, env: NodeJS.ProcessEnv): ClientCheck {
  const run = (cmd: string) => spawnSync('/bin/sh', ['-c', command], { input: shellPayload(format, root, cmd), cwd: root, env, timeout: 15_000, encoding: 'utf8' });
  const denied = run('rm -rf /');
  const d = verdictOf(format, denied.stdout);
  if (d !== 'deny') {
    const why = denied.error ? denied.error.message : `exit ${denied.status}, stdout ${d}, stderr ${JSON.stringify(denied.stderr.slice(0, 200))}`;
    // exit 2 with axme's "not installed" line: the command is right, axme is missing here
    const missing = denied.status === 2 && /axme is not installed on this machine/.test(denied.stderr);
    return { name, status: 'problem', detail: `the ${format} safety hook did not deny \`rm -rf /\` (${why})`, fix: missing ? INSTALL_HINT : `axme init --agent ${format}` };
  }
  const allowed = verdictOf(format, run('git status').stdout);
  if (allowed !== 'pass') return { name, status: 'problem', detail: `the ${format} safety hook does not let \`git status\` through: ${allowed}` };
  return { name, status: 'ok', detail: `current; the safety hook denies \`rm -rf /\` and lets \`git status\` through (${format}'s protocol)` };
}
