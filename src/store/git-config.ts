import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RepoLocation } from './locate.ts';

/**
 * git's config files read as git reads them, without a git process (the hook's fast path): which
 * files, in which order, and a setting's value in one. What this reader does not follow (an
 * include, a continued line, an escape) is UNKNOWN: only git can tell.
 */

export const UNKNOWN = Symbol('unknown');

/** git's config files in the order it reads them (a later one wins): system, the user's, the repository's, the worktree's. */
export function configFiles(loc: Pick<RepoLocation, 'commonDir' | 'gitDir'>, env: NodeJS.ProcessEnv): string[] {
  const files: string[] = [];
  if (!/^(1|true|yes|on)$/i.test(env.GIT_CONFIG_NOSYSTEM ?? '')) files.push(env.GIT_CONFIG_SYSTEM || '/etc/gitconfig');
  if (env.GIT_CONFIG_GLOBAL !== undefined) files.push(env.GIT_CONFIG_GLOBAL);
  else if (env.HOME) files.push(join(env.XDG_CONFIG_HOME || join(env.HOME, '.config'), 'git', 'config'), join(env.HOME, '.gitconfig'));
  files.push(join(loc.commonDir, 'config'), join(loc.gitDir, 'config.worktree'));
  return files;
}

/**
 * The last value of `section.key` in a git config file's text (names case-insensitive, values
 * unquoted, comments dropped); null when it is not set; UNKNOWN for what this reader does not
 * follow (includes, continued lines, escapes).
 */
export function configValue(text: string, section: string, key: string): string | null | typeof UNKNOWN {
  let current = '';
  let found: string | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\s*([A-Za-z0-9.-]+)(\s+"[^"]*")?\s*\]\s*(?:[#;].*)?$/.exec(line);
    if (header) {
      // a subsection (`[core "x"]`) is another section
      current = header[1]!.toLowerCase() + (header[2] ? ` ${header[2].trim()}` : '');
      if (current === 'include' || current === 'includeif') return UNKNOWN;
      continue;
    }
    if (line.startsWith('[')) return UNKNOWN;
    if (current !== section) continue;
    const m = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (!m || m[1]!.toLowerCase() !== key) continue;
    const v = (m[2] ?? '').replace(/\s+[#;].*$/, '').trim();
    if (v.endsWith('\\') || v.includes('\\')) return UNKNOWN;
    found = /^"([^"]*)"$/.test(v) ? v.slice(1, -1) : v.includes('"') ? null : v;
    if (found === null) return UNKNOWN;
  }
  return found;
}

export function readOr(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/**
 * A setting's value as git reads it from its config files (configFiles: the last one wins), by its
 * dotted name (`remote.origin.url`, `branch.autoSetupMerge`; a subsection as written, the rest in
 * any case); null when unset; UNKNOWN where only git can tell.
 */
export function settingOf(loc: Pick<RepoLocation, 'commonDir' | 'gitDir'>, env: NodeJS.ProcessEnv, name: string): string | null | typeof UNKNOWN {
  const first = name.indexOf('.');
  const last = name.lastIndexOf('.');
  if (first < 1 || last === name.length - 1) return UNKNOWN;
  const section = first === last ? name.slice(0, first).toLowerCase() : `${name.slice(0, first).toLowerCase()} "${name.slice(first + 1, last)}"`;
  const key = name.slice(last + 1).toLowerCase();
  let value: string | null = null;
  for (const file of configFiles(loc, env)) {
    const v = configValue(readOr(file), section, key);
    if (v === UNKNOWN) return UNKNOWN;
    if (v !== null) value = v;
  }
  return value;
}
