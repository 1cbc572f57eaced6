import { posix } from 'node:path';
import type { BashContext } from './bash-rules.ts';
import { programName } from './command.ts';
import { resolvePath } from './paths.ts';
import { isDynamic, type SimpleCommand, UNKNOWN, type Word } from './shell.ts';

/**
 * The folder a word starts with when it is one the context knows though the command line does
 * not spell it: `$PWD` and `$(pwd)` (the folder the command runs in), `$(git rev-parse
 * --show-toplevel)` (the project, where the command runs inside it), `--git-dir` and
 * `--git-common-dir` (its git folders), and what `dirname`, `realpath`, `readlink -f` and `cd X &&
 * pwd` make of such a folder or of a literal path. The removal rule judges `rm -rf "$(git
 * rev-parse --show-toplevel)"` as `rm -rf` of the project.
 */

type FolderContext = Pick<BashContext, 'cwd' | 'home' | 'root' | 'commonDir'>;

/** The absolute folder `w` starts with (the rest of its value follows it), or null when the context does not know it. */
export function leadingFolder(w: Word, ctx: FolderContext): string | null {
  if (ctx.cwd === null || !w.value.startsWith(UNKNOWN)) return null;
  if (w.leadingVar === 'PWD') return ctx.cwd;
  const sub = /^"?(\$\(|`)/.test(w.raw) ? w.subs[0] : undefined;
  return sub && !sub.tooDeep ? printedFolder(sub.commands, { ...ctx, cwd: ctx.cwd }) : null;
}

/** The folder a substitution's commands print, when they are one of the printers above. */
function printedFolder(commands: readonly SimpleCommand[], ctx: FolderContext & { cwd: string }): string | null {
  // `cd X && pwd`, `cd X; pwd`: the folder X
  if (commands.length === 2 && commands[0]!.words[0]?.value === 'cd') {
    const target = commands[0]!.words.slice(1).filter((x) => !x.value.startsWith('-'));
    const into = target.length === 1 ? wordFolder(target[0]!, ctx) : null;
    return into && printedFolder([commands[1]!], { ...ctx, cwd: into });
  }
  if (commands.length !== 1 || commands[0]!.redirects.length) return null;
  const words = [...commands[0]!.words];
  // `builtin pwd`, `command pwd`, `/bin/pwd`
  while (words[0]?.value === 'builtin' || words[0]?.value === 'command') words.shift();
  if (!words.length) return null;
  const program = programName(words[0]!.value);
  const args = words.slice(1);
  const options = args.filter((a) => a.value.startsWith('-')).map((a) => a.value);
  const operands = args.filter((a) => !a.value.startsWith('-'));
  switch (program) {
    case 'pwd':
      return operands.length === 0 && options.every((a) => /^-[LP]$/.test(a)) ? ctx.cwd : null;
    case 'realpath':
      return operands.length <= 1 && options.every((a) => /^-[eLPsmq]+$/.test(a)) ? (operands[0] ? wordFolder(operands[0], ctx) : ctx.cwd) : null;
    case 'readlink':
      return operands.length === 1 && options.length > 0 && options.every((a) => /^-[efmnqsv]+$/.test(a) && /[efm]/.test(a))
        ? wordFolder(operands[0]!, ctx)
        : null;
    case 'dirname': {
      const of = operands.length === 1 && options.length === 0 ? wordFolder(operands[0]!, ctx) : null;
      return of && posix.dirname(of);
    }
    case 'git':
      return gitFolder(args, ctx);
    default:
      return null;
  }
}

/** `git [-C DIR] rev-parse --show-toplevel | --git-dir | --absolute-git-dir | --git-common-dir`, run inside the project. */
function gitFolder(args: readonly Word[], ctx: FolderContext & { cwd: string }): string | null {
  let dir: string | null = ctx.cwd;
  let i = 0;
  for (; i < args.length && args[i]!.value === '-C'; i += 2) dir = args[i + 1] && dir ? wordFolder(args[i + 1]!, { ...ctx, cwd: dir }) : null;
  const [sub, ...flags] = args.slice(i).map((a) => a.value);
  const { root } = ctx;
  if (sub !== 'rev-parse' || flags.length !== 1 || !root || !dir || (dir !== root && !dir.startsWith(`${root}/`))) return null;
  if (flags[0] === '--show-toplevel') return root;
  if (flags[0] === '--git-dir' || flags[0] === '--absolute-git-dir') return `${root}/.git`;
  if (flags[0] === '--git-common-dir') return ctx.commonDir ?? `${root}/.git`;
  return null;
}

/** The absolute folder a word names: a literal path resolved, or a known leading folder and a literal rest. */
function wordFolder(w: Word, ctx: FolderContext & { cwd: string }): string | null {
  if (!isDynamic(w)) return w.glob ? null : resolvePath(w.value, ctx);
  const lead = leadingFolder(w, ctx);
  const rest = w.value.slice(1);
  return lead !== null && !rest.includes(UNKNOWN) && !w.glob ? resolvePath(lead + rest, ctx) : null;
}
