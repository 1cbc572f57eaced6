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
  switch (inv.program) {
    case 'printenv':
      return 'printenv';
    case 'env':
      // `env`, `env -i FOO=1`: nothing to run, so it prints the environment
      return inv.args.every((w) => w.value.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(w.value)) ? 'env' : null;
    case 'set':
    case 'export':
      return inv.args.length === 0 || (inv.program === 'export' && inv.args[0]!.value === '-p') ? inv.program : null;
    case 'declare':
    case 'typeset': {
      const a = inv.args.map((w) => w.value);
      return listsVariables(a) ? `${inv.program}${a.length ? ` ${a.join(' ')}` : ''}` : null;
    }
  }
  const file = (inv.args.find((w) => named(w.value)) ?? inv.command.redirects.find((r) => r.op === '<' && named(r.target?.value ?? ''))?.target)?.value;
  return file ? `${inv.program} ${file.replace(OPTION_PREFIX, '')}` : null;
}

/** An option in front of a file it names (`-a/proc/1/environ`, `--file=…`). */
const OPTION_PREFIX = /^-[A-Za-z]*[a=]/;

/** Whether a word names a process's environment file, alone or as an option's value. */
const named = (x: string) => x.endsWith('/environ') && ENVIRON_FILE.test(x.replace(OPTION_PREFIX, ''));

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
