import { dirname, posix, win32 } from 'node:path';
import type { ClientAdapter } from './adapter.ts';
import { CLAUDE_DESKTOP_USER_FILE, claudeDesktopHook } from './claude-desktop.hook.ts';
import { userVariable } from './user-level.ts';

/**
 * Claude Desktop: its MCP servers are in a file of the user (`--user` only, user-level.ts), which
 * newer Microsoft Store builds keep elsewhere (`%LOCALAPPDATA%\Claude-Data\…`: not handled). No
 * project file, no hooks.
 */
export const claudeDesktop = {
  ...claudeDesktopHook,
  detect: null,
  user: {
    key: 'mcpServers',
    place: 'claude_desktop_config.json',
    path: (ctx) => {
      if (ctx.platform === 'win32') return win32.join(userVariable(ctx, 'APPDATA', 'Claude Desktop'), 'Claude', 'claude_desktop_config.json');
      return posix.join(
        userVariable(ctx, 'HOME', 'Claude Desktop'),
        ctx.platform === 'darwin' ? CLAUDE_DESKTOP_USER_FILE.darwin : CLAUDE_DESKTOP_USER_FILE.linux,
      );
    },
    // its own folder (`Claude/`): never `.config` or the home folder above it
    folders: (path) => [dirname(path)],
  },
  transcript: null,
} satisfies ClientAdapter;
