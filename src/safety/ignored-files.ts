import type { Invocation } from './command.ts';
import type { Finding } from './git-rules.ts';
import { secretNameFinding } from './path-rules.ts';
import { pathUses } from './path-uses.ts';
import type { SimpleCommand } from './syntax.ts';

/**
 * The files git ignores staged wholesale (docs/safety.md, "Secret file names"): what a project's
 * `.gitignore` keeps out of git is where its `.env`, its keys and its local settings live, and
 * the guard cannot see which of them the folder holds. `git add --force` of the whole tree
 * (`git add -f .`, `git add -fA`, `git add --force :/`) stages every one of them; so does `git add
 * .` (`-A`, `--all`) after the same line took `.gitignore` away, emptied it or edited a secret's
 * name out of it (`rm .gitignore`, `: > .gitignore`, `sed -i '/^\.env/d' .gitignore`). A forced add of one folder or file passes
 * (`git add -f dist`, the build a branch publishes; a secret's own name is the secret rules'),
 * as does a whole-tree add that touches no ignore file (`git add -A`).
 */

/** Pathspecs that name the whole working tree (or all of the folder the command runs in). */
const WHOLE = new Set(['.', './', ':/', ':', '*', ':/*']);
/** git's global options that take the next word. */
const GIT_VALUED = new Set(['-c', '-C', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env']);

/** `git [global options] add …`: the add's words, or null for another command. */
function addWords(inv: Invocation): string[] | null {
  if (inv.program !== 'git') return null;
  const args = inv.args.map((w) => w.value);
  for (let i = 0; i < args.length; i++) {
    if (GIT_VALUED.has(args[i]!)) i++;
    else if (!args[i]!.startsWith('-')) return args[i] === 'add' ? args.slice(i + 1) : null;
  }
  return null;
}

/** What an add stages: forced, and whether of the whole tree (`.`, `:/`, `-A` with no pathspec). */
function staged(words: readonly string[]): { forced: boolean; whole: boolean } {
  const shorts = words.filter((w) => /^-[a-zA-Z]+$/.test(w)).join('');
  const forced = words.includes('--force') || shorts.includes('f');
  const all = words.includes('--all') || words.includes('--no-ignore-removal') || shorts.includes('A');
  const end = words.indexOf('--');
  const specs = words.filter((w, i) => (end >= 0 && i > end) || (!w.startsWith('-') && (end < 0 || i < end)));
  return { forced, whole: specs.some((s) => WHOLE.has(s)) || (all && specs.length === 0) };
}

const IGNORE_FILE = /(^|\/)\.gitignore$/;

/**
 * Whether a command takes a `.gitignore` away or empties it (`rm`, `mv` away, `git rm`, `>`, `:
 * >`), or edits it with words that name a secret (`sed -i '/^\.env/d'`: secret-names.ts's names);
 * appending (`>>`, `echo .env >> .gitignore`) ignores more and is none.
 */
function changesIgnoreFile(inv: Invocation | null, cmd: SimpleCommand): boolean {
  if (cmd.redirects.some((r) => (r.op === '>' || r.op === '>|') && r.target && IGNORE_FILE.test(r.target.value))) return true;
  const uses = inv ? pathUses(inv).filter((u) => IGNORE_FILE.test(u.value)) : [];
  if (uses.some((u) => u.access === 'remove' || (u.access === 'write' && inv!.program !== 'tee'))) return true;
  if (!uses.some((u) => u.access === 'edit')) return false;
  // the edit's own words, unescaped, as names: one a secret's (`.env`, `*.pem`, `id_rsa`) is taken out of the ignored
  const names = inv!.args.flatMap((w) => w.value.replace(/\\/g, '').split(/[^\w.*-]+/)).filter(Boolean);
  return names.some((n) => !IGNORE_FILE.test(n) && secretNameFinding(`/p/${n.replace(/^\^/, '')}`, 'read', /\*/.test(n)) !== null);
}

/** The finding on a line that stages the files git ignores wholesale (module comment), or null. */
export function checkIgnoredAdded(commands: readonly SimpleCommand[], invocationOf: (cmd: SimpleCommand) => Invocation | null): Finding | null {
  let ignoreChanged = false;
  for (const c of commands) {
    const inv = invocationOf(c);
    const words = inv && addWords(inv);
    if (words) {
      const s = staged(words);
      if (s.whole && (s.forced || ignoreChanged))
        return {
          rule: 'secrets.ignoredAdded',
          reason: `\`git add\` ${s.forced ? 'forced over' : 'after changing'} .gitignore stages every file it kept out of git — the .env files, keys and local settings among them: add the files you mean by name`,
        };
    }
    if (changesIgnoreFile(inv, c)) ignoreChanged = true;
  }
  return null;
}
