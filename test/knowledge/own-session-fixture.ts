import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { after } from 'node:test';
import { axmeOk, cleanEnv, commitFiles, git, tempRepo } from '../helpers.ts';

// A project whose git hooks write the notes, and the steps of the tests of a session's own commits
// (own-session-commits, squashed-session-commits): commit as a session or a person, decide, verify.

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));

export const pkg = (deps: Record<string, string>) => `${JSON.stringify({ name: 'shop', dependencies: deps }, null, 2)}\n`;

/** A project with axme set up (its git hooks write the notes) and committed. */
export async function project(): Promise<string> {
  const { dir, cleanup } = tempRepo();
  cleanups.push(cleanup);
  commitFiles(
    dir,
    { 'src/rate.ts': 'export const rate = 1;\n', 'src/cart.ts': 'export const cart = 1;\n', 'package.json': pkg({ zod: '^4.0.0' }), 'README.md': '# shop\n' },
    'initial code',
  );
  await axmeOk(dir, ['init', '--json']);
  commitFiles(dir, {}, 'set up axme');
  return dir;
}

/** Writes `files` and commits them through git with the hooks, as session `session` (none: a person) would; `date` sets the author and committer dates. */
export function commitAs(dir: string, session: string | null, files: Record<string, string>, message: string, date?: string): string {
  const env = cleanEnv({ ...(session ? { AXME_SESSION: session } : {}), ...(date ? { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } : {}) });
  for (const [p, text] of Object.entries(files)) execFileSync('sh', ['-c', 'mkdir -p "$(dirname "$1")" && printf %s "$2" > "$1"', 'sh', join(dir, p), text]);
  execFileSync('git', ['add', '-A'], { cwd: dir, env });
  execFileSync('git', ['commit', '-q', '-m', message], { cwd: dir, env, stdio: ['pipe', 'pipe', 'pipe'] });
  return git(dir, ['rev-parse', 'HEAD']).trim();
}

/** Saves a decision as session `session`. */
export async function decide(dir: string, session: string | null, title: string, anchors: string[], now?: string): Promise<void> {
  const env = { ...(session ? { AXME_SESSION: session } : {}), ...(now ? { AXME_NOW: now } : {}) };
  await axmeOk(dir, ['decision', 'add', '--title', title, '--decision', `${title}.`, ...anchors.flatMap((a) => ['--anchor', a]), '--json'], { env });
}

export interface Stale {
  kind: string;
  slug: string;
  changes: Array<{ anchor: string; change: string; from_version?: string; to_version?: string }>;
  commits: Array<{ sha: string }>;
}
export async function staleOf(dir: string): Promise<Stale[]> {
  return (await axmeOk(dir, ['verify', '--json'])).stale;
}
/** The commits verify names for the one stale decision, oldest first; undefined when none is stale. */
export async function staleCommits(dir: string): Promise<string[] | undefined> {
  const d = (await staleOf(dir)).find((s) => s.kind === 'decision');
  return d?.commits.map((c) => c.sha).reverse();
}

export const S = 'sess-decider';
export const T = 'sess-teammate';
