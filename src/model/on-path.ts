import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

/**
 * The executable `cmd` resolves to in `env.PATH` (a path with a separator is checked as given), or
 * null. Reads the file system only: nothing is run.
 */
export function findOnPath(cmd: string, env: NodeJS.ProcessEnv): string | null {
  if (!cmd) return null;
  if (cmd.includes('/') || cmd.includes('\\')) return executable(isAbsolute(cmd) ? cmd : resolve(cmd)) ? cmd : null;
  const exts = process.platform === 'win32' ? ['', ...(env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';').filter(Boolean)] : [''];
  for (const dir of (env.PATH ?? env.Path ?? '').split(delimiter)) {
    if (!dir) continue;
    for (const ext of exts) {
      const candidate = join(dir, cmd + ext);
      if (executable(candidate)) return candidate;
    }
  }
  return null;
}

function executable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
