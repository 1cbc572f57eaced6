import { type ClientHookPart, claudeAsk, claudeContext, claudeDeny, claudePromptContext, claudeShaped, claudeToolContext } from './hook-protocol.ts';

/** Claude Code's project settings, which hold axme's hooks, and the personal one beside it (`axme init --local`). */
export const CLAUDE_SETTINGS = '.claude/settings.json';
export const CLAUDE_LOCAL_SETTINGS = '.claude/settings.local.json';

/** The variable of Claude Code's settings `env` naming a program every Bash command runs through (the sandbox's way in). */
export const CLAUDE_SHELL_PREFIX = 'CLAUDE_CODE_SHELL_PREFIX';

/**
 * Claude Code, for the hook process: its payload is already in the common vocabulary, and its
 * answers are the ones the others borrow. Its settings (project, personal, the user's) install the
 * hooks; `.mcp.json` starts the server.
 */
export const claudeCodeHook = {
  id: 'claude-code',
  label: 'Claude Code',
  guarded: { project: [CLAUDE_SETTINGS, CLAUDE_LOCAL_SETTINGS, '.mcp.json'], home: [CLAUDE_SETTINGS] },
  protocol: {
    payload: (o) => claudeShaped(o),
    deny: claudeDeny,
    ask: claudeAsk,
    pass: '',
    context: claudeContext,
    promptContext: claudePromptContext,
    toolContext: claudeToolContext,
    sandbox: 'shell-prefix',
  },
} as const satisfies ClientHookPart;
