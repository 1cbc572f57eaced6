import { AxmeError } from '../../model/errors.ts';
import { HOOK_EVENT_NAMES } from '../../model/hook-names.ts';
import { isAxmeHookCommand } from '../agent-files.ts';
import { isObject, type Json, parseJsonObject, renderJson } from '../json-file.ts';
import { hookCommand } from '../launch.ts';
import type { ClientAdapter, ClientHooks } from './adapter.ts';

/**
 * The hooks axme registers in the clients whose hook protocol it speaks (`axme hook <event>
 * --client <client>`), in the file and the layout each client's adapter gives (`hooks`): Cursor's
 * `.cursor/hooks.json`, Codex's `.codex/hooks.json` (Claude Code's shape) and the `hooks` key of
 * Gemini CLI's `.gemini/settings.json`. Merged like `.claude/settings.json`: axme's entries are
 * found by their command (today's portable one or an earlier one, for any client), taken out
 * wherever they are and put back once where the first was; every other hook and key stays; a
 * second run changes no byte. Pure: text in, text out.
 */

/** A client with a hook file. */
type HookClient = Pick<ClientAdapter, 'id' | 'label'> & { hooks: ClientHooks };

// an earlier axme's hook by path, for another client: `…/axme.cjs hook <event> --client <client>`
const PATH_CLIENT_HOOK_RE = new RegExp(`(?:^|[\\s'"/])axme(?:\\.cjs)?['"]?\\s+hook\\s+(?:${HOOK_EVENT_NAMES.join('|')})\\s+--client\\s+[a-z-]+\\b`);

/** Whether a hook command is one of axme's (any event, any client, today's form or an earlier one). */
function isAxmeClientHook(command: unknown): boolean {
  return isAxmeHookCommand(command) || (typeof command === 'string' && PATH_CLIENT_HOOK_RE.test(command));
}

/** The file's text with axme's hooks in place (created when `text` is null). */
export function mergeClientHooks(client: HookClient, text: string | null, path: string): string {
  const { events, layout } = client.hooks;
  const config = text === null ? {} : parseJsonObject(text, path);
  checkVersion(config, client, path);
  const hooks = hooksOf(config, client, path);
  const { hooks: rest, at } = withoutOurs(hooks, client.hooks, path);
  for (const spec of events) {
    const list = (rest[spec.event] as unknown[] | undefined) ?? [];
    const i = at[spec.event] ?? list.length;
    rest[spec.event] = [...list.slice(0, i), layout.entry(hookCommand(spec.hook, client.id), spec), ...list.slice(i)];
  }
  // a format that says its version (Cursor's): a file without one gets it first
  const head = layout.version !== undefined && config.version === undefined ? { version: layout.version } : {};
  return renderJson({ ...head, ...config, hooks: rest }, text ?? undefined);
}

/**
 * The file's text without axme's hooks: an event left empty goes, so does a `hooks` object left
 * empty, and null when nothing else is left (the file goes; for Cursor, `version` alone is
 * nothing). The same text when it holds no hook of axme's.
 */
export function removeClientHooks(client: HookClient, text: string, path: string): string | null {
  const config = parseJsonObject(text, path);
  const hooks = hooksOf(config, client, path);
  const { hooks: rest, at, emptied } = withoutOurs(hooks, client.hooks, path);
  if (!Object.keys(at).length) return text;
  for (const event of emptied) delete rest[event];
  const left: Json = { ...config, hooks: rest };
  if (!Object.keys(rest).length) delete left.hooks;
  const keys = Object.keys(left);
  if (!keys.length || (client.hooks.layout.version !== undefined && keys.length === 1 && keys[0] === 'version')) return null;
  return renderJson(left, text);
}

/** The client's event names axme registers (for what init reports). */
export function hookEvents(client: HookClient): string[] {
  return client.hooks.events.map((s) => s.event);
}

/**
 * The events without axme's entries (in every event, so a hook an earlier axme registered
 * elsewhere goes too), where the first one of each event was (`at`), and the events that held
 * nothing else (`emptied`). Cursor's lists hold commands; the others hold groups of commands.
 */
function withoutOurs(hooks: Json, spec: ClientHooks, path: string): { hooks: Json; at: Record<string, number>; emptied: string[] } {
  const rest: Json = { ...hooks };
  const at: Record<string, number> = {};
  const emptied: string[] = [];
  const written = new Set(spec.events.map((s) => s.event));
  for (const [event, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) {
      if (written.has(event)) throw shapeError(path, `"hooks.${event}" must be a list`);
      continue;
    }
    const kept: unknown[] = [];
    let first = -1;
    for (const item of list) {
      if (!spec.layout.grouped) {
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
      // a group without a hook of axme's stays as it is (an empty one too)
      if (foreign.length === item.hooks.length) {
        kept.push(item);
        continue;
      }
      if (foreign.length) kept.push({ ...item, hooks: foreign });
      // ours goes where the old one was (after the foreign hooks that shared its group)
      if (first < 0) first = kept.length;
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

function hooksOf(config: Json, client: HookClient, path: string): Json {
  if (config.hooks === undefined) return {};
  const version = client.hooks.layout.version;
  if (!isObject(config.hooks))
    throw shapeError(path, `"hooks" must be an object of events${version !== undefined ? ` (${client.label}: {"version": ${version}, "hooks": {…}})` : ''}`);
  return config.hooks;
}

/** A format with a version (Cursor's): a file of another version is refused. */
function checkVersion(config: Json, client: HookClient, path: string): void {
  const want = client.hooks.layout.version;
  if (want !== undefined && config.version !== undefined && config.version !== want)
    throw shapeError(path, `"version" is ${JSON.stringify(config.version)}: axme writes ${client.label}'s hooks format version ${want}`);
}

function shapeError(path: string, what: string): AxmeError {
  return new AxmeError('CONFIG', `${path}: ${what}: fix it, then run the command again; nothing was changed`, { path });
}
