import type { ClientAdapter } from './adapter.ts';
import { claudeCode } from './claude-code.ts';
import { claudeDesktop } from './claude-desktop.ts';
import { codex } from './codex.ts';
import { cursor } from './cursor.ts';
import { gemini } from './gemini.ts';
import type { ClientId, HOOK_PARTS } from './hook-registry.ts';
import { vscode } from './vscode.ts';
import { windsurf } from './windsurf.ts';

/**
 * The clients axme connects, one adapter each (`<client>.ts`): what `--agent` names, what init
 * writes and uninstall takes out, what doctor checks. Their order is the order init and uninstall
 * go through them and help lists them. The hook process reads the same clients' hook parts from
 * HOOK_PARTS (hook-registry.ts), without the rest: same clients, same order (the type below and a
 * test hold them together).
 */
const LIST = [claudeCode, cursor, vscode, gemini, codex, windsurf, claudeDesktop] as const satisfies readonly ClientAdapter[];
export const ADAPTERS: readonly ClientAdapter[] = LIST;

// every hook part has its adapter and every adapter its hook part, in the same order
type Ids<T extends readonly unknown[]> = { -readonly [K in keyof T]: T[K] extends { id: infer I } ? I : never };
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const inStep: Same<Ids<typeof LIST>, Ids<typeof HOOK_PARTS>> = true;
void inStep;

/** The adapter of `id`. */
export function adapterOf(id: ClientId): ClientAdapter {
  return ADAPTERS.find((a) => a.id === id)!;
}
