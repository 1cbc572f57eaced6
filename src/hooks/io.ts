import type { PrLookup, PrState } from '../safety/evaluate.ts';

/** What a hook handler may touch: its input, its output streams, the clock, the environment. */
export interface HookIO {
  /** the JSON payload the harness wrote to stdin */
  stdin: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  /** the hook process's own folder (the payload's `cwd` wins) */
  cwd: string;
  home: string;
  now: () => Date;
  /** the harness process: it owns the sessions this hook creates */
  ownerPid: number;
  version: string;
  /** PR state for `#!axme pr=N` markers; default: GitHub through Octokit (loaded only when a marker names a PR) */
  lookupPr?: ((repo: string, pr: number) => Promise<PrState | PrLookup>) | undefined;
  /** loads the heavy half (knowledge layer, git): only when the cached policy is stale or for context */
  loadSlow: () => Promise<typeof import('./slow.ts')>;
}
