import { posix } from 'node:path';
import type { Invocation } from './command.ts';
import { hasFlag, parseArgs, valueOf } from './families/system-args.ts';
import { resolvePath } from './paths.ts';
import { isDynamic, type Word } from './shell.ts';

/**
 * The symbolic links a command line makes (`ln -s ~/Documents d`), remembered for the commands
 * after it: a removal through one (`rm -rf d/`) removes what it points at (removal.ts).
 */

/**
 * `abs` with a link the line made (`links`: each link, where it points) replaced by where it
 * points, when the path goes through it: below it, or the link itself `followed` by a slash
 * (`rm -rf d/` empties the folder `d` points at; `rm -rf d` removes the link alone).
 */
export function throughLink(abs: string, followed: boolean, links: ReadonlyMap<string, string> | undefined): string {
  for (const [link, target] of links ?? []) {
    if (abs === link && followed) return target;
    if (abs.startsWith(`${link}/`)) return target + abs.slice(link.length);
  }
  return abs;
}

/**
 * The symbolic link `ln -s TARGET [NAME]` makes, both absolute (a relative target is read from
 * the link's folder), or null: another program, a hard link, a name only the shell knows, or
 * `-t DIR` (links named after what they point at: not followed here).
 */
export function madeLink(inv: Invocation, cwd: string | null, home: string): { name: string; target: string } | null {
  if (inv.program !== 'ln' || cwd === null) return null;
  const p = parseArgs(inv.args, LN_VALUED);
  if (!hasFlag(p, 's', '--symbolic') || valueOf(p, '-t', '--target-directory') !== null || p.operands.length < 1 || p.operands.length > 2) return null;
  const [target, name] = p.operands as [Word, Word | undefined];
  if (isDynamic(target) || (name && isDynamic(name))) return null;
  const at = resolvePath(name ? name.value : posix.basename(target.value), { cwd, home });
  return { name: at, target: resolvePath(target.value, { cwd: posix.dirname(at), home }) };
}

const LN_VALUED = new Set(['-S', '--suffix', '-t', '--target-directory']);
