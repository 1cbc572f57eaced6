import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { currentBranch, readRefSync } from '../../knowledge/core/location.ts';
import { noteText } from '../../knowledge/history/commit-notes.ts';
import { addPrTrailers, messageTrailers } from '../../knowledge/history/commit-trailers.ts';
import { dropPendingNote, headCommit, leavePendingNote, recordGitHookFacts } from '../../knowledge/history/git-hook-files.ts';
import { typedMarkerOf } from '../../knowledge/history/typed-markers.ts';
import { isAgentEnv } from '../../model/agent-env.ts';
import { MEMORY_REF } from '../../model/refs.ts';
import { MARKER_FORMAT, parseMarker } from '../../safety/marker.ts';
import { ancestorArgv } from '../../session/owner.ts';
import { readSession } from '../../session/sessions.ts';
import { agentReason, type GitHookIO, type HookSetting, hookSetting, prProblem, sessionOf } from './context.ts';

/** Text that is a marker (keys follow), not a mention of one ("explain the #!axme marker"). */
const MARKER_RE = /#!axme\s+(?:pr|repo)=/;
/** git's scissors line (`commit.verbose`): everything below it is the diff, not the message. */
const SCISSORS_RE = /^\S ------------------------ >8 ------------------------$/m;

/**
 * Finds the `#!axme` marker: its own line (the last one wins), else the end of the subject line;
 * never below git's scissors line, never a mere mention of the word.
 */
export function extractMarker(message: string): { marker: string; rest: string } | null {
  const cut = message.search(SCISSORS_RE);
  const head = cut < 0 ? message : message.slice(0, cut);
  const tail = cut < 0 ? '' : message.slice(cut);
  const lines = head.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const l = lines[i]!.trim();
    if (l.startsWith('#!axme') && MARKER_RE.test(l)) {
      const rest = [...lines.slice(0, i), ...lines.slice(i + 1)].join('\n');
      return { marker: l, rest: rest + tail };
    }
  }
  const at = lines[0]!.lastIndexOf('#!axme');
  if (at > 0 && MARKER_RE.test(lines[0]!.slice(at)))
    return { marker: lines[0]!.slice(at), rest: [lines[0]!.slice(0, at).trimEnd(), ...lines.slice(1)].join('\n') + tail };
  return null;
}

/**
 * commit-msg: a message ending with `#!axme pr=<N|none> repo=<owner>/<name>` is accepted unless
 * the PR is merged, and the marker becomes `Axme-PR` / `Axme-Repo` (/ `Axme-Session`) trailers —
 * the hook rewrites the file, since git strips `#` lines only after it ran. A required marker
 * that is missing rejects the commit with the format to use.
 */
export async function commitMsg(io: GitHookIO): Promise<number> {
  const file = io.args[0];
  if (!file) {
    io.stderr('axme git-hook commit-msg: git passes the message file as the first argument\n');
    return 2;
  }
  const path = resolve(io.cwd, file);
  const message = readFileSync(path, 'utf8');
  const s = await hookSetting(io);
  if (s.loc) {
    // a note left by a commit that did not happen must not land on this one
    dropPendingNote(s.loc.gitDir);
    // a person's commit through Node leaves the facts that let the next ones skip it (an agent's would not use them)
    if (!isAgentEnv(io.env)) recordGitHookFacts(s.loc, s.policy, { workspace: s.workspace, now: io.now() });
  }
  // the marker in the message, else the one the agent's command ended with as a shell comment
  const found = extractMarker(message) ?? typedMarker(s, message);
  if (!found) {
    const agent = s.policy.requireAxmeSuffix === 'agents' ? agentReason(io.env, s.loc) : null;
    const required = s.policy.requireAxmeSuffix === 'always' || agent !== null;
    // the message's own trailers (an amend, a cherry-pick), read by git as post-commit would read them
    const trailers = required || /^axme-/im.test(message) ? await messageTrailers(s.at, message) : new Map<string, string>();
    if (!required || trailers.has('axme-pr')) {
      prepareNote(io, s, message, {
        pr: trailers.get('axme-pr') ?? null,
        repo: trailers.get('axme-repo') ?? null,
        session: trailers.get('axme-session') ?? sessionOf(io, s.loc),
      });
      return 0;
    }
    const why = agent ? `it is taken for an agent's commit: ${agent}` : 'git.requireAxmeSuffix is always: every commit carries it';
    io.stderr(
      `axme: this commit needs its PR metadata (${why}). End the message with the line\n  ${MARKER_FORMAT}\n(pr=none when there is no pull request), e.g. git commit -m "<message>" -m "#!axme pr=none repo=<owner>/<name>"\n`,
    );
    return 1;
  }
  const parsed = parseMarker(found.marker);
  if (!parsed?.ok) {
    io.stderr(`axme: the #!axme line is malformed: ${parsed ? parsed.reason : 'no marker'}. Use: ${MARKER_FORMAT}\n`);
    return 1;
  }
  const { pr, repo } = parsed.marker;
  if (pr !== null) {
    const problem = await prProblem(s, repo, pr);
    if (problem) {
      io.stderr(`axme: ${problem}\n`);
      return 1;
    }
  }
  // only the blank lines the marker leaves behind go; the user's own text stays byte for byte
  const body = found.rest.replace(/(\r?\n[ \t]*)+$/, '');
  const session = sessionOf(io, s.loc);
  const final = await addPrTrailers({ at: s.at, message: `${body}\n`, pr, repo, session });
  writeFileSync(path, final);
  prepareNote(io, s, final, { pr: pr === null ? 'none' : String(pr), repo, session });
  return 0;
}

/**
 * The marker the agent's command ended with as a shell comment (`git commit -m "x" #!axme pr=none
 * repo=o/n`), which the shell dropped: the pre-tool-use hook left it with git's arguments
 * (hooks/git/command-marker.ts), and this commit's git runs with the same ones. Never for a message
 * that already carries `Axme-PR` (an amend, a cherry-pick keeps its own).
 */
function typedMarker(s: HookSetting, message: string): { marker: string; rest: string } | null {
  if (!s.loc || /^axme-pr:/im.test(message)) return null;
  const args = ancestorArgv(process.pid, 'git')?.slice(1);
  const marker = args ? typedMarkerOf(s.loc.gitDir, args) : null;
  return marker ? { marker, rest: message } : null;
}

/**
 * Works out the note of the commit being made and leaves it for post-commit (git-hook-files.ts),
 * which attaches it without starting Node: the session, the PR and repo of the trailers, the
 * decisions cited, the memory tip, the branch. Nothing is left when there is nothing to tie.
 */
function prepareNote(io: GitHookIO, s: HookSetting, message: string, known: { pr: string | null; repo: string | null; session: string | null }): void {
  if (!s.loc) return;
  const tip = readRefSync(s.loc.commonDir, MEMORY_REF);
  const text = noteText({ message, ...known, tip: tip && tip !== 'unknown' ? tip : null, branch: currentBranch(s.loc.gitDir) });
  if (text)
    leavePendingNote(s.loc.gitDir, {
      text,
      parent: headCommit(s.loc),
      session: known.session && readSession(s.loc.commonDir, known.session) ? known.session : null,
      at: io.now(),
      message,
    });
}
