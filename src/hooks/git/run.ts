import type { GIT_HOOK_NAMES } from '../../model/hook-names.ts';
import { commitMsg } from './commit-msg.ts';
import type { GitHookIO } from './context.ts';
import { postCommit } from './post-commit.ts';
import { postMerge } from './post-merge.ts';
import { postRewrite } from './post-rewrite.ts';
import { prePush } from './pre-push.ts';

/** `axme git-hook <name>`: the git hooks axme answers. */
export const GIT_HOOKS = {
  'commit-msg': commitMsg,
  'pre-push': prePush,
  'post-commit': postCommit,
  'post-merge': postMerge,
  'post-rewrite': postRewrite,
} as const satisfies Record<(typeof GIT_HOOK_NAMES)[number], (io: GitHookIO) => Promise<number>>;

/** Runs one git hook; the exit code is git's verdict (commit-msg and pre-push block on non-zero). */
export async function runGitHook(name: string, io: GitHookIO): Promise<number> {
  const handler = (GIT_HOOKS as Record<string, (io: GitHookIO) => Promise<number>>)[name];
  if (!handler) {
    io.stderr(`axme git-hook: unknown hook "${name}"; hooks: ${Object.keys(GIT_HOOKS).join(', ')}\n`);
    return 2;
  }
  try {
    return await handler(io);
  } catch (err) {
    io.stderr(`axme git-hook ${name}: ${(err as Error).message}\n`);
    // the blocking hooks fail closed; the informational ones never stop git
    return name === 'commit-msg' || name === 'pre-push' ? 1 : 0;
  }
}
