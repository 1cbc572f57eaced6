import type { ClientHookPart } from './hook-protocol.ts';

/** VS Code, for the hook process: no hook protocol; its project MCP file is guarded. */
export const vscodeHook = {
  id: 'vscode',
  label: 'VS Code',
  guarded: { project: ['.vscode/mcp.json'], home: [] },
} as const satisfies ClientHookPart;
