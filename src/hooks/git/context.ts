import { locateRepo, type RepoLocation } from '../../knowledge/core/location.ts';
import type { GitAt } from '../../knowledge/history/commit-trailers.ts';
import { policyFor } from '../../knowledge/rules/policy-cache.ts';
import { SESSION_ID_FORM, SESSION_ID_RE } from '../../model/session-id.ts';
import type { PrLookup, PrState } from '../../safety/evaluate.ts';
import type { Policy } from '../../safety/policy.ts';
import { prFinding } from '../../safety/pr-gate.ts';
import { sessionOfProcess } from '../../session/current.ts';

/** What a git hook handler may touch. */
export interface GitHookIO {
  args: string[];
  stdin: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  now: () => Date;
  version: string;
  loadStoreWork: () => Promise<typeof import('../store-work.ts')>;
  /** PR state; default GitHub through Octokit */
  lookupPr?: ((repo: string, pr: number) => Promise<PrState | PrLookup>) | undefined;
}

/** The hooks that said AXME_SESSION is not a session id (said once per hook). */
const warned = new WeakSet<GitHookIO>();

/**
 * The agent session this git command runs in: AXME_SESSION, else the open session whose harness
 * is an ancestor. An AXME_SESSION that is not a session id (a newline would write trailers and
 * note lines of its own) is ignored, with a warning: the commit goes on without it.
 */
export function sessionOf(io: GitHookIO, loc: RepoLocation | null): string | null {
  const given = io.env.AXME_SESSION;
  if (given && SESSION_ID_RE.test(given)) return given;
  if (given && !warned.has(io)) {
    warned.add(io);
    io.stderr(
      `axme: AXME_SESSION ${JSON.stringify(given.slice(0, 80))} is not a session id (${SESSION_ID_FORM}): ignored, this commit names no session from it\n`,
    );
  }
  return loc ? (sessionOfProcess(loc.commonDir)?.id ?? null) : null;
}

/**
 * Why the process counts as a coding agent's, or null when it does not: Claude Code sets
 * CLAUDECODE=1 for its commands (AXME_AGENT=1 for other agents); and an open agent session whose
 * harness process is an ancestor counts too — an environment variable can be unset, the process
 * tree cannot. Every rejection says this reason, so a person is never bound without knowing why.
 */
export function agentReason(env: NodeJS.ProcessEnv, loc?: RepoLocation | null): string | null {
  if (env.CLAUDECODE === '1') return 'CLAUDECODE=1 is set (Claude Code sets it for the commands it runs)';
  if (env.AXME_AGENT === '1') return 'AXME_AGENT=1 is set';
  const session = loc ? sessionOfProcess(loc.commonDir) : null;
  return session
    ? `it runs inside agent session ${session.id} (${session.harness}: its harness, process ${session.ownerPid}, is an ancestor of this command; \`axme session show ${session.id}\`)`
    : null;
}

export interface HookSetting {
  at: GitAt;
  loc: RepoLocation | null;
  policy: Policy;
  /** a workspace store's rules are merged in (the shell's fast path then never applies) */
  workspace: boolean;
  lookup: (repo: string, pr: number) => Promise<PrLookup>;
}

/** The repository, its policy (defaults without a store) and a PR lookup. */
export async function hookSetting(io: GitHookIO): Promise<HookSetting> {
  const loc = locateRepo(io.cwd, io.env);
  const { policy, workspace } = await policyFor(loc, io.version, async () => (await io.loadStoreWork()).readRepositoryPolicy(loc, io.env, io.cwd), io.cwd);
  for (const w of policy.warnings) io.stderr(`axme: ${w}\n`);
  const lookup = async (repo: string, pr: number): Promise<PrLookup> => {
    const r = io.lookupPr ? await io.lookupPr(repo, pr) : await (await io.loadStoreWork()).lookupPr({ repo, pr, env: io.env, now: io.now, loc });
    return typeof r === 'string' ? { state: r } : r;
  };
  return { at: { cwd: io.cwd, env: io.env }, loc, policy, workspace: !!workspace && workspace.gitDir !== loc?.commonDir, lookup };
}

/** Why a `pr=N` marker must not be used, or null when it may (the harness hook's rule, verbatim). */
export async function prProblem(s: HookSetting, repo: string, pr: number): Promise<string | null> {
  return prFinding(repo, pr, await s.lookup(repo, pr), s.policy.unverifiedPr)?.reason ?? null;
}
