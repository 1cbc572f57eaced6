import { operandAt } from './argv.ts';
import { argvLine } from './argv-line.ts';
import { RUN_SUBS, RUNNER_VALUED, runnerValued, SHELL_LINE_RUNNERS, shellLineOption } from './runner-words.ts';

/**
 * The shell line `npx -c '<line>'`, `npx --call=<line>`, `npm exec -c '<line>'` or `pnpm dlx -c
 * '<line>'` hands a shell, with the words after it, else null.
 */
export function runnerShellLine(program: string, args: readonly string[]): string | null {
  if (program === 'yarn') return yarnExecLine(args);
  if (!SHELL_LINE_RUNNERS.has(program)) return null;
  const subs = RUN_SUBS[program]!;
  const valued = runnerValued(program);
  let i = 0;
  if (subs !== 'direct') {
    i = operandAt(args, valued);
    if (i < 0 || !subs.has(args[i]!)) return null;
    i++;
  }
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a.startsWith('--call=')) return [a.slice('--call='.length), ...args.slice(i + 1)].join(' ');
    if (shellLineOption(a)) {
      // npm's `-c` takes the line as its value; pnpm's `-c` makes its command operand the line
      const line = operandAt(args, valued, i + 1);
      return line < 0 ? null : args.slice(line).join(' ');
    }
    if (a === '--' || !a.startsWith('-')) return null;
    if (valued.has(a)) i++;
  }
  return null;
}

/**
 * `yarn exec 'rm -rf /'`: yarn 2+ runs its first operand as a shell script (its portable shell,
 * the other operands its "$@"), yarn 1 the operands as a command: both readings, one line each.
 */
function yarnExecLine(args: readonly string[]): string | null {
  const sub = operandAt(args, RUNNER_VALUED);
  if (args[sub] !== 'exec') return null;
  const first = operandAt(args, RUNNER_VALUED, sub + 1);
  return first < 0 ? null : `${args[first]}\n${argvLine(args.slice(first))}`;
}
