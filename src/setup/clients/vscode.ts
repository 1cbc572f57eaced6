import { mcpServerEntry } from '../launch.ts';
import type { ClientAdapter } from './adapter.ts';
import { bearerHeaders, NO_STDIO } from './remote.ts';
import { vscodeHook } from './vscode.hook.ts';

/**
 * VS Code (its Copilot agent): the server in `.vscode/mcp.json` (under `servers`) and the
 * instructions Copilot reads. axme does not speak its hook protocol: no hooks.
 */
export const vscode = {
  ...vscodeHook,
  detect: '.vscode',
  mcp: {
    file: '.vscode/mcp.json',
    format: { kind: 'json', key: 'servers' },
    entry: () => ({ type: 'stdio', ...mcpServerEntry() }),
    remote: (server) => ({ ...NO_STDIO, type: 'http', url: server.url, ...bearerHeaders(server, (v) => `\${env:${v}}`) }),
  },
  instructions: { file: '.github/copilot-instructions.md', kind: 'section' },
  transcript: null,
} satisfies ClientAdapter;
