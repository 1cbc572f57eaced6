/** The hook names axme answers, in a module light enough for the CLI's command table. */
export const HOOK_EVENT_NAMES = ['pre-tool-use', 'post-tool-use', 'session-start', 'session-end'] as const;
export const GIT_HOOK_NAMES = ['commit-msg', 'pre-push', 'post-commit', 'post-rewrite'] as const;
