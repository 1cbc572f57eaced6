import { shellJoin } from '../../model/shell-quote.ts';
import type { ToolCall } from '../../safety/evaluate.ts';
import type { HookPayload } from './hook-payload.ts';

/**
 * What axme's hook process needs of a client (`<client>.hook.ts`, one per client): the files that
 * connect it to axme, which the guard keeps agents from writing, and where axme speaks its hook
 * protocol, how its payload reads and how it is answered. Each protocol maps the client's payload
 * onto one shape — the tool calls in Claude Code's vocabulary (`Bash {command}`,
 * `Read`/`Write`/`Edit {file_path}`, `Glob`, `Grep`, `LS`) — so one policy engine decides for
 * every client, and answers in the client's words.
 *
 * Kept small and free of heavy imports: every hook part runs on the launcher's fast path. The rest
 * of a client (its MCP entry, hook file, instructions, doctor probe) is its adapter's (`<client>.ts`).
 */
export interface ClientHookPart {
  /** the client's name: `--agent`, `--client`, and the harness its sessions are mapped under */
  id: string;
  /** its name for people ("Gemini CLI") */
  label: string;
  /**
   * The files that install axme's hooks or server for it, or can switch them off, from the top
   * of a project and from the home folder: guarded paths (no agent writes them).
   */
  guarded: { project: readonly string[]; home: readonly string[] };
  /** its hook protocol; absent where axme does not speak one */
  protocol?: HookProtocol;
}

/** What an answer may need to know besides the payload, looked up only when an adapter asks. */
export interface CallFacts {
  /** the folder git runs hooks from for the repository around `dir`, when axme's git hooks are installed there; null otherwise */
  axmeGitHooksPath: (dir: string) => Promise<string | null>;
  /** the command line running `command` from `cwd` in axme's kernel sandbox; null when the sandbox is off */
  sandboxed: (command: string, cwd: string) => Promise<string | null>;
}

export interface HookProtocol {
  /** the parsed JSON object → the common payload */
  payload: (raw: Record<string, unknown>) => HookPayload;
  /** what stops a tool call */
  deny: (reason: string) => string;
  /** what hands the call to a person (Claude Code's and Cursor's "ask"); a client that cannot ask gets a deny saying so */
  ask: (reason: string) => string;
  /** what lets a tool call through without an opinion ('' when silence does) — never an "allow" that skips the client's own approval */
  pass: string;
  /** the answer letting `p` through with its input changed, where the client takes one; null: `pass` */
  passChanged?: (p: HookPayload, facts: CallFacts) => Promise<string | null>;
  /** the session-start answer carrying the project context */
  context: (text: string) => string;
  /** the answer to a prompt (Claude Code's and Codex's UserPromptSubmit, Gemini's BeforeAgent) carrying the items it is about; absent: the client has no such event */
  promptContext?: (text: string) => string;
  /** the pre-tool-use "no objection" carrying the items anchored to the files an edit touches; absent: the client shows the model no context there (Gemini's BeforeTool) */
  toolContext?: (text: string) => string;
  /**
   * Whether a pre-compact event means the context is compacted now (`at.cwd`: the session's
   * folder; `at.home`: the hook's home folder). Absent: always — Claude Code's and Codex's
   * PreCompact come only with a compaction.
   */
  compactsNow?: (p: HookPayload, at: { env: NodeJS.ProcessEnv; cwd: string; home: string }) => boolean;
  /** the client reports some edits in no after-tool event: pre-tool-use records the files of the calls it lets through */
  recordsEditsBefore?: boolean;
  /**
   * How its shell commands reach axme's kernel sandbox (docs/safety.md): `rewrite`, the answer
   * replaces the command (`passChanged` asks `sandboxed`); `shell-prefix`, the client runs every
   * command through the script `axme init` names in its settings, which the hook keeps current.
   * Absent: none (the parser alone guards).
   */
  sandbox?: 'rewrite' | 'shell-prefix';
}

/** A non-empty string, or null. */
export const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
/** A plain object, or an empty one. */
export const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
/**
 * A shell call in the common vocabulary: `command` run in `dir` (the engine reads the `cd` as the
 * shell does). A command that is not a string (missing, a list where the client's schema has a
 * string) stays missing, so the engine denies the call as one it cannot read, never runs it as empty.
 */
export function shellCall(command: unknown, dir?: string | null): ToolCall {
  if (typeof command !== 'string') return { tool: 'Bash', input: {} };
  return { tool: 'Bash', input: { command: dir ? `cd ${shellJoin([dir])} && ${command}` : command } };
}
/** One line of JSON: a hook's answer. */
export const line = (o: unknown): string => `${JSON.stringify(o)}\n`;

/** The payload fields every client sends under Claude Code's names. */
export type CommonFields = Omit<HookPayload, 'calls' | 'tool_name' | 'tool_input'>;

/** The fields every client sends under Claude Code's names. */
export function commonFields(o: Record<string, unknown>): CommonFields {
  return {
    session_id: str(o.session_id),
    transcript_path: str(o.transcript_path),
    cwd: str(o.cwd),
    hook_event_name: str(o.hook_event_name),
    source: str(o.source),
    reason: str(o.reason),
    trigger: str(o.trigger),
  };
}

/**
 * A Claude-shaped payload (`tool_name`, `tool_input`): the calls are `callsOf`'s for a named tool
 * (undefined: the tool call itself), none without a tool name.
 */
export function claudeShaped(
  o: Record<string, unknown>,
  callsOf?: (tool: string, input: Record<string, unknown>, cwd: string | null) => ToolCall[] | undefined,
): HookPayload {
  const base = commonFields(o);
  const tool = str(o.tool_name);
  const input = obj(o.tool_input);
  return oneCall(base, tool, input, tool && callsOf ? callsOf(tool, input, base.cwd) : undefined);
}

/** The payload of one tool call named `tool` with `input`. */
export function oneCall(base: CommonFields, tool: string | null, input: Record<string, unknown>, calls?: ToolCall[]): HookPayload {
  return { ...base, tool_name: tool, tool_input: input, calls: calls ?? (tool ? [{ tool, input }] : []) };
}

/** Claude Code's PreToolUse deny (Codex reads it too). */
export const claudeDeny = (reason: string): string =>
  line({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } });
/** Claude Code's PreToolUse ask. */
export const claudeAsk = (reason: string): string =>
  line({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: reason } });
/** Claude Code's SessionStart answer with the context (Codex and Gemini CLI read it too). */
export const claudeContext = (text: string): string => line({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text } });
/** Claude Code's UserPromptSubmit answer with the items a prompt is about (Codex reads it too: a developer message). */
export const claudePromptContext = (text: string): string => line({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: text } });
/** Claude Code's PreToolUse "no objection" with context for the model (no permissionDecision: the client's own approval stands); Codex reads it too. */
export const claudeToolContext = (text: string): string => line({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: text } });
/** The reason of a deny standing in for an "ask" the client (named `label`) cannot put to a person. */
export const cannotAsk =
  (label: string) =>
  (reason: string): string =>
    `${reason} — ${label} cannot ask the user from a hook, so the call is denied: ask the user to run it themselves`;
