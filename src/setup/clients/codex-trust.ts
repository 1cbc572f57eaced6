import { createHash } from 'node:crypto';
import { readFileSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { isAxmeHookCommand } from '../agent-files.ts';
import type { ProbeReadiness } from './adapter.ts';

/**
 * What Codex needs before it runs a project's `.codex/hooks.json` — and skips without a word when
 * it is missing: the project trusted (`[projects."<root>"] trust_level = "trusted"`) and each hook
 * trusted, in `$CODEX_HOME/config.toml` (`~/.codex/config.toml`):
 * `[hooks.state."<root>/.codex/hooks.json:<event>:<group>:<hook>"] trusted_hash = "sha256:…"`, the
 * event in Codex's snake_case (`pre_tool_use`), the group's and the hook's places in the file.
 * The hash is Codex's: SHA-256 of the hook's normalised identity (event, matcher, the one command
 * with its timeout, `async`, `statusMessage`) as JSON with sorted keys — checked against what
 * Codex 0.169's `hooks/list` reports. Codex trusts a hook when a person accepts it (`/hooks`); axme
 * only reads the file and says what is missing.
 */

/** Codex's folder of the user: `$CODEX_HOME`, else `~/.codex`. */
export function codexHome(env: NodeJS.ProcessEnv): string {
  return env.CODEX_HOME || join(env.HOME || homedir(), '.codex');
}

/** An event's name in Codex's keys and hashes: `PreToolUse` → `pre_tool_use`. */
export function codexEventLabel(event: string): string {
  return event.replace(/(?<=[a-z0-9])([A-Z])/g, '_$1').toLowerCase();
}

/** A command hook of a `.codex/hooks.json` group, as the file holds it. */
export interface CodexCommandHook {
  command: string;
  timeout?: number;
  async?: boolean;
  statusMessage?: string;
}

/** Codex clamps a SessionEnd hook's timeout to this many seconds (and the hash has the clamped one). */
const SESSION_END_MAX_S = 3;
/** Events whose matcher Codex ignores (so does its hash). */
const NO_MATCHER = new Set(['user_prompt_submit', 'stop']);

/** The hash Codex trusts a command hook by (`sha256:<hex>`). */
export function codexHookHash(event: string, matcher: string | undefined, hook: CodexCommandHook): string {
  const label = codexEventLabel(event);
  let timeout = Math.max(1, hook.timeout ?? 600);
  if (label === 'session_end') timeout = Math.min(timeout, SESSION_END_MAX_S);
  const handler = {
    type: 'command',
    command: hook.command,
    timeout,
    async: hook.async ?? false,
    ...(hook.statusMessage !== undefined ? { statusMessage: hook.statusMessage } : {}),
  };
  const identity = { event_name: label, ...(matcher !== undefined && !NO_MATCHER.has(label) ? { matcher } : {}), hooks: [handler] };
  return `sha256:${createHash('sha256')
    .update(JSON.stringify(sorted(identity)))
    .digest('hex')}`;
}

/** `v` with every object's keys in order (serde_json's canonical form in Codex). */
function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
    );
  return v;
}

/** One of axme's hooks in a `.codex/hooks.json`: its event, key and hash. */
export interface CodexHookState {
  event: string;
  key: string;
  hash: string;
}

/** axme's hooks in the text of `<root>/.codex/hooks.json`, with the key and hash Codex trusts each by. */
export function axmeCodexHooks(root: string, hooksText: string): CodexHookState[] {
  const file = join(root, '.codex', 'hooks.json');
  const events = (JSON.parse(hooksText) as { hooks?: Record<string, unknown> }).hooks ?? {};
  const out: CodexHookState[] = [];
  for (const [event, groups] of Object.entries(events)) {
    if (!Array.isArray(groups)) continue;
    groups.forEach((group: { matcher?: unknown; hooks?: unknown }, i) => {
      if (!group || !Array.isArray(group.hooks)) return;
      group.hooks.forEach((hook: CodexCommandHook & { type?: unknown }, j) => {
        if (!hook || hook.type !== 'command' || !isAxmeHookCommand(hook.command)) return;
        out.push({
          event,
          key: `${file}:${codexEventLabel(event)}:${i}:${j}`,
          hash: codexHookHash(event, typeof group.matcher === 'string' ? group.matcher : undefined, hook),
        });
      });
    });
  }
  return out;
}

/**
 * Whether Codex will run axme's hooks of `<root>/.codex/hooks.json` (`hooksText`): the project
 * trusted, and each hook trusted with the hash it has now and not turned off; what is missing and
 * how to trust otherwise. `$CODEX_HOME/config.toml` is read, never written.
 */
export function codexTrust(root: string, env: NodeJS.ProcessEnv, hooksText: string): ProbeReadiness {
  const config = join(codexHome(env), 'config.toml');
  let state: { projects?: Record<string, { trust_level?: unknown }>; hooks?: { state?: Record<string, { trusted_hash?: unknown; enabled?: unknown }> } };
  try {
    state = parseToml(readTextOr(config)) as typeof state;
  } catch (err) {
    return {
      ok: false,
      detail: `${config} is not valid TOML (${(err as Error).message.split('\n')[0]}): Codex cannot read whether it trusts this project and its hooks`,
      fix: `fix ${config}`,
    };
  }
  // Codex names the project by its folder; a symbolic link on the way may be resolved
  const roots = [...new Set([root, realOr(root)])];
  const trust = roots.map((r) => state.projects?.[r]?.trust_level).find((t) => t !== undefined);
  if (trust !== 'trusted') {
    const how = `[projects.${JSON.stringify(root)}] trust_level = "trusted"`;
    return {
      ok: false,
      detail: `Codex does not trust this project (${trust === undefined ? `no ${how} in ${config}` : `trust_level = ${JSON.stringify(trust)}`}): it runs none of .codex/hooks.json`,
      fix: `trust the folder when Codex asks (or put ${how} in ${config}), then run /hooks in Codex here and trust axme's hooks`,
    };
  }
  const hooks = axmeCodexHooks(root, hooksText);
  const states = state.hooks?.state ?? {};
  const missing: string[] = [];
  for (const h of hooks) {
    const s = roots.map((r) => states[h.key.replace(join(root, '.codex'), join(r, '.codex'))]).find((x) => x !== undefined);
    if (s?.enabled === false) missing.push(`${h.event} (turned off)`);
    else if (typeof s?.trusted_hash !== 'string') missing.push(`${h.event} (not trusted)`);
    else if (s.trusted_hash !== h.hash) missing.push(`${h.event} (changed since it was trusted)`);
  }
  if (missing.length) {
    return {
      ok: false,
      detail: `Codex skips axme's hooks it has not trusted, without a word: ${missing.join(', ')} (${config}, [hooks.state])`,
      fix: `run /hooks in Codex in this project and trust axme's hooks (${hooks.map((h) => h.event).join(', ')})${missing.some((m) => m.endsWith('(turned off)')) ? ', turning them on' : ''}`,
    };
  }
  return { ok: true, detail: `Codex trusts the project and axme's ${hooks.length} hooks` };
}

function readTextOr(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
