import type { HookClientName } from '../model/hook-names.ts';
import { shellJoin } from '../model/shell-quote.ts';
import type { ToolCall } from '../safety/evaluate.ts';
import { resolve } from 'node:path';
import { PayloadError, parseJsonObject, type HookPayload } from './payload.ts';
import { readManyTargets } from './read-many.ts';

/**
 * The hook protocols axme speaks. Every client sends its own JSON and reads its own answer;
 * each adapter maps the payload onto one shape — the tool calls in Claude Code's vocabulary
 * (`Bash {command}`, `Read`/`Write`/`Edit {file_path}`, `Glob`, `Grep`, `LS`) — so one policy
 * engine decides for every client, and answers in the client's words. Formats:
 * ../shared/reference/agent-clients.md §4 and each client's hook reference.
 *
 * Kept small and free of heavy imports: every adapter runs on the launcher's fast path.
 */
export interface HookProtocol {
  client: HookClientName;
  /** the name sessions of this client are mapped under (`<harness>-<session id>`) */
  harness: string;
  /** the parsed JSON object → the common payload */
  payload: (raw: Record<string, unknown>) => HookPayload;
  /** what stops a tool call */
  deny: (reason: string) => string;
  /** what hands the call to a person (Claude Code's and Cursor's "ask"); a client that cannot ask gets a deny saying so */
  ask: (reason: string) => string;
  /** what lets a tool call through without an opinion ('' when silence does) — never an "allow" that skips the client's own approval */
  pass: string;
  /** the session-start answer carrying the project context */
  context: (text: string) => string;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const line = (o: unknown) => `${JSON.stringify(o)}\n`;

/** The fields every client sends under Claude Code's names. */
function common(o: Record<string, unknown>): Omit<HookPayload, 'calls' | 'tool_name' | 'tool_input'> {
  return {
    session_id: str(o.session_id),
    transcript_path: str(o.transcript_path),
    cwd: str(o.cwd),
    hook_event_name: str(o.hook_event_name),
    source: str(o.source),
    reason: str(o.reason),
  };
}

/**
 * A Claude-shaped payload (`tool_name`, `tool_input`): the calls are `callsOf`'s for a named tool
 * (undefined: the tool call itself), none without a tool name.
 */
function claudeShaped(o: Record<string, unknown>, callsOf?: (tool: string, input: Record<string, unknown>, cwd: string | null) => ToolCall[] | undefined): HookPayload {
  const base = common(o);
  const tool = str(o.tool_name);
  const input = obj(o.tool_input);
  return oneCall(base, tool, input, tool && callsOf ? callsOf(tool, input, base.cwd) : undefined);
}

/** The payload of one tool call named `tool` with `input`. */
function oneCall(base: Omit<HookPayload, 'calls' | 'tool_name' | 'tool_input'>, tool: string | null, input: Record<string, unknown>, calls?: ToolCall[]): HookPayload {
  return { ...base, tool_name: tool, tool_input: input, calls: calls ?? (tool ? [{ tool, input }] : []) };
}

const claudeDeny = (reason: string) => line({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } });
const claudeAsk = (reason: string) => line({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: reason } });
/** The reason of a deny standing in for an "ask" the client cannot put to a person. */
const cannotAsk = (client: string) => (reason: string) => `${reason} — ${client} cannot ask the user from a hook, so the call is denied: ask the user to run it themselves`;
const claudeContext = (text: string) => line({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text } });

/** Claude Code: the payload is already in the common vocabulary. */
const claudeCode: HookProtocol = {
  client: 'claude-code',
  harness: 'claude-code',
  payload: (o) => claudeShaped(o),
  deny: claudeDeny,
  ask: claudeAsk,
  pass: '',
  context: claudeContext,
};

/** The files an `apply_patch` body adds, updates, deletes or moves to (Codex trims each header line, so may we). */
function patchedFiles(patch: string): string[] {
  const out: string[] = [];
  for (const m of patch.matchAll(/^[ \t]*\*\*\* (?:Add File|Update File|Delete File|Move to):[ \t]*(.+)$/gm)) out.push(m[1]!.trim());
  return out;
}

/** Codex's shell tools before its hooks named them `Bash`: the command as argv or a string. */
const CODEX_SHELLS = new Set(['Bash', 'shell', 'local_shell', 'exec_command', 'container.exec', 'unified_exec']);

/**
 * Codex: Claude-shaped payloads and answers. Its shell tool is `Bash` in hooks; older builds name
 * it `shell`/`local_shell`/`exec_command` with the command as argv. `apply_patch` edits files
 * named in the patch: each is a Write (so protected and read-only paths hold for it too).
 */
const codex: HookProtocol = {
  client: 'codex',
  harness: 'codex',
  payload: (o) => claudeShaped(o, codexCalls),
  deny: claudeDeny,
  // Codex's schema names "ask", but its hooks do not put it to the user: deny, saying so
  ask: (reason) => claudeDeny(cannotAsk('Codex')(reason)),
  pass: '',
  context: claudeContext,
};

/** One Codex tool call as the calls the engine knows; undefined: the call as it is. */
function codexCalls(tool: string, input: Record<string, unknown>): ToolCall[] | undefined {
  // the folder a call runs in (`workdir`): its command runs there, its patch's paths are relative to it
  const workdir = str(input.workdir);
  const there = (path: string) => (workdir && !path.startsWith('/') && !path.startsWith('~') ? `${workdir.replace(/\/+$/, '')}/${path}` : path);
  const writes = (files: string[]): ToolCall[] => files.map((file_path) => ({ tool: 'Write', input: { file_path: there(file_path) } }));
  if (CODEX_SHELLS.has(tool)) {
    const raw = input.command ?? input.cmd;
    const command = Array.isArray(raw) ? shellJoin(raw.map(String)) : typeof raw === 'string' ? raw : '';
    const calls: ToolCall[] = [{ tool: 'Bash', input: { command: workdir ? `cd ${shellJoin([workdir])} && ${command}` : command } }];
    // Codex runs `apply_patch` itself when the shell is asked for it (argv or a heredoc): the patch's files are written
    const text = Array.isArray(raw) ? raw.map(String).join('\n') : command;
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

/**
 * Gemini CLI: its own tool names and argument names, mapped to the common vocabulary.
 * `BeforeTool` is answered with `{"decision":"deny","reason"}`; `{}` lets the call go on to
 * Gemini's own confirmation; SessionStart takes `hookSpecificOutput.additionalContext`.
 */
const gemini: HookProtocol = {
  client: 'gemini',
  harness: 'gemini',
  payload: (o) => claudeShaped(o, (tool, input, cwd) => geminiCalls(tool, input, cwd ?? process.cwd())),
  deny: (reason) => line({ decision: 'deny', reason }),
  ask: (reason) => line({ decision: 'deny', reason: cannotAsk('Gemini CLI')(reason) }),
  pass: line({}),
  context: claudeContext,
};

/**
 * One Gemini tool call as the calls the engine knows. Tools it does not know keep their name (MCP
 * tools are `mcp__<server>__<tool>` in both). `cwd` is where relative paths start.
 */
function geminiCalls(tool: string, input: Record<string, unknown>, cwd: string): ToolCall[] {
  const path = (...keys: string[]) => keys.map((k) => input[k]).find((v): v is string => typeof v === 'string' && v !== '');
  const dir = path('dir_path', 'directory', 'path');
  switch (tool) {
    case 'run_shell_command': {
      const command = typeof input.command === 'string' ? input.command : '';
      // a command run in a sub-folder: the engine reads `cd` like the shell does
      return [{ tool: 'Bash', input: { command: dir ? `cd ${shellJoin([dir])} && ${command}` : command } }];
    }
    case 'write_file':
      return [{ tool: 'Write', input: { file_path: path('file_path', 'absolute_path', 'path') ?? '' } }];
    case 'replace':
    case 'edit':
      return [{ tool: 'Edit', input: { file_path: path('file_path', 'absolute_path', 'path') ?? '' } }];
    case 'read_file':
      return [{ tool: 'Read', input: { file_path: path('file_path', 'absolute_path', 'path') ?? '' } }];
    case 'read_many_files': {
      const list = [input.paths, input.include].flatMap((v) => (Array.isArray(v) ? v : typeof v === 'string' ? [v] : [])).filter((v): v is string => typeof v === 'string' && v !== '');
      if (!list.length) throw new PayloadError('the read_many_files call names no paths');
      // it reads file contents: every file its paths, folders and globs reach on disk is checked as a Read
      const files = readManyTargets(list, dir ? resolve(cwd, dir) : cwd, { defaultExcludes: input.useDefaultExcludes !== false });
      if (files === null) throw new PayloadError('the read_many_files call reaches more than 20000 files, too many to check; name the files, or a narrower folder or pattern');
      return files.map((file_path) => ({ tool: 'Read', input: { file_path } }));
    }
    case 'glob':
      return [{ tool: 'Glob', input: { pattern: input.pattern ?? '', ...(dir ? { path: dir } : {}) } }];
    case 'search_file_content':
    case 'grep_search':
    case 'grep': {
      const include = path('include_pattern', 'include');
      return [{ tool: 'Grep', input: { ...(dir ? { path: dir } : {}), ...(include ? { glob: include } : {}) } }];
    }
    case 'list_directory':
    case 'ls':
      return [{ tool: 'LS', input: dir ? { path: dir } : {} }];
    default:
      return [{ tool, input }];
  }
}

/**
 * Cursor: one event per kind of action, each with its own fields. The conversation is the
 * session (`conversation_id`; `session_id` on the session events); the folder is `cwd` or the
 * first workspace root. Answers: `{"permission":"deny","user_message","agent_message"}` to stop,
 * `{}` to let Cursor's own approval decide; sessionStart takes `additional_context`.
 */
const cursor: HookProtocol = {
  client: 'cursor',
  harness: 'cursor',
  payload: (o) => {
    const roots = Array.isArray(o.workspace_roots) ? o.workspace_roots.filter((r): r is string => typeof r === 'string' && r !== '') : [];
    const base = { ...common(o), session_id: str(o.conversation_id) ?? str(o.session_id), cwd: str(o.cwd) ?? roots[0] ?? null };
    const event = base.hook_event_name;
    if (event === 'beforeShellExecution' || (event === null && typeof o.command === 'string' && !('tool_name' in o))) {
      return oneCall(base, 'Bash', { command: typeof o.command === 'string' ? o.command : '' });
    }
    if (event === 'beforeReadFile') {
      // the file, and any attached with it: each is read
      const attached = (Array.isArray(o.attachments) ? o.attachments : []).map((a) => obj(a)).map((a) => str(a.filePath) ?? str(a.file_path) ?? str(a.path)).filter((p): p is string => p !== null);
      const files = [str(o.file_path), ...attached].filter((p): p is string => p !== null);
      if (!files.length) throw new PayloadError('the beforeReadFile payload names no file_path');
      return oneCall(base, 'Read', { file_path: files[0] }, files.map((file_path) => ({ tool: 'Read', input: { file_path } })));
    }
    if (event === 'afterFileEdit') return oneCall(base, 'Edit', { file_path: str(o.file_path) ?? '' });
    if (event === 'beforeMCPExecution') {
      const tool = str(o.tool_name);
      return oneCall(base, tool, cursorToolInput(o.tool_input));
    }
    return oneCall(base, null, {});
  },
  deny: (reason) => line({ permission: 'deny', user_message: `axme: ${reason}`, agent_message: reason }),
  ask: (reason) => line({ permission: 'ask', user_message: `axme: ${reason}`, agent_message: reason }),
  pass: line({}),
  context: (text) => line({ additional_context: text, continue: true }),
};

/** beforeMCPExecution's tool_input is a JSON string; an object is taken as it is. */
function cursorToolInput(v: unknown): Record<string, unknown> {
  if (typeof v !== 'string') return obj(v);
  try {
    return obj(JSON.parse(v));
  } catch {
    throw new PayloadError('the beforeMCPExecution tool_input is not JSON');
  }
}

export const HOOK_PROTOCOLS: Record<HookClientName, HookProtocol> = { 'claude-code': claudeCode, codex, cursor, gemini };

/** The hook input (`text`, JSON on stdin) in the common shape, as `protocol`'s client sent it. */
export function readPayload(text: string, protocol: HookProtocol): HookPayload {
  return protocol.payload(parseJsonObject(text));
}
