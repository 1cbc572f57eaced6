import type { Invocation } from './command.ts';

/**
 * The commands that print the environment's variables with their values, tokens among them
 * (docs/safety.md, exfiltration): `printenv`, `env` with nothing to run, `set` and `export` alone
 * or `export -p`, `declare`/`typeset` listing variables (alone, `-x`, `-p`, `-p NAME`), and any
 * program reading a process's environment file (`cat /proc/self/environ`, `strings
 * /proc/$$/environ`, `tr '\0' '\n' < /proc/1/environ`). Alone they print to the agent, which is
 * fine; piped into a program that sends its input off the machine they are exfiltration
 * (bash-rules.ts checkExfiltration).
 */

/** A process's environment file: `/proc/self/environ`, `/proc/<pid>/environ`, `/proc/<pid>/task/<tid>/environ`. */
const ENVIRON_FILE = /^\/proc\/[^/]+\/(task\/[^/]+\/)?environ$/;

/** What prints the environment in `inv` (`printenv`, `declare -x`, `/proc/self/environ`), or null. */
export function printsEnvironment(inv: Invocation): string | null {
  const a = inv.args.map((w) => w.value);
  switch (inv.program) {
    case 'printenv':
      return 'printenv';
    case 'env':
      // `env`, `env -i FOO=1`: nothing to run, so it prints the environment
      return a.every((x) => x.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(x)) ? 'env' : null;
    case 'set':
    case 'export':
      return a.length === 0 || (inv.program === 'export' && a[0] === '-p') ? inv.program : null;
    case 'declare':
    case 'typeset':
      return listsVariables(a) ? `${inv.program}${a.length ? ` ${a.join(' ')}` : ''}` : null;
  }
  const file = [...a.map((x) => x.replace(/^-[A-Za-z]*[a=]/, '')), ...inv.command.redirects.filter((r) => r.op === '<').map((r) => r.target?.value ?? '')].find(
    (x) => ENVIRON_FILE.test(x),
  );
  return file ? `${inv.program} ${file}` : null;
}

/**
 * Whether `declare`/`typeset` with these words prints variables with their values: with no name
 * (alone, `-x`, `-r`: every such variable) unless it lists only functions (`-f`, `-F`), or with
 * `-p` (`declare -p TOKEN`). Setting one (`declare -x FOO=1`) or giving a name an attribute
 * (`declare -a list`) prints nothing.
 */
function listsVariables(words: string[]): boolean {
  const flags = words.filter((w) => /^[-+][A-Za-z]+$/.test(w)).join('');
  const names = words.filter((w) => !/^[-+]/.test(w));
  if (names.some((n) => n.includes('='))) return false;
  if (flags.includes('p')) return true;
  return names.length === 0 && !(flags && /^[-+fF]+$/.test(flags));
}
