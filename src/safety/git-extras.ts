import { UNKNOWN } from './shell.ts';

/**
 * git-extras' commands (`git delete-branch`, `git obliterate`…) that are a git command under
 * another name: each read as the git command it runs, so that command's rules judge it
 * (docs/safety.md, "Shell commands are parsed, not grepped"). `delete-branch B` and
 * `rename-branch OLD NEW` delete a branch on origin (`git push origin --delete B`), `delete-tag T` a
 * tag there, `obliterate F` rewrites every commit (`git filter-branch … -- --all`), `undo --hard`
 * and `clear` reset the working tree (`git reset --hard`); git's contrib `subtree push --prefix=P
 * REMOTE BRANCH` pushes a folder's split history to that branch (`git push REMOTE HEAD:BRANCH`). Their local neighbours (`git summary`,
 * `git effort`, `git undo` of a soft kind) run no such command and are left alone. A deletion
 * pushes no commit, so it carries no `#!axme` marker (git-rules.ts checkGit).
 */

/** The git call a git-extras command makes, or null when it is none of these (or names nothing). */
export function gitExtrasCall(sub: string, args: readonly string[]): { sub: string; args: string[] } | null {
  const named = args.filter((a) => !a.startsWith('-'));
  switch (sub) {
    case 'delete-branch':
      return named.length ? { sub: 'push', args: ['origin', '--delete', ...named] } : null;
    case 'delete-tag':
      return named.length ? { sub: 'push', args: ['origin', ...named.map((t) => `:refs/tags/${t}`)] } : null;
    // `rename-branch OLD NEW`: OLD pushed as NEW, then deleted on origin
    case 'rename-branch':
      return named.length >= 2 ? { sub: 'push', args: ['origin', '--delete', named[0]!] } : null;
    case 'obliterate':
      return {
        sub: 'filter-branch',
        args: ['--force', '--index-filter', `git rm -r --cached --ignore-unmatch ${named.join(' ')}`, '--prune-empty', '--', '--all'],
      };
    case 'undo':
      return args.some((a) => a === '--hard' || a === '-h') ? { sub: 'reset', args: ['--hard', `HEAD~${named[0] ?? '1'}`] } : null;
    // `git clear` (`clean -dfx` too), `git clear-soft` (`clean -df`): both reset hard first
    case 'clear':
    case 'clear-soft':
      return { sub: 'reset', args: ['--hard'] };
    // git's own contrib `subtree push --prefix=P REMOTE BRANCH`: the folder's history split off and pushed to that branch
    case 'subtree': {
      if (named[0] !== 'push') return null;
      const operands: string[] = [];
      for (let i = args.indexOf('push') + 1; i < args.length; i++) {
        if (/^(-P|--prefix|-m|--message)$/.test(args[i]!)) i++;
        else if (!args[i]!.startsWith('-')) operands.push(args[i]!);
      }
      const [remote, branch] = operands;
      // a branch only the shell knows (`"tempv${v}"`) is left alone, as it names no protected branch for sure
      return remote && branch && !branch.includes(UNKNOWN) ? { sub: 'push', args: [remote, `HEAD:refs/heads/${branch.replace(/^refs\/heads\//, '')}`] } : null;
    }
    default:
      return null;
  }
}
