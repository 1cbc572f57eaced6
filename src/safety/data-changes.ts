import type { BashContext } from './bash-rules.ts';
import type { Invocation } from './command.ts';
import { hasFlag, parseArgs } from './families/system-args.ts';
import type { Finding } from './git-rules.ts';
import { globFolder } from './history-files.ts';
import { homeDataFolder, userDocument } from './home-data.ts';
import { MODE_LIKE, OWNER_ADDS, OWNER_PROGRAMS, OWNER_VALUED, toTheUser } from './owner-changes.ts';
import { pathUses } from './path-uses.ts';
import { otherHome, resolvePath } from './paths.ts';
import { targetedGlob } from './removal.ts';
import { sedLine } from './sed-script.ts';
import { isDynamic, type Redirect, type Word } from './shell.ts';

/**
 * The user's data outside the project lost without a removal (docs/safety.md, P1; what is the
 * user's: home-data.ts): one of the user's documents emptied or written over with nothing — a
 * redirection of nothing (`> ~/Documents/thesis.docx`, `: > f`), `truncate`, `dd of=`, `cp
 * /dev/null`, `sed -i d`, `unlink` — and a recursive change of the owner or permissions of a
 * folder the removal rule keeps (`chmod -R 000 ~/Documents`, `chown -R nobody ~/Documents`),
 * whose old values are recorded nowhere. Writing content into a document (`echo x >
 * ~/Documents/summary.md`, `cp report.pdf ~/Documents/`) may be the task and passes.
 */
export function checkDataChange(inv: Invocation | null, redirects: readonly Redirect[], ctx: BashContext): Finding | null {
  if (ctx.cwd === null) return null;
  // `> ~/Documents/x`, `: > f`, `cat /dev/null > f`: a redirection that truncates, of a command that writes nothing
  if (!inv || writesNothing(inv))
    for (const r of redirects) {
      const doc = TRUNCATING.has(r.op) && r.target ? documentOf(r.target, ctx) : null;
      if (doc) return emptied(`\`${r.op}\``, doc);
    }
  if (!inv) return null;
  if (OWNER_PROGRAMS.has(inv.program)) return checkOwners(inv, ctx);
  for (const w of emptiedFiles(inv)) {
    const doc = documentOf(w, ctx);
    if (doc) return emptied(`\`${inv.program}\``, doc, inv.program === 'unlink' ? 'removes' : undefined);
  }
  return null;
}

/** Redirections that truncate the file they open. */
const TRUNCATING = new Set(['>', '>|', '&>']);
/** Programs that write nothing to their output, whatever their words. */
const SILENT = new Set([':', 'true', 'false']);
/** The programs that may empty a file or remove it without `rm` (sed's `-i d` aside). */
const EMPTYING = new Set(['unlink', 'truncate', 'dd', 'cp']);
/** Devices whose content is nothing, zeros or noise: a copy of them over a file destroys it. */
const EMPTY_SOURCE = /^\/dev\/(null|zero|u?random)$/;
/** A sed script that deletes every line: `d`, `1,$d`. */
const DELETES_ALL = /^\s*(1\s*,\s*\$\s*)?d\s*;?\s*$/;

/** Whether a command writes nothing (or a bare newline) to its output: `:`, `true`, `cat /dev/null`, `echo`, `echo -n`, `printf ''`. */
function writesNothing(inv: Invocation): boolean {
  const a = inv.args.map((w) => w.value);
  if (SILENT.has(inv.program)) return true;
  if (inv.program === 'cat') return a.length > 0 && a.every((v) => v === '/dev/null');
  if (inv.program === 'echo') return a.every((v) => v === '' || /^-[neE]+$/.test(v));
  return inv.program === 'printf' && a.every((v) => v === '');
}

/**
 * The files a command empties, writes over with nothing or removes without `rm`: each file
 * `truncate` or `dd of=` writes, `cp` writes from `/dev/null` or `/dev/zero`, `sed -i d` edits, `unlink` removes.
 */
function emptiedFiles(inv: Invocation): Word[] {
  const p = inv.program;
  if (p === 'sed') {
    const line = sedLine(inv.args);
    return line.inPlace && line.scripts.some((w) => DELETES_ALL.test(w.value)) ? line.inputs : [];
  }
  if (!EMPTYING.has(p)) return [];
  const uses = pathUses(inv);
  if (p === 'unlink') return uses.filter((u) => u.access === 'remove').map((u) => u.word);
  if (p !== 'cp' || uses.some((u) => u.access === 'read' && EMPTY_SOURCE.test(u.value)))
    return uses.filter((u) => u.access === 'write').map((u) => ({ ...u.word, value: u.value }));
  return [];
}

/** What of the user's documents a word names (home-data.ts userDocument), or null. */
function documentOf(w: Word, ctx: BashContext): string | null {
  if (isDynamic(w) || otherHome(w.value) || (ctx.cwd === null && !/^[/~]/.test(w.value))) return null;
  return userDocument(resolvePath(w.value, { cwd: ctx.cwd ?? '/', home: ctx.home }), ctx);
}

function emptied(how: string, doc: string, doing = 'empties or writes over'): Finding {
  return { rule: 'rm.root', reason: `${how} ${doing} ${doc}; it is never allowed: no copy of it is kept. Ask the user` };
}

/**
 * `chmod -R`, `chown -R`, `chgrp -R` of a folder the removal rule keeps (home-data.ts
 * homeDataFolder; a pattern that takes all it holds: `~/Documents/*`): the old owners and modes
 * are recorded nowhere. Giving the owner access (`chmod -R u+w`) or the files to the user
 * (`chown -R $USER`, `$(whoami)`, the home folder's name) passes.
 */
function checkOwners(inv: Invocation, ctx: BashContext): Finding | null {
  const chmod = inv.program === 'chmod';
  const args = parseArgs(inv.args, OWNER_VALUED, chmod ? (v) => MODE_LIKE.test(v) : undefined);
  if (!hasFlag(args, 'R', '--recursive')) return null;
  // the owner (or mode) comes first unless --reference gives it
  const given = args.values.has('--reference') ? undefined : args.operands[0];
  if (given && (chmod ? OWNER_ADDS.test(given.value) : toTheUser(given, ctx.home))) return null;
  for (const w of given ? args.operands.slice(1) : args.operands) {
    if (isDynamic(w) || otherHome(w.value)) continue;
    const abs = resolvePath(globFolder(w.value, w.glob), { cwd: ctx.cwd ?? '/', home: ctx.home });
    const data = homeDataFolder(abs, ctx);
    if (data && !(w.glob && targetedGlob(w.value)))
      return {
        rule: 'rm.root',
        reason: `\`${inv.program} -R\` changes the ${chmod ? 'permissions' : 'owner'} of everything in ${data}: the old ones are recorded nowhere, so it cannot be undone; it is never allowed. Change the files you mean`,
      };
  }
  return null;
}
