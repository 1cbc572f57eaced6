import { EVENT_DEADLINE_MS, runEvent } from '../hooks/run-event.ts';
import { promptRecallAtTip } from '../hooks/tip-recall.ts';
import { userPromptSubmit } from '../hooks/user-prompt-submit.ts';
import { type HookClientId, isHookClient } from '../setup/clients/hook-registry.ts';
import { type HookProcess, ownProcessHookIO } from './hook-process.ts';

/** Whether axme speaks the hook protocol of `--client <name>` (the launcher hands anything else to the full CLI, which says so). */
export { isHookClient };

/**
 * `axme hook user-prompt-submit [--client <name>]` in a process of its own, built as
 * dist/prompt-hook.cjs: the prompt hook and the query at the memory tip in one small bundle, which
 * the launcher runs through the CLI loader's code cache (cli-loader.ts loadPromptHook) instead of
 * the hooks' bundle (all the hooks and the safety engine) and the tip's query besides
 * (docs/benchmarks.md, "The prompt hook's own bundle, without TurboFan"). The same handler as `axme hook
 * user-prompt-submit` anywhere else; the store answers when the index file cannot (store-work.ts).
 */
export async function promptHookMain(client: HookClientId, p: Omit<HookProcess, 'loadTipSearch'>): Promise<never> {
  const event = 'user-prompt-submit';
  let code: number;
  try {
    const io = ownProcessHookIO(client, { ...p, loadTipSearch: () => ({ promptRecallAtTip }) });
    code = await runEvent(event, userPromptSubmit, io, Number(process.env.AXME_HOOK_DEADLINE_MS) || EVENT_DEADLINE_MS[event]);
  } catch (err) {
    // never leave a prompt waiting on its recall: the prompt goes on without it
    p.writeAll(2, `axme hook ${event}: internal error: ${(err as Error)?.message ?? String(err)}\n`);
    code = 0;
  }
  process.exit(code);
}
