import { runGitHook } from '../hooks/git/run.ts';

/**
 * `axme git-hook <name>` on the executable's fast path: built as its own file (dist/git-hook.cjs)
 * that the launcher requires only for a git hook, so the agent's pre-tool-use hook, which runs
 * on every tool call, does not parse the git hooks' code.
 */

declare const AXME_VERSION: string | undefined;

/** `axme git-hook <name> [args..]`: the git hooks, answered without the CLI (docs/git-hooks.md). */
export async function gitHook(
  name: string,
  hookArgs: string[],
  io: { readStdin: () => string; writeAll: (fd: number, text: string) => void; storeWork: string },
): Promise<void> {
  const fixed = process.env.AXME_NOW;
  const now = fixed ? new Date(fixed) : null;
  if (now && Number.isNaN(now.getTime())) {
    io.writeAll(2, `axme: AXME_NOW=${fixed} is not an ISO 8601 date-time\n`);
    process.exit(2);
  }
  const code = await runGitHook(name, {
    args: hookArgs,
    // only pre-push and post-rewrite get data on stdin; the others may inherit a terminal
    stdin: name === 'pre-push' || name === 'post-rewrite' ? io.readStdin() : '',
    cwd: process.cwd(),
    env: process.env,
    stdout: (t) => io.writeAll(1, t),
    stderr: (t) => io.writeAll(2, t),
    now: () => now ?? new Date(),
    version: typeof AXME_VERSION === 'string' ? AXME_VERSION : 'dev',
    loadStoreWork: () => import(io.storeWork),
  });
  process.exit(code);
}
