import type { Invocation } from '../command.ts';
import { MODE_LIKE, OWNER_VALUED } from '../owner-changes.ts';
import { otherHome, resolvePath } from '../paths.ts';
import { UNKNOWN } from '../shell.ts';
import type { Hit } from './args.ts';
import { hasFlag, parseArgs, valueOf } from './system-args.ts';
import { guardedPath, isDotFolder, isRootOrHome, KIND, showPath } from './system-paths.ts';
import type { FamilyContext } from './types.ts';

/**
 * The system family's reading of ownership and permission changes (docs/safety.md, the system
 * row): `chown -R`, `chgrp -R`, `chmod -R` on `/`, the home folder, another user's, a system path
 * or a dotfile folder (the old owners and modes are recorded nowhere); a plain `chmod` of a system
 * file, or of a dotfile in a way that locks its owner out or opens it to others.
 */

/**
 * What a chmod mode does that no one asked for, or null: takes the owner's read (or, on a dot
 * folder, search) permission away, lets group or others write, or sets setuid/setgid. Tightening
 * (`600`, `700`, `go-rwx`, `400`) is not harm. A mode only the shell knows is none.
 */
function modeHarm(mode: string, folder: boolean): string | null {
  if (mode.includes(UNKNOWN)) return null;
  const lock = "takes the owner's own access away";
  if (/^[0-7]{1,4}$/.test(mode)) {
    const n = Number.parseInt(mode, 8);
    if ((n & 0o400) === 0 || (folder && (n & 0o100) === 0)) return lock;
    if (n & 0o022) return 'lets other users write it';
    if (n & 0o6000) return 'sets setuid/setgid';
    return null;
  }
  for (const clause of mode.split(',')) {
    const m = /^([ugoa]*)((?:[-+=][rwxXstugo]*)+)$/.exec(clause);
    if (!m) continue;
    // without a who, `+`/`=` are cut by the umask (group and others rarely get w); `-` takes from all
    const owner = m[1] === '' || /[ua]/.test(m[1]!);
    const others = /[goa]/.test(m[1]!);
    for (const [, op, perms] of m[2]!.matchAll(/([-+=])([rwxXstugo]*)/g)) {
      const drops = (c: string) => (op === '-' && perms!.includes(c)) || (op === '=' && !perms!.includes(c));
      if (owner && (drops('r') || (op === '-' && perms!.includes('x')) || (folder && drops('x')))) return lock;
      if (op !== '-' && others && perms!.includes('w')) return 'lets other users write it';
      if (op !== '-' && perms!.includes('s') && !/^o+$/.test(m[1]!)) return 'sets setuid/setgid';
    }
  }
  return null;
}

/** Non-recursive chmod: any mode change of a system file; on a dotfile, one that locks the owner out or opens it (modeHarm). */
function checkChmod(args: ReturnType<typeof parseArgs>, ctx: FamilyContext): Hit | null {
  const ref = valueOf(args, '--reference') !== null;
  const mode = ref ? null : args.operands[0]?.value;
  for (const w of ref ? args.operands : args.operands.slice(1)) {
    const g = guardedPath(w.value, ctx);
    if (!g) continue;
    if (g.kind !== 'dotfile') {
      return {
        rule: `chmod ${g.area}`,
        reason: `\`chmod\` changes the permissions of ${g.shown}, ${KIND[g.kind]}: a wrong mode breaks or opens what relies on it, and the old mode is recorded nowhere`,
      };
    }
    const harm = mode ? modeHarm(mode, isDotFolder(g)) : null;
    if (harm)
      return {
        rule: `chmod ${g.shown === g.area ? g.area : `in ${g.area}`}`,
        reason: `\`chmod ${mode}\` on ${g.shown} ${harm}: ${KIND[g.kind]}, and the old mode is recorded nowhere`,
      };
  }
  return null;
}

/** `chown -R`, `chgrp -R`, `chmod -R` on `/`, the home folder, a system path or a dotfile folder; chmod without -R: checkChmod. */
export function checkOwners(inv: Invocation, ctx: FamilyContext): Hit | null {
  const chmod = inv.program === 'chmod';
  const args = parseArgs(inv.args, OWNER_VALUED, chmod ? (v) => MODE_LIKE.test(v) : undefined);
  if (!hasFlag(args, 'R', '--recursive')) return chmod ? checkChmod(args, ctx) : null;
  // the owner (or mode) comes first unless --reference gives it
  const paths = valueOf(args, '--reference') === null ? args.operands.slice(1) : args.operands;
  const what = chmod ? 'permissions' : inv.program === 'chgrp' ? 'group' : 'owner';
  for (const w of paths) {
    const v = w.value;
    let shown: string | null = null;
    let area = '';
    let kind = '';
    const other = otherHome(v);
    if (other && !other.rest) {
      shown = area = `~${other.name}`;
      kind = "another user's home folder and all it holds";
    } else if (!v.startsWith(UNKNOWN) && (ctx.cwd !== null || v.startsWith('/'))) {
      const abs = resolvePath(v, { cwd: ctx.cwd ?? '/', home: ctx.home });
      if (!v.includes(UNKNOWN) && isRootOrHome(abs, ctx.home)) {
        shown = area = showPath(abs, ctx.home);
        kind = abs === '/' ? 'the whole machine' : 'the home folder and all it holds';
      }
    }
    if (shown === null) {
      const g = guardedPath(v, ctx);
      if (!g) continue;
      shown = g.shown;
      area = g.area;
      kind = KIND[g.kind];
    }
    return {
      rule: `${inv.program} -R ${area}`,
      reason: `\`${inv.program} -R\` changes the ${what} of everything under ${shown}, ${kind}: the old ${what === 'permissions' ? what : `${what}s`} are recorded nowhere, so it cannot be undone`,
    };
  }
  return null;
}
