import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomicSync } from '../../store/atomic-file.ts';

/**
 * `<git-dir>/axme/work/typed-markers.json`: the `git commit` commands an agent's shell call ended
 * with a `#!axme` comment — git's arguments and the marker — left by the pre-tool-use hook for the
 * commit-msg hook, since the shell drops the comment before git runs. The worktree's own git dir,
 * in `axme/work/` (writable from the kernel sandbox, where the hooks run), as the pending note.
 * Machine-local and derived: deleting it loses only the trailers of a commit not made yet.
 */
export const TYPED_MARKERS = 'axme/work/typed-markers.json';
/** The newest calls kept: a commit is made right after the call that typed it. */
const KEEP = 16;

interface Entry {
  args: string[];
  marker: string;
}

function read(gitDir: string): Entry[] {
  try {
    const v = JSON.parse(readFileSync(join(gitDir, TYPED_MARKERS), 'utf8')) as unknown;
    return Array.isArray(v) ? v.filter((e): e is Entry => Array.isArray(e?.args) && typeof e?.marker === 'string') : [];
  } catch {
    return [];
  }
}

/** Adds the typed commits of one shell call (the newest last), keeping the newest KEEP. */
export function leaveTypedMarkers(gitDir: string, commits: readonly Entry[]): void {
  if (!commits.length) return;
  const file = join(gitDir, TYPED_MARKERS);
  mkdirSync(dirname(file), { recursive: true });
  writeFileAtomicSync(file, `${JSON.stringify([...read(gitDir), ...commits].slice(-KEEP))}\n`);
}

/** The marker typed for the commit git runs with `args` (its arguments after `git`), the newest that matches exactly; null for none. */
export function typedMarkerOf(gitDir: string, args: readonly string[]): string | null {
  const same = (e: Entry) => e.args.length === args.length && e.args.every((a, i) => a === args[i]);
  return read(gitDir).findLast(same)?.marker ?? null;
}
