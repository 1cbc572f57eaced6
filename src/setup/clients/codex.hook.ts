import { resolve } from 'node:path';
import { shellJoin } from '../../model/shell-quote.ts';
import type { ToolCall } from '../../safety/evaluate.ts';
import type { HookPayload } from './hook-payload.ts';
import {
  type CallFacts,
  type ClientHookPart,
  cannotAsk,
  claudeContext,
  claudeDeny,
  claudePromptContext,
  claudeShaped,
  claudeToolContext,
  line,
  shellCall,
  str,
} from './hook-protocol.ts';

/**
 * Codex, for the hook process: Claude-shaped payloads and answers. Its shell tool is `Bash` in
 * hooks; older builds name it `shell`/`local_shell`/`exec_command` with the command as argv.
 * `apply_patch` edits the files named in the patch: each is a Write (so protected and read-only
 * paths hold for it too) — and since Codex reports no PostToolUse for a patch, the files are
 * recorded when the call is let through (`recordsEditsBefore`). Its hooks file and its config
 * (inline hooks, `[features] hooks`, the trust of each hook) are guarded.
 */
export const codexHook = {
  id: 'codex',
  label: 'Codex',
  guarded: { project: ['.codex/hooks.json', '.codex/config.toml'], home: ['.codex/hooks.json', '.codex/config.toml'] },
  protocol: {
    payload: (o) => claudeShaped(o, codexCalls),
    deny: claudeDeny,
    // Codex's schema names "ask", but its hooks do not put it to the user: deny, saying so
    ask: (reason) => claudeDeny(cannotAsk('Codex')(reason)),
    pass: '',
    context: claudeContext,
    promptContext: claudePromptContext,
    toolContext: claudeToolContext,
    recordsEditsBefore: true,
    passChanged: inSandbox,
    sandbox: 'rewrite',
  },
} as const satisfies ClientHookPart;

/**
 * A shell call let through, changed to run in axme's kernel sandbox (docs/safety.md): Codex takes
 * `updatedInput` on PreToolUse. The command keeps its folder (`workdir`); null when the sandbox is off.
 */
async function inSandbox(p: HookPayload, facts: CallFacts): Promise<string | null> {
  if (!p.tool_name || !CODEX_SHELLS.has(p.tool_name)) return null;
  const raw = p.tool_input.command ?? p.tool_input.cmd;
  const command = Array.isArray(raw) ? shellJoin(raw.map(String)) : typeof raw === 'string' ? raw : null;
  // Codex applies a patch itself when a shell call asks for one: left to Codex (its files were checked as writes)
  if (command === null || command === '' || /\bappl(?:y_|y)patch\b/.test(command)) return null;
  const workdir = str(p.tool_input.workdir);
  const dir = resolve(p.cwd ?? process.cwd(), workdir ?? '.');
  const sandboxed = await facts.sandboxed(command, dir);
  if (sandboxed === null) return null;
  const key = p.tool_input.command !== undefined ? 'command' : 'cmd';
  // an argv stays an argv (run by bash), a string a string
  const value = Array.isArray(raw) ? ['bash', '-c', sandboxed] : sandboxed;
  // Codex takes a changed input only beside `allow` (it refuses one without); its approval policy still asks as it would
  return line({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { ...p.tool_input, [key]: value } } });
}

/** Codex's shell tools before its hooks named them `Bash`: the command as argv or a string. */
const CODEX_SHELLS = new Set(['Bash', 'shell', 'local_shell', 'exec_command', 'container.exec', 'unified_exec']);

/** The files an `apply_patch` body adds, updates, deletes or moves to (Codex trims each header line, so may we). */
function patchedFiles(patch: string): string[] {
  const out: string[] = [];
  for (const m of patch.matchAll(/^[ \t]*\*\*\* (?:Add File|Update File|Delete File|Move to):[ \t]*(.+)$/gm)) out.push(m[1]!.trim());
  return out;
}

/** One Codex tool call as the calls the engine knows; undefined: the call as it is. */
function codexCalls(tool: string, input: Record<string, unknown>): ToolCall[] | undefined {
  // the folder a call runs in (`workdir`): its command runs there, its patch's paths are relative to it
  const workdir = str(input.workdir);
  const there = (path: string) => (workdir && !path.startsWith('/') && !path.startsWith('~') ? `${workdir.replace(/\/+$/, '')}/${path}` : path);
  const writes = (files: string[]): ToolCall[] => files.map((file_path) => ({ tool: 'Write', input: { file_path: there(file_path) } }));
  if (CODEX_SHELLS.has(tool)) {
    const raw = input.command ?? input.cmd;
    // an argv, or a string; anything else is no command (denied)
    const command = Array.isArray(raw) ? shellJoin(raw.map(String)) : raw;
    const calls: ToolCall[] = [shellCall(command, workdir)];
    // Codex runs `apply_patch` itself when the shell is asked for it (argv or a heredoc): the patch's files are written
    const text = Array.isArray(raw) ? raw.map(String).join('\n') : typeof command === 'string' ? command : '';
    if (/\bappl(?:y_|y)patch\b/.test(text)) calls.push(...writes(patchedFiles(text)));
    return calls;
  }
  if (tool === 'apply_patch' || tool === 'ApplyPatch') {
    const body = [input.patch, input.input, input.command].find((v) => typeof v === 'string') as string | undefined;
    const files = body ? patchedFiles(body) : [];
    // names no file: the engine says so and denies
    return files.length ? writes(files) : [{ tool: 'Write', input: {} }];
  }
  return undefined;
}
