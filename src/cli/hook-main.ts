import { processHookIO } from '../hooks/io.ts';
import { runHook } from '../hooks/run.ts';
import { type HookClientId, hookProtocol } from '../setup/clients/hook-registry.ts';

/** Whether axme speaks the hook protocol of `--client <name>` (the launcher hands anything else to the full CLI, which says so). */
export { isHookClient } from '../setup/clients/hook-registry.ts';

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
 */
export interface HookProcess {
  readStdin: () => string;
  writeAll: (fd: number, text: string) => void;
  loadStoreWork: () => Promise<typeof import('../hooks/store-work.ts')>;
  /** the query at the memory tip (dist/tip-search.cjs), required by the launcher */
  loadTipSearch?: () => typeof import('../hooks/tip-recall.ts');
}

/** Runs the hook and exits with its code: pending handles (a git child, a socket) must not keep the harness waiting. */
export async function hookMain(event: string, client: HookClientId, p: HookProcess): Promise<never> {
  let code: number;
  try {
    const io = processHookIO({
      client,
      stdin: p.readStdin(),
      // plain descriptor writes: touching process.stdout on a pipe loads the net stack (~2 ms)
      stdout: (t) => p.writeAll(1, t),
      stderr: (t) => p.writeAll(2, t),
      env: process.env,
      cwd: process.cwd(),
      loadStoreWork: p.loadStoreWork,
      loadTipSearch: p.loadTipSearch,
      // this bundle's folder (dist/): the code that checks the agent is not the agent's to change
      installDir: typeof __dirname === 'string' ? __dirname : null,
    });
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
