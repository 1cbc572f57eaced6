import { homedir } from 'node:os';
import type { AxmeSelf } from '../model/axme-self.ts';
import type { PrLookup, PrState } from '../safety/evaluate.ts';
import { harnessOf } from '../session/owner.ts';
import type { HookProtocol } from '../setup/clients/hook-protocol.ts';
import { type HookClientId, hookProtocol } from '../setup/clients/hook-registry.ts';

/** What a hook handler may touch: its input, its output streams, the clock, the environment. */
export interface HookIO {
  /** the JSON payload the harness wrote to stdin */
  stdin: string;
  /** the client whose hook this is: its sessions are mapped under its name */
  client: HookClientId;
  /** the client's hook protocol: how its payload reads and how it is answered */
  protocol: HookProtocol;
  /** the folder this axme's code runs from (guarded: the agent may not change what checks it); null when unknown */
  installDir: string | null;
  /** the axme that background work runs (the sync, the auditor, the search index): never the host's own script when the hook is answered inside another program; null where none can be started */
  self: AxmeSelf | null;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  /** the hook process's own folder (the payload's `cwd` wins) */
  cwd: string;
  home: string;
  now: () => Date;
  /** the harness process that owns the sessions this hook creates, null when none does (a hook fed by hand from a terminal); looked up only when a session is touched */
  ownerPid: () => number | null;
  version: string;
  /** PR state for `#!axme pr=N` markers; default: GitHub through Octokit (loaded only when a marker names a PR) */
  lookupPr?: ((repo: string, pr: number) => Promise<PrState | PrLookup>) | undefined;
  /** when the event's answer is due (`performance.now()` time): set by runEvent from the event's deadline; absent outside it */
  answerBy?: number;
  /** loads the heavy half (knowledge layer, git): only when the cached policy is stale or for context */
  loadStoreWork: () => Promise<typeof import('./store-work.ts')>;
  /** loads the query at the memory tip (dist/tip-search.cjs: the index file, no store), where the launcher runs the hook */
  loadTipSearch?: (() => typeof import('./tip-recall.ts')) | undefined;
}

declare const AXME_VERSION: string | undefined;

/**
 * The HookIO of a real hook process (the launcher's fast path and `axme hook` through the full
 * CLI): what differs between them is passed in, the rest comes from the process.
 */
export function processHookIO(
  opts: Pick<HookIO, 'stdin' | 'stdout' | 'stderr' | 'env' | 'cwd' | 'loadStoreWork' | 'loadTipSearch' | 'self'> & {
    client?: HookClientId;
    installDir?: string | null;
  },
): HookIO {
  const fixed = opts.env.AXME_NOW;
  const { client = 'claude-code', installDir, ...rest } = opts;
  return {
    ...rest,
    installDir: installDir ?? null,
    client,
    protocol: hookProtocol(client),
    home: opts.env.HOME || homedir(),
    now: () => (fixed ? new Date(fixed) : new Date()),
    // the harness itself, not the shell it runs hook commands in: git hooks find the session by it
    ownerPid: () => harnessOf(process.ppid),
    version: typeof AXME_VERSION === 'string' ? AXME_VERSION : 'dev',
  };
}
