import { processHookIO } from '../hooks/io.ts';
import { axmeSelf } from '../model/axme-self.ts';
import type { HookClientId } from '../setup/clients/hook-registry.ts';

/**
 * What a hook process gets from the launcher that started it: what only a real module can do
 * (its stdin and stdout, the import() of the hooks' slow half: a script compiled by vm.Script
 * cannot run import()), and the query at the memory tip.
 */
export interface HookProcess {
  readStdin: () => string;
  writeAll: (fd: number, text: string) => void;
  loadStoreWork: () => Promise<typeof import('../hooks/store-work.ts')>;
  /** the query at the memory tip (dist/tip-search.cjs, or the prompt hook's own bundle), required by the launcher */
  loadTipSearch?: () => typeof import('../hooks/tip-recall.ts');
}

/** The hook's IO in a process of its own (hook-main.ts, prompt-hook-main.ts): the launcher's streams, this process's environment and folder. */
export function ownProcessHookIO(client: HookClientId, p: HookProcess) {
  return processHookIO({
    client,
    stdin: p.readStdin(),
    // plain descriptor writes: touching process.stdout on a pipe loads the net stack (~2 ms)
    stdout: (t) => p.writeAll(1, t),
    stderr: (t) => p.writeAll(2, t),
    env: process.env,
    cwd: process.cwd(),
    loadStoreWork: p.loadStoreWork,
    loadTipSearch: p.loadTipSearch,
    // the running bundle's folder (dist/): the code that checks the agent is not the agent's to change
    installDir: typeof __dirname === 'string' ? __dirname : null,
    // the launcher's own script: the axme this hook process is
    self: axmeSelf(process.execPath, process.argv[1]),
  });
}
