import type { BashContext } from './bash-rules.ts';
import type { Invocation } from './command.ts';
import { findRemoves, foundBelow } from './find-expression.ts';
import type { Finding } from './git-rules.ts';
import { type Access, redirectAccess } from './path-access.ts';
import { pathUses } from './path-uses.ts';
import { resolvePath } from './paths.ts';
import { UNKNOWN, type Word } from './shell.ts';

/**
 * The project's git history as files (removal.ts's history rule): which paths of a git folder hold
 * it, what a removing find selects of it, and a change of one by any program or redirection.
 */

/**
 * A file of the history written over, emptied, edited or removed by any program or redirection
 * (`unlink .git/HEAD`, `shred -u .git/HEAD`, `> .git/packed-refs`, `echo x > .git/refs/heads/main`,
 * `truncate -s 0 .git/objects/pack/p.pack`, `dd of=.git/HEAD`, `curl -o.git/packed-refs`), or a
 * folder of it, or the git folder itself, extracted or copied into (`unzip -o x.zip -d
 * .git/objects`, `tar -xf x.tar -C .git`, `cp -t .git/refs/heads`): lost as surely as by `rm`, and
 * judged as its removal. A git verb (`git update-ref`) names no such file; `.git/index.lock` is no history.
 */
export function checkHistoryChange(inv: Invocation | null, redirects: ReadonlyArray<{ op: string; target: Word | null }>, ctx: BashContext): Finding | null {
  if (ctx.cwd === null) return null;
  const uses = [
    ...redirects
      .filter((r) => r.target && !r.op.startsWith('<<') && !(r.op.endsWith('&') && /^(\d+|-)$/.test(r.target.value)))
      .map((r) => ({ word: r.target!, value: r.target!.value, access: redirectAccess(r.op) })),
    ...(inv ? pathUses(inv) : []),
  ];
  for (const { word, value, access } of uses) {
    if (!HISTORY_CHANGES.has(access) || value.includes(UNKNOWN)) continue;
    const abs = resolvePath(globFolder(value, word.glob), { cwd: ctx.cwd, home: ctx.home });
    // `unzip -o x.zip -d .git/objects`, `tar -xf x.tar -C .git`: what is extracted there may write over any of it
    const part = historyPart(abs, ctx) ?? (access === 'into' ? gitFolderItself(abs, ctx) : null);
    if (part)
      return {
        rule: 'rm.root',
        reason: `\`${inv?.program ?? word.raw}\` changes the project's history (${part}): written over, emptied or removed, it loses commits as \`rm\` would; it is never allowed. Use git to change refs (git update-ref, git branch)`,
      };
  }
  return null;
}

/** What a path is used for that changes the history it names: written over, edited, removed, or (a folder) written into. */
const HISTORY_CHANGES = new Set<Access>(['write', 'edit', 'remove', 'into']);

/** The project's git folder or the common one of a linked worktree, when `abs` is one of them: written into, any file of the history may be written over. */
function gitFolderItself(abs: string, ctx: Pick<BashContext, 'root' | 'commonDir'>): string | null {
  return (ctx.root && abs === `${ctx.root}/.git`) || (ctx.commonDir && abs === ctx.commonDir) ? '.git' : null;
}

/**
 * The part of the history `abs` is — in the project's `.git` or the common git folder of a linked
 * worktree: the objects and anything in them, the branches and tags (`refs/heads`, `refs/tags`
 * and inside), `packed-refs`, all the refs or reflogs, the stash, the LFS objects and the
 * submodules' repositories (`modules`) — or null (`.git/refs/remotes`, a fetch brings them back;
 * `.git/rebase-merge`, `.git/lfs/tmp`, `.git/index.lock`).
 */
export function historyPart(abs: string, ctx: Pick<BashContext, 'root' | 'commonDir'>): string | null {
  for (const gitDir of [ctx.root && `${ctx.root}/.git`, ctx.commonDir]) {
    if (!gitDir || !abs.startsWith(`${gitDir}/`)) continue;
    const part = abs.slice(gitDir.length + 1);
    if (GIT_HISTORY.has(part) || /^(objects|refs\/heads|refs\/tags|lfs\/objects|modules)\//.test(part)) return `.git/${part}`;
  }
  return null;
}

/**
 * The folders and files of a git folder that hold the history: the objects, the branches, tags and
 * notes, the reflogs, `HEAD` (without it git sees no repository), `shallow` (without it a
 * shallow clone's history reads as whole, and broken), the stash (`refs/stash` and its reflog:
 * removing them is `git stash clear`), the LFS objects (content not yet on a remote) and
 * `modules` (each submodule's whole repository). Not the index: `rm .git/index && git reset`
 * mends a corrupt one, and what it staged stays in the objects.
 */
const GIT_HISTORY = new Set([
  'objects',
  'refs',
  'refs/heads',
  'refs/tags',
  'refs/notes',
  'refs/stash',
  'packed-refs',
  'logs',
  'logs/refs',
  'logs/refs/stash',
  'HEAD',
  'shallow',
  'lfs',
  'lfs/objects',
  'modules',
]);

/**
 * Files of a git folder's history, for what a find's tests select: a loose object, a pack and what
 * goes with it, the branches every repository may have, the packed refs, HEAD, the stash, an LFS
 * object and a submodule's repository.
 */
const HISTORY_FILES = [
  'objects/01/23456789abcdef0123456789abcdef012345',
  'objects/pack/pack-0123abcd.pack',
  'objects/pack/pack-0123abcd.idx',
  'objects/pack/pack-0123abcd.rev',
  'objects/pack/pack-0123abcd.bitmap',
  'objects/pack/multi-pack-index',
  'objects/info/commit-graph',
  'refs/heads/main',
  'refs/heads/master',
  'refs/tags/v1.0.0',
  'refs/stash',
  'logs/refs/stash',
  'packed-refs',
  'HEAD',
  'lfs/objects/01/23/0123456789abcdef',
  'modules/sub/HEAD',
];

/**
 * What of the history a removing find selects, or null: the files of HISTORY_FILES under its roots
 * (a git folder, part of its history, or a folder above the project: `find` goes into `.git` as
 * into any folder) that its expression may remove, read as find evaluates it (find-expression.ts:
 * `! -name '*.ts'` lets a pack through, `-not -path './.git/*'` does not).
 */
export function findsHistory(args: readonly Word[], ctx: BashContext): string | null {
  if (ctx.cwd === null) return null;
  const values = args.map((w) => w.value);
  const first = values.findIndex((v) => /^[-(!]/.test(v));
  const roots = first === 0 ? ['.'] : values.slice(0, first < 0 ? undefined : first);
  const expression = first < 0 ? [] : values.slice(first);
  if (expression.some((v) => v.includes(UNKNOWN))) return null;
  const removes = findRemoves(expression);
  for (const root of roots) {
    if (root.includes(UNKNOWN)) continue;
    const abs = resolvePath(root, { cwd: ctx.cwd, home: ctx.home });
    const gitDir = [ctx.root && `${ctx.root}/.git`, ctx.commonDir].find((g) => g && (abs === g || abs.startsWith(`${g}/`)));
    const inGit = gitDir !== undefined && (abs === gitDir || historyPart(abs, ctx) !== null);
    const above = !gitDir && ctx.root !== undefined && (abs === ctx.root || ctx.root.startsWith(abs === '/' ? '/' : `${abs}/`));
    if (!inGit && !above) continue;
    const git = inGit ? gitDir! : `${ctx.root}/.git`;
    for (const file of HISTORY_FILES) {
      const target = `${git}/${file}`;
      if (abs !== '/' && !target.startsWith(`${abs}/`)) continue;
      // the file as find meets it, and the folders it goes through from the root down
      const { file: found, above } = foundBelow(root, abs, target, false);
      if (removes(found, above)) return `files of the project's history (such as .git/${file}) under ${root}`;
    }
  }
  return null;
}

/** A word's path, or for a glob the folder before its first wildcard (what the glob takes from). */
export function globFolder(v: string, glob: boolean): string {
  if (!glob) return v;
  const p = v.slice(0, v.search(/[*?[{]/));
  return p.slice(0, p.lastIndexOf('/') + 1) || '.';
}
