import type { Invocation } from './command.ts';
import { parseArgs } from './families/system-args.ts';
import { gitSubcommandAt } from './git-global-options.ts';
import { gitLogPathUses } from './git-log-paths.ts';
import { GIT_LONG_OPTIONS } from './git-long-options.ts';
import { gitNameUses } from './git-name-queries.ts';
import { configOperands, namesFileOnly } from './git-settings.ts';
import { spelledOut } from './long-options.ts';
import { type Access, generic, type PathUse, use } from './path-access.ts';
import { keptSecret } from './path-uses-transfers.ts';
import { gitGrepWords } from './search-patterns.ts';
import type { Word } from './shell.ts';

/** git's paths for path-uses.ts: what each of its verbs does to the paths it names. */

/** The options of git checkout and restore that take a value (`-b NAME`, `-s REV`): a letter after one in a cluster is its value. */
const GIT_WRITER_VALUED = new Set(['-b', '-B', '-s', '--source', '--orphan', '--conflict', '--pathspec-from-file']);

/** The options of git stash push that take a value: the message and the file of pathspecs. */
const STASH_VALUED = new Set(['-m', '--message', '--pathspec-from-file']);

/**
 * The paths `git stash [push] [options] [--] PATH...` reverts to their last commit (with `-p`,
 * each change shown first); its other verbs' words (`show`, `pop`, `save MESSAGE`...) as any git verb's.
 */
function stashedPaths(inv: Invocation, rest: readonly Word[]): PathUse[] {
  const verb = rest[0]?.value;
  if (verb !== undefined && verb !== 'push' && !verb.startsWith('-')) return generic(inv, rest);
  const p = parseArgs(verb === 'push' ? rest.slice(1) : rest, STASH_VALUED);
  const patchMode = p.flags.has('p') || p.flags.has('--patch');
  return p.operands.map((w) => use(w, w.value, patchMode ? 'edit' : 'write'));
}

/**
 * git: `rm` removes (`--cached` only untracks), `mv` moves (as mv does), `checkout`/`restore`
 * write paths (with `-p` they show them first), `show REV:path` reads one; `check-ignore`,
 * `ls-files`, `status` only show a name (git-name-queries.ts); git grep's and git log's patterns
 * are no paths (search-patterns.ts).
 */
export function gitPathUses(inv: Invocation): PathUse[] {
  return [...gitOutputFiles(inv), ...gitVerbPathUses(inv)];
}

/** git's verbs that take the diff options, where `--output=<file>` writes what they would print into the file. */
const DIFF_OUTPUT_VERBS = new Set(['log', 'show', 'diff', 'diff-tree', 'diff-index', 'diff-files', 'whatchanged', 'range-diff', 'format-patch', 'stash']);

/**
 * The files git writes its output to: the diff options' `--output=<file>` (`git log -p --output
 * ~/.bashrc`), and format-patch's folder of patches (`-o <dir>`, `--output-directory <dir>`).
 */
function gitOutputFiles(inv: Invocation): PathUse[] {
  const a = inv.args;
  const i = gitSubcommandAt(a.map((w) => w.value));
  const sub = a[i]?.value;
  if (sub === undefined || !DIFF_OUTPUT_VERBS.has(sub)) return [];
  const out: PathUse[] = [];
  const folder = sub === 'format-patch' ? ['-o', '--output-directory'] : [];
  for (let j = i + 1; j < a.length; j++) {
    const w = a[j]!;
    if (w.value === '--') break;
    const m = /^(--output|--output-directory)=(.+)$/s.exec(w.value) ?? (sub === 'format-patch' ? /^(-o)(.+)$/s.exec(w.value) : null);
    if (m && (m[1] === '--output' || folder.includes(m[1]!))) out.push(use(w, m[2]!, 'write'));
    else if ((w.value === '--output' || folder.includes(w.value)) && a[j + 1]) out.push(use(a[j + 1]!, a[++j]!.value, 'write'));
  }
  return out;
}

function gitVerbPathUses(inv: Invocation): PathUse[] {
  const a = inv.args;
  const i = gitSubcommandAt(a.map((w) => w.value));
  const sub = a[i]?.value;
  const long = sub !== undefined && Object.hasOwn(GIT_LONG_OPTIONS, sub) ? GIT_LONG_OPTIONS[sub] : undefined;
  const rest = long ? spelledOut(a.slice(i + 1), long) : a.slice(i + 1);
  const values = rest.map((w) => w.value);
  // git's short options cluster (`-qp`) and its long ones may be abbreviated (`--patc`)
  const given = long ? parseArgs(rest, GIT_WRITER_VALUED).flags : new Set<string>();
  const patchMode = given.has('p') || given.has('--patch');
  const operands = () => {
    const dash = values.indexOf('--');
    return dash >= 0 ? rest.slice(dash + 1) : rest.filter((w) => !w.value.startsWith('-'));
  };
  const named = sub === undefined ? null : gitNameUses(inv, sub, rest);
  if (named) return named;
  switch (sub) {
    case 'rm':
      return values.includes('--cached') ? [] : operands().map((w) => use(w, w.value, 'remove'));
    case 'mv': {
      const ops = operands().map((w) => use(w, w.value, 'write'));
      const dest = ops.at(-1);
      const source: Access = dest && ops.length === 2 && keptSecret(ops[0]!.value, dest) ? 'remove' : 'edit';
      return ops.map((u) => (u === dest ? u : { ...u, access: source }));
    }
    case 'checkout':
      // `-p` shows each change before it is undone
      return operands().map((w) => use(w, w.value, patchMode ? 'edit' : 'write'));
    case 'restore': {
      if ((given.has('S') || given.has('--staged')) && !(given.has('W') || given.has('--worktree'))) return [];
      const source = values.findIndex((v) => v === '-s' || v === '--source');
      return operands()
        .filter((w) => w !== rest[source + 1] || source < 0)
        .map((w) => use(w, w.value, patchMode ? 'edit' : 'write'));
    }
    // `git stash push -- PATH` (and `git stash -- PATH`) puts the path's changes away and reverts it, as `git checkout -- PATH` does
    case 'stash':
      return stashedPaths(inv, rest);
    case 'show':
    case 'cat-file':
    case 'archive':
    case 'grep': {
      // git grep's pattern is no path; its pattern file is read (search-patterns.ts)
      const searched = sub === 'grep' ? gitGrepWords(rest) : { words: rest, reads: [] };
      const objects = searched.words.flatMap((w) => {
        const m = /^[^:\s]*:(?!\/\/)(.+)$/.exec(w.value);
        return m && !w.value.startsWith('-') ? [use(w, m[1]!, 'read', { fromRoot: !/^\.\.?\//.test(m[1]!) })] : [];
      });
      return [...searched.reads, ...objects, ...generic(inv, searched.words)];
    }
    // a pathspec only picks commits; their changes are shown with -p and the like (git-log-paths.ts)
    case 'log':
      return gitLogPathUses(inv, rest);
    // `git add DIR` stores every file under DIR in the repository's objects, as `tar c DIR` packs them (`git -C ~ add .ssh`)
    case 'add':
    case 'stage':
      return generic(inv, rest).map((u) => (u.access === 'read' ? { ...u, tree: true } : u));
    // `git config trailer.sign.key x`: the setting's name is no path (its value and `--file` may be)
    case 'config': {
      const at = configOperands(values);
      // `git config core.excludesFile .env.local`: a setting whose file git never shows only names it (git-settings.ts namesFileOnly)
      const skip = at[0] === undefined ? [] : namesFileOnly(values[at[0]]!) ? at.slice(0, 2) : [at[0]];
      return generic(
        inv,
        rest.filter((_, j) => !skip.includes(j)),
      );
    }
    default:
      return sub === undefined ? [] : generic(inv, rest);
  }
}
