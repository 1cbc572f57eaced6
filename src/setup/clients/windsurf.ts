import { dirname, posix, win32 } from 'node:path';
import type { ClientAdapter } from './adapter.ts';
import { userVariable } from './user-level.ts';
import { WINDSURF_USER_FILE, windsurfHook } from './windsurf.hook.ts';

/**
 * Windsurf: its MCP servers are in a file of the user (`--user`, user-level.ts); its rules,
 * `.windsurfrules`, are the project's (written whenever it is named). No hooks.
 */
export const windsurf = {
  ...windsurfHook,
  detect: null,
  user: {
    key: 'mcpServers',
    place: `~/${WINDSURF_USER_FILE}`,
    path: (ctx) =>
      ctx.platform === 'win32'
        ? win32.join(userVariable(ctx, 'USERPROFILE', 'Windsurf'), WINDSURF_USER_FILE)
        : posix.join(userVariable(ctx, 'HOME', 'Windsurf'), WINDSURF_USER_FILE),
    // its own folder and `.codeium` above it: never the home folder
    folders: (path) => [dirname(path), dirname(dirname(path))],
  },
  instructions: { file: '.windsurfrules', kind: 'section' },
  transcript: null,
} satisfies ClientAdapter;
