import type { ClientHookPart } from './hook-protocol.ts';

/** Claude Desktop's configuration, from the home folder: on macOS, and on Linux. (Windows: `%APPDATA%\Claude\…`.) */
export const CLAUDE_DESKTOP_USER_FILE = {
  darwin: 'Library/Application Support/Claude/claude_desktop_config.json',
  linux: '.config/Claude/claude_desktop_config.json',
} as const;

/** Claude Desktop, for the hook process: no hook protocol; its file of the user (`--user`) is guarded. */
export const claudeDesktopHook = {
  id: 'claude-desktop',
  label: 'Claude Desktop',
  guarded: { project: [], home: [CLAUDE_DESKTOP_USER_FILE.darwin, CLAUDE_DESKTOP_USER_FILE.linux] },
} as const satisfies ClientHookPart;
