import { type LaunchStep, lines } from './launcher-shapes.ts';
import type { Word } from './shell.ts';

/**
 * bash's builtins that keep a command line to run later, as `trap` does (docs/safety.md, "Shell
 * commands are parsed, not grepped"): the completion command of `compgen -C 'cmd'` (run at once)
 * and `complete -C 'cmd'` (at each completion), the callback `mapfile -C 'cmd' -c N` and
 * `readarray` evaluate every N lines, and the command a key runs after `bind -x '"\C-t": cmd'`.
 * Each is read as a line a shell runs.
 */

/** The builtins and the option whose value is a command line. */
const CALLBACK_OPTION: Record<string, string> = { compgen: '-C', complete: '-C', mapfile: '-C', readarray: '-C' };

/** The command lines these builtins keep or run, or null where `program` is none of them. */
export function shellCallbacks(program: string, args: Word[]): LaunchStep | null {
  if (program === 'bind') {
    // `bind -x 'KEYSEQ: cmd'`: the command after the key sequence's colon
    const out = args.flatMap((w, i) => (w.value === '-x' && args[i + 1] ? [args[i + 1]!.value.replace(/^\s*"(?:[^"\\]|\\.)*"\s*:\s*|^[^:]*:\s*/, '')] : []));
    return out.length ? lines(out, true) : null;
  }
  const option = CALLBACK_OPTION[program];
  if (!option) return null;
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === option && args[i + 1]) out.push(args[++i]!.value);
    // `-C'cmd'` written joined, or after other letters of a cluster (`-tC cmd`)
    else if (/^-[A-Za-z]*C/.test(v) && !v.startsWith('--')) {
      const after = v.slice(v.indexOf('C') + 1);
      if (after) out.push(after);
      else if (args[i + 1]) out.push(args[++i]!.value);
    }
  }
  return out.length ? lines(out, true) : null;
}
