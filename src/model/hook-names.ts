/** The agent-harness hook events axme answers (`axme hook <event>`). */
export const HOOK_EVENT_NAMES = ['pre-tool-use', 'post-tool-use', 'session-start', 'session-end'] as const;
/** The git hooks axme installs and answers (`axme git-hook <name>`). */
export const GIT_HOOK_NAMES = ['commit-msg', 'pre-push', 'post-commit', 'post-rewrite'] as const;
/**
 * The agent clients whose hook protocol axme speaks (`axme hook <event> --client <name>`):
 * each sends its own payload and reads its own answer (src/hooks/protocols.ts).
 */
export const HOOK_CLIENT_NAMES = ['claude-code', 'codex', 'cursor', 'gemini'] as const;
export type HookClientName = (typeof HOOK_CLIENT_NAMES)[number];
