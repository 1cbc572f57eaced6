/**
 * The `#!axme` marker an agent ends its `git commit` command with, as a shell comment (`git commit
 * -m "Fix" #!axme pr=none repo=acme/app`: the form the instructions, the session's context and the
 * guard's reason give). The shell drops the comment, so the commit's message never holds it: the
 * pre-tool-use hook, which reads the command, leaves each such commit's arguments and marker for
 * the commit-msg hook (knowledge/history/typed-markers.ts), which finds its own by git's arguments.
 */
import { unwrap } from '../../safety/command.ts';
import { gitSubcommandAt } from '../../safety/git-global-options.ts';
import { parseMarker } from '../../safety/marker.ts';
import { parseShell } from '../../safety/shell.ts';

/** How deep `eval '…'` and `bash -c '…'` bodies are followed. */
const MAX_DEPTH = 4;

/** A `git commit` a command line runs with a marker as its comment: git's arguments after `git`, and the marker. */
export interface TypedCommit {
  args: string[];
  marker: string;
}

/**
 * The `git commit` commands of `command` (and of the `eval` / `sh -c` bodies it runs) that end with
 * a well-formed `#!axme` comment, each with git's arguments as the shell hands them over. Another
 * git command's marker is its own (`git commit -m a && git push #!axme …`: the push's), as the
 * guard reads it.
 */
export function typedCommits(command: string, home: string, depth = 0): TypedCommit[] {
  if (depth > MAX_DEPTH || !command.includes('#!axme')) return [];
  const out: TypedCommit[] = [];
  for (const cmd of parseShell(command, { home }).commands) {
    const { invocation, scripts } = unwrap(cmd);
    for (const body of scripts) out.push(...typedCommits(body, home, depth + 1));
    if (cmd.comment === null || invocation?.program !== 'git') continue;
    const parsed = parseMarker(`#${cmd.comment}`);
    const args = invocation.args.map((w) => w.value);
    if (parsed?.ok && args[gitSubcommandAt(args)] === 'commit') out.push({ args, marker: `#${cmd.comment.trim()}` });
  }
  return out;
}
