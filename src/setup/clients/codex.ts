import { mcpServerEntry } from '../launch.ts';
import type { ClientAdapter } from './adapter.ts';
import { CLAUDE_HOOK_LAYOUT, claudeDecision } from './claude-code.ts';
import { codexHook } from './codex.hook.ts';
import { codexTrust } from './codex-trust.ts';

/**
 * Codex: the server is the table `[mcp_servers.axme]` of `.codex/config.toml` (codex-toml.ts), which
 * names the variables Codex must pass on to it (`env_vars`), its
 * hooks `.codex/hooks.json` (Claude Code's shape), its agent reads `AGENTS.md`. Codex runs a
 * project's hooks only when it trusts the project and each hook (doctor reads both, codex-trust.ts).
 * No PostToolUse: its one editing tool, `apply_patch`, sends none, and its files are recorded at
 * PreToolUse (codex.hook.ts) — a second hook process on every call would record nothing. Codex
 * cuts a SessionEnd hook off after 3 s, so it is given 3.
 */
export const codex = {
  ...codexHook,
  detect: '.codex',
  mcp: {
    file: '.codex/config.toml',
    format: { kind: 'toml' },
    // Codex starts MCP servers with a short list of the environment: a machine's own axme (AXME_BIN, AXME_NODE) must be passed on by name
    entry: () => ({ ...mcpServerEntry(), env_vars: ['AXME_BIN', 'AXME_NODE'] }),
    remote: (server) => ({ url: server.url, ...(server.tokenEnv ? { bearer_token_env_var: server.tokenEnv } : {}) }),
    note: (root) =>
      `Codex loads a project's .codex/config.toml only when it trusts the project: [projects.${JSON.stringify(root)}] trust_level = "trusted" in ~/.codex/config.toml`,
  },
  hooks: {
    file: '.codex/hooks.json',
    events: [
      { event: 'PreToolUse', hook: 'pre-tool-use', timeout: 10 },
      { event: 'SessionStart', hook: 'session-start', timeout: 30 },
      { event: 'SessionEnd', hook: 'session-end', timeout: 3 },
      { event: 'UserPromptSubmit', hook: 'user-prompt-submit', timeout: 10 },
      { event: 'PreCompact', hook: 'pre-compact', timeout: 30 },
    ],
    layout: CLAUDE_HOOK_LAYOUT,
    note: 'Codex runs .codex/hooks.json only for a trusted project; newer versions also ask you to trust each hook (/hooks in Codex), older ones need [features] hooks = true in ~/.codex/config.toml',
  },
  instructions: { file: 'AGENTS.md', kind: 'section' },
  probe: {
    shellPayload: (root, command) => ({ hook_event_name: 'PreToolUse', cwd: root, tool_name: 'Bash', tool_input: { command } }),
    decision: claudeDecision,
    ready: codexTrust,
  },
  transcript: 'codex',
} satisfies ClientAdapter;
