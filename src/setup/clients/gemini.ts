import { mcpServerEntry } from '../launch.ts';
import { type ClientAdapter, jsonDecision } from './adapter.ts';
import { geminiHook } from './gemini.hook.ts';
import { GEMINI_SETTINGS } from './gemini-compress.ts';
import { bearerHeaders, NO_STDIO } from './remote.ts';

/**
 * Gemini CLI: the server and the hooks share `.gemini/settings.json` (`mcpServers` and `hooks`;
 * the file's other settings stay); its agent reads `GEMINI.md`. Its hooks are named
 * `axme-<hook>` and count milliseconds; BeforeTool has no matcher (every tool is checked).
 */
export const gemini = {
  ...geminiHook,
  detect: '.gemini',
  mcp: {
    file: GEMINI_SETTINGS,
    format: { kind: 'json', key: 'mcpServers' },
    entry: mcpServerEntry,
    remote: (server) => ({ ...NO_STDIO, httpUrl: server.url, ...bearerHeaders(server, (v) => `\${${v}}`) }),
  },
  hooks: {
    file: GEMINI_SETTINGS,
    events: [
      { event: 'BeforeTool', hook: 'pre-tool-use', timeout: 10000 },
      { event: 'AfterTool', hook: 'post-tool-use', matcher: 'write_file|replace', timeout: 10000 },
      { event: 'SessionStart', hook: 'session-start', timeout: 30000 },
      { event: 'SessionEnd', hook: 'session-end', timeout: 10000 },
      { event: 'BeforeAgent', hook: 'user-prompt-submit', timeout: 10000 },
      { event: 'PreCompress', hook: 'pre-compact', timeout: 30000 },
    ],
    layout: {
      grouped: true,
      entry: (command, spec) => ({
        ...(spec.matcher ? { matcher: spec.matcher } : {}),
        hooks: [{ type: 'command', name: `axme-${spec.hook}`, command, timeout: spec.timeout }],
      }),
    },
  },
  instructions: { file: 'GEMINI.md', kind: 'section' },
  probe: {
    shellPayload: (root, command) => ({ hook_event_name: 'BeforeTool', cwd: root, tool_name: 'run_shell_command', tool_input: { command } }),
    decision: (stdout) => jsonDecision(stdout, (o) => o.decision),
  },
  transcript: 'gemini',
} satisfies ClientAdapter;
