import { mcpServerEntry } from '../launch.ts';
import type { ClientAdapter, HookLayout } from './adapter.ts';
import { CLAUDE_SETTINGS, claudeCodeHook } from './claude-code.hook.ts';
import { bearerHeaders, NO_STDIO } from './remote.ts';

/** Claude Code's shape of a hooks file (Codex's too): an event lists groups of commands, each group with its matcher. */
export const CLAUDE_HOOK_LAYOUT: HookLayout = {
  grouped: true,
  entry: (command, spec) => ({ ...(spec.matcher ? { matcher: spec.matcher } : {}), hooks: [{ type: 'command', command, timeout: spec.timeout }] }),
};

/**
 * What Claude Code's PreToolUse answer decided (Codex answers alike): silence lets the call through,
 * and so does an allow or a rewrite of the call (`updatedInput`: with the kernel sandbox on, the
 * shell command rewritten into it, which Codex honours only beside `permissionDecision: "allow"`).
 */
export function claudeDecision(stdout: string): 'deny' | 'pass' | null {
  if (stdout.trim() === '') return 'pass';
  try {
    const answer = (JSON.parse(stdout) as { hookSpecificOutput?: { permissionDecision?: unknown; updatedInput?: unknown } }).hookSpecificOutput;
    if (answer?.permissionDecision === 'deny') return 'deny';
    if (answer?.permissionDecision === 'allow') return 'pass';
    return answer && answer.permissionDecision === undefined && answer.updatedInput !== undefined ? 'pass' : null;
  } catch {
    return null;
  }
}

/**
 * Claude Code, the default client: plain `axme init` writes its files (agent-files.ts) — its hooks
 * in `.claude/settings.json` (PreToolUse for every tool; PostToolUse for the editing tools; the
 * session start, which may recover earlier sessions first, 30 s; the session end; each prompt;
 * the compaction's checkpoint, 30 s), the server in `.mcp.json`
 * and the section of `CLAUDE.md`.
 */
export const claudeCode = {
  ...claudeCodeHook,
  detect: null,
  isDefault: true,
  mcp: {
    file: '.mcp.json',
    format: { kind: 'json', key: 'mcpServers' },
    entry: mcpServerEntry,
    remote: (server) => ({ ...NO_STDIO, type: 'http', url: server.url, ...bearerHeaders(server, (v) => `\${${v}}`) }),
  },
  hooks: {
    file: CLAUDE_SETTINGS,
    events: [
      { event: 'PreToolUse', hook: 'pre-tool-use', timeout: 10 },
      { event: 'PostToolUse', hook: 'post-tool-use', matcher: 'Edit|Write|MultiEdit|NotebookEdit', timeout: 10 },
      { event: 'SessionStart', hook: 'session-start', timeout: 30 },
      { event: 'SessionEnd', hook: 'session-end', timeout: 10 },
      { event: 'UserPromptSubmit', hook: 'user-prompt-submit', timeout: 10 },
      { event: 'PreCompact', hook: 'pre-compact', timeout: 30 },
    ],
    layout: CLAUDE_HOOK_LAYOUT,
  },
  instructions: { file: 'CLAUDE.md', kind: 'section' },
  probe: {
    // no session_id: a check changes nothing, so the hook opens no session for it
    shellPayload: (root, command) => ({ transcript_path: '', cwd: root, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } }),
    decision: claudeDecision,
  },
  transcript: 'claude-code',
} satisfies ClientAdapter;
