/** The agent-harness hook events axme answers (`axme hook <event>`). */
export const HOOK_EVENT_NAMES = ['pre-tool-use', 'post-tool-use', 'session-start', 'session-end', 'user-prompt-submit', 'pre-compact'] as const;
/** The git hooks axme installs and answers (`axme git-hook <name>`). */
export const GIT_HOOK_NAMES = ['commit-msg', 'pre-push', 'post-commit', 'post-merge', 'post-rewrite'] as const;
/**
 * The variables that choose which axme every hook starts, tried before anything else (a machine's
 * own choice: `axme init --local` writes them into the client's uncommitted settings). A command an
 * agent runs may not set them: the hooks would start the program it names.
 */
export const AXME_LAUNCH_VARIABLES = ['AXME_BIN', 'AXME_NODE'] as const;
/** What marks a git hook file (or a line of a husky one) as axme's. */
export const GIT_HOOK_MARK = '# axme-hook';
/**
 * A client's `--client` name, as the files that start a hook hold it. Which names axme speaks is
 * the adapters' registry's (src/setup/clients/hook-registry.ts: HOOK_CLIENT_NAMES, HookClientId).
 */
export type HookClientName = string;
