import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where a model's files are fetched from when `AXME_MODELS_URL` does not say: `<base>/<source>/resolve/<revision>/<file>`. */
export const DEFAULT_MODELS_URL = 'https://huggingface.co';
/** The file in the models folder naming the model search uses (written by `axme models pull`). */
export const CURRENT_FILE = 'current';
/** The copy of its manifest an installed model keeps; written last, so its presence means every file was verified. */
export const MANIFEST_FILE = 'manifest.json';

/**
 * The user's models folder: `$XDG_CACHE_HOME/axme/models`, default `~/.cache/axme/models`
 * (machine-local: never in a repository, shared by every repository of the user).
 */
export function modelsDir(env: NodeJS.ProcessEnv): string | null {
  const base = env.XDG_CACHE_HOME || (env.HOME ? join(env.HOME, '.cache') : env.LOCALAPPDATA || null);
  return base ? join(base, 'axme', 'models') : null;
}

/**
 * The base URL models are downloaded from: `AXME_MODELS_URL` (a mirror, or a server on this
 * machine), else DEFAULT_MODELS_URL. An environment variable only: nothing a synced store says
 * chooses where axme downloads from (docs/security.md).
 */
export function modelsBaseUrl(env: NodeJS.ProcessEnv): string {
  return (env.AXME_MODELS_URL || DEFAULT_MODELS_URL).replace(/\/+$/, '');
}

/**
 * The name of the model search ranks by meaning with: `AXME_SEARCH_MODEL` (`off`: none), else the
 * one `axme models pull` last installed; null when none. Reads one small file: the hooks call it.
 */
export function currentModelName(env: NodeJS.ProcessEnv): string | null {
  const chosen = env.AXME_SEARCH_MODEL;
  if (chosen) return chosen === 'off' ? null : chosen;
  const dir = modelsDir(env);
  if (!dir) return null;
  try {
    return readFileSync(join(dir, CURRENT_FILE), 'utf8').trim() || null;
  } catch {
    return null;
  }
}

/** The folder of an installed model, or null when it is not installed (no verified manifest). */
export function installedModelDir(env: NodeJS.ProcessEnv, name: string): string | null {
  const dir = modelsDir(env);
  if (!dir || !/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(name)) return null;
  const at = join(dir, name);
  return existsSync(join(at, MANIFEST_FILE)) ? at : null;
}
