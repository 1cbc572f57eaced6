import { mcpServerEntry } from '../launch.ts';
import { type ClientAdapter, jsonDecision } from './adapter.ts';
import { cursorHook } from './cursor.hook.ts';
import { bearerHeaders, NO_STDIO } from './remote.ts';

/**
 * Cursor: `.cursor/mcp.json`, its hooks in `.cursor/hooks.json` (`{"version": 1, "hooks": {…}}`, an
 * event lists commands), a rule that always applies. Its blocking hooks carry `failClosed`: a
 * crash or a timeout blocks too. It runs a project's hooks only in a trusted workspace.
 */
export const cursor = {
  ...cursorHook,
  detect: '.cursor',
  mcp: {
    file: '.cursor/mcp.json',
    format: { kind: 'json', key: 'mcpServers' },
    entry: () => ({ ...mcpServerEntry(), env: {} }),
    remote: (server) => ({ ...NO_STDIO, url: server.url, ...bearerHeaders(server, (v) => `\${env:${v}}`) }),
  },
  hooks: {
    file: '.cursor/hooks.json',
    // no event before a file edit among these: edits are recorded after (afterFileEdit), not checked before
    events: [
      { event: 'beforeShellExecution', hook: 'pre-tool-use', timeout: 10, failClosed: true },
      { event: 'beforeReadFile', hook: 'pre-tool-use', timeout: 10, failClosed: true },
      { event: 'beforeMCPExecution', hook: 'pre-tool-use', timeout: 10, failClosed: true },
      { event: 'afterFileEdit', hook: 'post-tool-use', timeout: 10 },
      { event: 'sessionStart', hook: 'session-start', timeout: 30 },
      { event: 'sessionEnd', hook: 'session-end', timeout: 10 },
    ],
    layout: { grouped: false, version: 1, entry: (command, spec) => ({ command, timeout: spec.timeout, ...(spec.failClosed ? { failClosed: true } : {}) }) },
    note: "Cursor runs a project's hooks only in a trusted workspace",
  },
  instructions: { file: '.cursor/rules/axme.mdc', kind: 'cursor-rule' },
  probe: {
    shellPayload: (root, command) => ({ hook_event_name: 'beforeShellExecution', workspace_roots: [root], cwd: root, command }),
    decision: (stdout) => jsonDecision(stdout, (o) => o.permission),
  },
  transcript: null,
} satisfies ClientAdapter;
