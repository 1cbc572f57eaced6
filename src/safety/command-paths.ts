import type { BashContext } from './bash-rules.ts';
import type { Invocation } from './command.ts';
import type { Finding } from './git-rules.ts';
import { type Access, pathUses } from './path-access.ts';
import { pathFinding, SECRET_PATHS } from './path-rules.ts';
import { matchInside, resolvePath } from './paths.ts';
import { UNKNOWN, type Word } from './shell.ts';

/**
 * The path rules (path-rules.ts) over one shell command: its redirections (written, or read with
 * `<`) and each path its program uses (path-access.ts: read, written, removed, written into, or
 * not opened at all), and the folders a recursive reader takes whole.
 */
export function checkCommandPaths(inv: Invocation | null, redirects: Array<{ op: string; target: Word | null }>, ctx: BashContext): Finding | null {
  const { policy } = ctx;
  // after a `cd` to a folder only the shell knows, relative paths are known only in part
  const pctx = { cwd: ctx.cwd ?? '/', home: ctx.home, root: ctx.root };
  const rctx = { ...pctx, policy, protectedPaths: ctx.protectedPaths };
  const absolute = (value: string, fromRoot: boolean) =>
    fromRoot && ctx.root
      ? resolvePath(value, { ...pctx, cwd: ctx.root })
      : ctx.cwd === null && !value.startsWith('/')
        ? `${UNKNOWN}/${value}`
        : resolvePath(value, pctx);
  const check = (w: Word, value: string, access: Access, forceGlob = false, fromRoot = false, found = false): Finding | null => {
    if (!value || value.includes('://') || value === UNKNOWN) return null;
    const abs = absolute(value, fromRoot);
    const glob = forceGlob || w.glob || abs.includes(UNKNOWN);
    const key = `${access}${glob ? 'g' : 'l'}${found ? 'f' : ''}${abs}`;
    let f = ctx.seen.get(key);
    if (f === undefined) {
      f = pathFinding(abs, access, glob, rctx, found);
      // a symbolic link to a protected file is that file (`ln -s ~/.ssh s; cat s/id_rsa`)
      const real = !f && !glob && ctx.realpath ? ctx.realpath(abs) : null;
      if (real && real !== abs) f = pathFinding(real, access, false, rctx);
      ctx.seen.set(key, f);
    }
    return f;
  };
  for (const r of redirects) {
    // `2>&1`, `>&-`: duplicating or closing a descriptor names no file
    if (!r.target || r.op.startsWith('<<') || (r.op.endsWith('&') && /^(\d+|-)$/.test(r.target.value))) continue;
    const f = check(r.target, r.target.value, r.op === '<' ? 'read' : 'write');
    if (f) return f;
  }
  if (!inv) return null;
  for (const u of pathUses(inv)) {
    if (u.access === 'none') continue;
    const f = check(u.word, u.value, u.access, u.glob, u.fromRoot, u.found);
    if (f) return f;
    if (u.tree && !u.glob && !u.word.glob && !u.value.includes(UNKNOWN) && u.value && (ctx.cwd !== null || u.value.startsWith('/'))) {
      const abs = resolvePath(u.value, pctx);
      const denied = matchInside(abs, policy.deniedPaths, pctx);
      const inside = denied ?? matchInside(abs, SECRET_PATHS, pctx);
      if (inside)
        return {
          rule: `${denied ? 'filesystem.deniedPaths' : 'secrets.paths'}: ${inside.pattern}`,
          reason: `\`${inv.program}\` would read all of ${abs}, which holds protected files (${inside.pattern}); name the files you need instead`,
        };
    }
  }
  return null;
}
