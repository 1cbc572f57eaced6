import type { ClientHookPart } from './hook-protocol.ts';

/** Windsurf's MCP servers, from the home folder (`%USERPROFILE%` on Windows). */
export const WINDSURF_USER_FILE = '.codeium/windsurf/mcp_config.json';

/** Windsurf, for the hook process: no hook protocol; its file of the user (`--user`) is guarded. */
export const windsurfHook = {
  id: 'windsurf',
  label: 'Windsurf',
  guarded: { project: [], home: [WINDSURF_USER_FILE] },
} as const satisfies ClientHookPart;
