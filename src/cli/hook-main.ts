import { processHookIO } from '../hooks/io.ts';
import { runHook } from '../hooks/run.ts';
import { type HookClientId, hookProtocol } from '../setup/clients/hook-registry.ts';
import { type HookProcess, ownProcessHookIO } from './hook-process.ts';

/** Whether axme speaks the hook protocol of `--client <name>` (the launcher hands anything else to the full CLI, which says so). */
export { isHookClient } from '../setup/clients/hook-registry.ts';
export type { HookProcess } from './hook-process.ts';

/**
 * The pieces hookMain runs a hook with, for a caller that answers many hook calls in one process
 * (test/effects/driver.mjs: the hook's decision for each case, the binary's path sampled beside it).
 */
export { processHookIO, runHook };

/**
 * `axme hook <event> [--client <name>]` in a process of its own: the hooks and the safety engine,
 * built as dist/hook.cjs, which the launcher runs through the CLI loader's code cache
 * (cli-loader.ts loadHook) — the engine is compiled once per build, not on every tool call.
 * What only a real module can do is passed in: the launcher's stdin and stdout, and the import()
 * of the hooks' slow half (a script compiled by vm.Script cannot run import()).
 *
 * Runs the hook and exits with its code: pending handles (a git child, a socket) must not keep the harness waiting.
 */
export async function hookMain(event: string, client: HookClientId, p: HookProcess): Promise<never> {
  let code: number;
  try {
    const io = ownProcessHookIO(client, p);
    const deadline = Number(process.env.AXME_HOOK_DEADLINE_MS) || undefined;
    code = await runHook(event, io, deadline);
  } catch (err) {
    // runHook answers every failure itself; this is the last guard: never leave a call unanswered
    const msg = `axme hook ${event}: internal error: ${(err as Error)?.message ?? String(err)}`;
    if (event === 'pre-tool-use') p.writeAll(1, hookProtocol(client).deny(`${msg}; the call was denied to stay safe. Run \`axme doctor\``));
    else p.writeAll(2, `${msg}\n`);
    code = event === 'pre-tool-use' ? 0 : 1;
  }
  process.exit(code);
}
