import { join } from 'node:path';
import { claudeCodeHook } from './claude-code.hook.ts';
import { claudeDesktopHook } from './claude-desktop.hook.ts';
import { codexHook } from './codex.hook.ts';
import { cursorHook } from './cursor.hook.ts';
import { geminiHook } from './gemini.hook.ts';
import { type HookPayload, parseJsonObject } from './hook-payload.ts';
import type { HookProtocol } from './hook-protocol.ts';
import { vscodeHook } from './vscode.hook.ts';
import { windsurfHook } from './windsurf.hook.ts';

/**
 * The hook parts of the clients axme connects, in the order of the adapters' registry (ADAPTERS,
 * adapters.ts: each adapter is its hook part and the rest): what the hook process loads, without
 * the rest. The `--client` names, the guarded files and the protocol of a `--client` are all read
 * from here; the type checker and a test keep it in step with ADAPTERS.
 */
export const HOOK_PARTS = [claudeCodeHook, cursorHook, vscodeHook, geminiHook, codexHook, windsurfHook, claudeDesktopHook] as const;

/** A client axme connects (`--agent`). */
export type ClientId = (typeof HOOK_PARTS)[number]['id'];

/** Every client's `--agent` name, in the registry's order. */
export const CLIENT_IDS: readonly ClientId[] = HOOK_PARTS.map((p) => p.id);

type HookClient = Extract<(typeof HOOK_PARTS)[number], { protocol: HookProtocol }>;
/** A client whose hook protocol axme speaks (`axme hook <event> --client <name>`). */
export type HookClientId = HookClient['id'];

const hookClients = HOOK_PARTS.filter((p): p is HookClient => 'protocol' in p);

/** The `--client` names, sorted (the order `axme hook --help` lists them). */
export const HOOK_CLIENT_NAMES: readonly HookClientId[] = hookClients.map((p) => p.id).sort();

/** Whether `name` is a client whose hook protocol axme speaks. */
export function isHookClient(name: string): name is HookClientId {
  return (HOOK_CLIENT_NAMES as readonly string[]).includes(name);
}

/** The hook protocol of a `--client`. */
export function hookProtocol(client: HookClientId): HookProtocol {
  return hookClients.find((p) => p.id === client)!.protocol;
}

/** The hook input (`text`, JSON on stdin) in the common shape, as `protocol`'s client sent it. */
export function readPayload(text: string, protocol: HookProtocol): HookPayload {
  return protocol.payload(parseJsonObject(text));
}

/**
 * Every client's guarded files (its hook file, its MCP and config files): in the home folder, and
 * under the project's top `root` when there is one.
 */
export function clientGuardedFiles(root: string | null, home: string): string[] {
  const out = HOOK_PARTS.flatMap((p) => p.guarded.home.map((f) => join(home, f)));
  if (root !== null) out.push(...HOOK_PARTS.flatMap((p) => p.guarded.project.map((f) => join(root, f))));
  return [...new Set(out)];
}
