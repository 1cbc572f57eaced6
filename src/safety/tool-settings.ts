import type { Invocation } from './command.ts';
import type { PathUse } from './path-access.ts';

/**
 * A build tool handed its own settings file by its path (docs/safety.md, "Credentials and paths
 * spelled another way"): `mvn -s ~/.m2/settings.xml package`, `bun -c ~/.bunfig.toml install`.
 * The tool reads the file for itself, as it reads it from its default place on every build, and
 * shows none of it: the use is `env` (its content goes into the program, not out). A build
 * tool's settings (model/home-credentials.ts HOME_CREDENTIALS `readBy`) so used passes the credential rule
 * (path-rules.ts), since the sandbox leaves them readable to any program anyway; every other
 * credential stays denied however it is handed over (`mvn -s ~/.aws/credentials`).
 */

/** The options of each build tool that name its settings file (`-s FILE`, `--settings=FILE`). */
const SETTINGS_OPTIONS: Readonly<Record<string, ReadonlySet<string>>> = {
  mvn: new Set(['-s', '--settings', '-gs', '--global-settings']),
  mvnw: new Set(['-s', '--settings', '-gs', '--global-settings']),
  bun: new Set(['-c', '--config']),
};

/** The programs SETTINGS_OPTIONS knows: each must read a build tool's settings (a test holds them to HOME_CREDENTIALS `readBy`). */
export const SETTINGS_PROGRAMS: readonly string[] = Object.keys(SETTINGS_OPTIONS);

/** `uses` (path-uses.ts) with the settings file a build tool's option names used as `env`: handed over, not read out. */
export function settingsFileUses(inv: Invocation, uses: PathUse[]): PathUse[] {
  const options = Object.hasOwn(SETTINGS_OPTIONS, inv.program) ? SETTINGS_OPTIONS[inv.program]! : null;
  if (!options) return uses;
  const named = new Set<unknown>();
  inv.args.forEach((w, i) => {
    const eq = w.value.indexOf('=');
    if (eq > 0 && w.value.startsWith('--') && options.has(w.value.slice(0, eq))) named.add(w);
    else if (options.has(w.value) && inv.args[i + 1]) named.add(inv.args[i + 1]);
  });
  return uses.map((u): PathUse => (named.has(u.word) && u.access === 'read' ? { ...u, access: 'env' } : u));
}
