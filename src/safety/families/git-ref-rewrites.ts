import type { GitCall } from '../git-rules.ts';
import type { Hit } from './args.ts';

/**
 * The git history family's ref commands that name their branch elsewhere than update-ref's and
 * branch's operands (docs/safety.md, "Rule families past the lists", the `gitHistory` row): `update-ref --stdin` fed its commands
 * (`delete refs/heads/main`, `update refs/heads/main <rev>`), `symbolic-ref refs/heads/main
 * <other>` (the branch made a pointer to another one, what it held no longer under its name), and
 * `git lfs migrate import|export`, which rewrites every commit of the branches it is given as
 * `filter-repo` does (not with `--no-rewrite`, which adds one commit).
 */

/** A branch's protected name, or null (git-history.ts protectedBranch with the policy's globs). */
type ProtectedName = (name: string | undefined) => string | null;

/**
 * The calls `git update-ref --stdin` makes of what it reads, as update-ref's own arguments (`-d
 * REF`, `REF NEW`), each judged as if written so; none when it reads no text the line spells out
 * (self-rules.ts asks for the ref on the command line then) or is told `-z` (NUL-separated).
 */
export function stdinRefCalls(call: GitCall, stdin: string | null): GitCall[] {
  if (call.sub !== 'update-ref' || !call.args.includes('--stdin') || stdin === null || call.args.includes('-z')) return [];
  const out: GitCall[] = [];
  for (const line of stdin.split('\n')) {
    const [verb, ref, value] = line.trim().split(/\s+/);
    if (!ref) continue;
    if (verb === 'delete') out.push({ ...call, args: ['-d', ref] });
    else if (verb === 'update' && value) out.push({ ...call, args: [ref, value] });
  }
  return out;
}

/** `git symbolic-ref refs/heads/main refs/heads/x`, `symbolic-ref -d refs/heads/main`: a protected branch turned into another one's name, or deleted. */
export function checkSymbolicRef(args: readonly string[], protectedName: ProtectedName): Hit | null {
  const operands = args.filter((a, i) => !a.startsWith('-') && args[i - 1] !== '-m');
  const deletes = args.some((a) => a === '-d' || a === '--delete');
  const b = (deletes || operands.length >= 2) && operands[0]?.startsWith('refs/heads/') ? protectedName(operands[0]) : null;
  return b
    ? {
        rule: `symbolic-ref ${operands[0]}`,
        reason: `\`git symbolic-ref ${operands.join(' ')}\` ${deletes ? 'deletes' : 'turns'} the protected branch ${b}${deletes ? '' : ' into a pointer to another branch'}: the commits it held are no longer under its name`,
      }
    : null;
}

/** `git lfs migrate import|export` (not `--no-rewrite`): every commit of the branches given (`--everything`: all) rewritten. */
export function checkLfsMigrate(args: readonly string[]): Hit | null {
  const [verb, mode] = args.filter((a) => !a.startsWith('-'));
  if (verb !== 'migrate' || (mode !== 'import' && mode !== 'export') || args.includes('--no-rewrite')) return null;
  return {
    rule: `lfs migrate ${mode}`,
    reason: `\`git lfs migrate ${mode}\` rewrites every commit of the branches it is given (the current one, protected or not; \`--everything\`: all of them) and replaces them for everyone who fetches them`,
  };
}
