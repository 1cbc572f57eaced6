import { join } from 'node:path';

/**
 * The machine-local settings files (no schema here: the hooks' fast path reads their paths), first that sets a key wins: this clone's `<git common dir>/axme/config.yaml`
 * (never committed, never synced; the agent cannot write there), then the user's
 * `$XDG_CONFIG_HOME/axme/config.yaml` (default `~/.config/axme/config.yaml`).
 */
export interface LocalSettingsFiles {
  clone: string;
  user: string | null;
}

/** Where the two files are for a repository's common dir and environment. */
export function localSettingsFiles(commonDir: string, env: NodeJS.ProcessEnv): LocalSettingsFiles {
  const base = env.XDG_CONFIG_HOME || (env.HOME ? join(env.HOME, '.config') : null);
  return { clone: join(commonDir, 'axme', 'config.yaml'), user: base ? join(base, 'axme', 'config.yaml') : null };
}
