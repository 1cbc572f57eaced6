import { AxmeError } from '../../model/errors.ts';
import type { HOOK_EVENT_NAMES, HookClientName } from '../../model/hook-names.ts';
import { isAxmeHookCommand } from '../agent-files.ts';
import { isObject, parseJsonObject, renderJson, type Json } from '../json-file.ts';
import { hookCommand } from '../launch.ts';

/**
 * The hooks axme registers in the clients whose hook protocol it speaks (`axme hook <event>
 * --client <client>`): Cursor's `.cursor/hooks.json`, Codex's `.codex/hooks.json` (Claude Code's
 * shape) and the `hooks` key of Gemini CLI's `.gemini/settings.json`. Merged like
 * `.claude/settings.json`: axme's entries are found by their command (today's portable one or an
 * earlier one, for any client), taken out wherever they are and put back once where the first
 * was; every other hook and key stays; a second run changes no byte. Pure: text in, text out.
 */

/** The clients whose hook files axme writes: every client whose protocol `axme hook --client` speaks but Claude Code (agent-files.ts). */
export type HooksFormat = Exclude<HookClientName, 'claude-code'>;

type HookEvent = (typeof HOOK_EVENT_NAMES)[number];

interface HookSpec {
  /** the client's event */
  event: string;
  hook: HookEvent;
  matcher?: string;
  /** in the client's unit: seconds (Cursor, Codex), milliseconds (Gemini CLI) */
  timeout: number;
  failClosed?: boolean;
}

/** Each client's events and the axme hook that answers them (the session start, which may recover earlier sessions first, gets 30 s like Claude Code's). */
export const CLIENT_HOOKS: Record<HooksFormat, readonly HookSpec[]> = {
  cursor: [
    { event: 'beforeShellExecution', hook: 'pre-tool-use', timeout: 10, failClosed: true },
    { event: 'beforeReadFile', hook: 'pre-tool-use', timeout: 10, failClosed: true },
    { event: 'beforeMCPExecution', hook: 'pre-tool-use', timeout: 10, failClosed: true },
    { event: 'afterFileEdit', hook: 'post-tool-use', timeout: 10 },
    { event: 'sessionStart', hook: 'session-start', timeout: 30 },
    { event: 'sessionEnd', hook: 'session-end', timeout: 10 },
  ],
  codex: [
    { event: 'PreToolUse', hook: 'pre-tool-use', timeout: 10 },
    { event: 'PostToolUse', hook: 'post-tool-use', timeout: 10 },
    { event: 'SessionStart', hook: 'session-start', timeout: 30 },
  ],
  gemini: [
    { event: 'BeforeTool', hook: 'pre-tool-use', timeout: 10000 },
    { event: 'AfterTool', hook: 'post-tool-use', matcher: 'write_file|replace', timeout: 10000 },
    { event: 'SessionStart', hook: 'session-start', timeout: 30000 },
    { event: 'SessionEnd', hook: 'session-end', timeout: 10000 },
  ],
};

// an earlier axme's hook by path, for another client: `…/axme.cjs hook <event> --client <client>`
const PATH_CLIENT_HOOK_RE = /(?:^|[\s'"/])axme(?:\.cjs)?['"]?\s+hook\s+(?:pre-tool-use|post-tool-use|session-start|session-end)\s+--client\s+[a-z-]+\b/;

/** Whether a hook command is one of axme's (any event, any client, today's form or an earlier one). */
function isAxmeClientHook(command: unknown): boolean {
  return isAxmeHookCommand(command) || (typeof command === 'string' && PATH_CLIENT_HOOK_RE.test(command));
}

/** The file's text with axme's hooks in place (created when `text` is null). */
export function mergeClientHooks(format: HooksFormat, text: string | null, path: string): string {
  const config = text === null ? {} : parseJsonObject(text, path);
  if (format === 'cursor') checkCursorVersion(config, path);
  const hooks = hooksOf(config, format, path);
  const { hooks: rest, at } = withoutOurs(hooks, format, path);
  for (const spec of CLIENT_HOOKS[format]) {
    const list = (rest[spec.event] as unknown[] | undefined) ?? [];
    const i = at[spec.event] ?? list.length;
    rest[spec.event] = [...list.slice(0, i), entryOf(format, spec), ...list.slice(i)];
  }
  // Cursor's format says its version; a file without one gets it first
  const head = format === 'cursor' && config.version === undefined ? { version: 1 } : {};
  return renderJson({ ...head, ...config, hooks: rest }, text ?? undefined);
}

/**
 * The file's text without axme's hooks: an event left empty goes, so does a `hooks` object left
 * empty, and null when nothing else is left (the file goes; for Cursor, `version` alone is
 * nothing). The same text when it holds no hook of axme's.
 */
export function removeClientHooks(format: HooksFormat, text: string, path: string): string | null {
  const config = parseJsonObject(text, path);
  const hooks = hooksOf(config, format, path);
  const { hooks: rest, at, emptied } = withoutOurs(hooks, format, path);
  if (!Object.keys(at).length) return text;
  for (const event of emptied) delete rest[event];
  const left: Json = { ...config, hooks: rest };
  if (!Object.keys(rest).length) delete left.hooks;
  const keys = Object.keys(left);
  if (!keys.length || (format === 'cursor' && keys.length === 1 && keys[0] === 'version')) return null;
  return renderJson(left, text);
}

/** The client's event names axme registers (for what init reports). */
export function hookEvents(format: HooksFormat): string[] {
  return CLIENT_HOOKS[format].map((s) => s.event);
}

function entryOf(format: HooksFormat, spec: HookSpec): Json {
  const command = hookCommand(spec.hook, format);
  if (format === 'cursor') return { command, timeout: spec.timeout, ...(spec.failClosed ? { failClosed: true } : {}) };
  const hook = format === 'gemini' ? { type: 'command', name: `axme-${spec.hook}`, command, timeout: spec.timeout } : { type: 'command', command, timeout: spec.timeout };
  return { ...(spec.matcher ? { matcher: spec.matcher } : {}), hooks: [hook] };
}

/**
 * The events without axme's entries (in every event, so a hook an earlier axme registered
 * elsewhere goes too), where the first one of each event was (`at`), and the events that held
 * nothing else (`emptied`). Cursor's lists hold commands; the others hold groups of commands.
 */
function withoutOurs(hooks: Json, format: HooksFormat, path: string): { hooks: Json; at: Record<string, number>; emptied: string[] } {
  const rest: Json = { ...hooks };
  const at: Record<string, number> = {};
  const emptied: string[] = [];
  const written = new Set(CLIENT_HOOKS[format].map((s) => s.event));
  for (const [event, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) {
      if (written.has(event)) throw shapeError(path, `"hooks.${event}" must be a list`);
      continue;
    }
    const kept: unknown[] = [];
    let first = -1;
    for (const item of list) {
      if (format === 'cursor') {
        if (isObject(item) && isAxmeClientHook(item.command)) {
          if (first < 0) first = kept.length;
        } else kept.push(item);
        continue;
      }
      if (!isObject(item) || !Array.isArray(item.hooks)) {
        kept.push(item);
        continue;
      }
      const foreign = (item.hooks as unknown[]).filter((h) => !(isObject(h) && isAxmeClientHook(h.command)));
      if (foreign.length) kept.push(foreign.length === item.hooks.length ? item : { ...item, hooks: foreign });
      // ours goes where the old one was (after the foreign hooks that shared its group)
      if (foreign.length !== item.hooks.length && first < 0) first = kept.length;
    }
    if (first < 0) continue;
    at[event] = first;
    rest[event] = kept;
    if (!kept.length) emptied.push(event);
  }
  // an event no longer registered (an earlier axme's), left empty: it goes
  for (const event of emptied) if (!written.has(event)) delete rest[event];
  return { hooks: rest, at, emptied };
}

function hooksOf(config: Json, format: HooksFormat, path: string): Json {
  if (config.hooks === undefined) return {};
  if (!isObject(config.hooks)) throw shapeError(path, `"hooks" must be an object of events${format === 'cursor' ? ' (Cursor: {"version": 1, "hooks": {…}})' : ''}`);
  return config.hooks;
}

function checkCursorVersion(config: Json, path: string): void {
  if (config.version !== undefined && config.version !== 1) throw shapeError(path, `"version" is ${JSON.stringify(config.version)}: axme writes Cursor's hooks format version 1`);
}

function shapeError(path: string, what: string): AxmeError {
  return new AxmeError('CONFIG', `${path}: ${what}: fix it, then run the command again; nothing was changed`, { path });
}
