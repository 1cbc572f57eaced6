import { shellJoin } from '../model/shell-quote.ts';
import type { RepoFacts } from './repo-facts.ts';

/** What axme does for a git command that writes git's settings from the sandbox (sandbox-git-config.ts): `instead`, `after` or `note`, with its shell text. */
export type ConfigGrant = { kind: 'instead' | 'after' | 'note'; script: string };

/** What a judge of one git command is given: the command's folder, and what it may ask of the repository. */
export type JudgeAt = { cwd: string; facts: RepoFacts };

/** A branch's name: no path, URL or option. */
export const NAME = /^(?!-)(?!.*\.\.)[A-Za-z0-9_./-]+$/;
/** A remote's name: no path, URL or option. */
export const REMOTE_NAME = /^(?!-)[A-Za-z0-9_.-]+$/;

/** axme's git for its own lines outside the sandbox: in the command's folder, no pager, no hooks, no fsmonitor. */
export const gitOutside = (cwd: string, args: readonly string[]): string =>
  shellJoin(['git', '--no-pager', '-C', cwd, '-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', ...args]);

/** A grant that only says why (its script: the reason, put on stderr by the caller). */
export const note = (why: string): ConfigGrant => ({ kind: 'note', script: why });
/** A grant that runs axme's git line with `args` outside the sandbox, in place of the command. */
export const instead = (cwd: string, args: string[]): ConfigGrant => ({ kind: 'instead', script: gitOutside(cwd, args) });
