import { realpathSync, statSync } from 'node:fs';
import { branchAt, locateRepo } from '../knowledge/core/location.ts';
import { leaveTypedMarkers } from '../knowledge/history/typed-markers.ts';
import { policyFor } from '../knowledge/rules/policy-cache.ts';
import { type EvalContext, evaluate } from '../safety/evaluate.ts';
import type { HookPayload } from '../setup/clients/hook-payload.ts';
import { readPayload } from '../setup/clients/hook-registry.ts';
import { guardedPaths } from '../setup/paths.ts';
import { projectFileText, projectFolderNames } from '../setup/project-files.ts';
import type { Sandbox } from '../setup/sandbox.ts';
import { typedCommits } from './git/command-marker.ts';
import { axmeGitHooksPath } from './git-hooks-path.ts';
import { ensureHarnessSession } from './harness-session.ts';
import type { HookIO } from './io.ts';
import { preEditRecall } from './pre-edit-recall.ts';
import { recordEdits } from './record-edits.ts';
import { gitSettingAt, remoteUrlAt } from './remote-url.ts';
import { routeIntoSandbox } from './sandbox-route.ts';

/** What the guard's check leaves of the event's time for the answer: on a busy machine, a check past the rest denies the call. */
const ANSWER_MARGIN_MS = 1_000;

/**
 * Before a tool call (Claude Code's and Codex's PreToolUse, Gemini's BeforeTool, Cursor's
 * beforeShellExecution / beforeReadFile / beforeMCPExecution): checks what the call does against
 * the policy in force and answers in the client's protocol — a deny that says why, or the
 * client's "no opinion" (with the call's input changed where the client's adapter asks:
 * Gemini CLI's git hooks), never an allow that would skip the client's own approval. The edits of
 * a call let through are recorded here when the client reports them in no after-tool event (Codex).
 */
export async function preToolUse(io: HookIO): Promise<void> {
  const p = readPayload(io.stdin, io.protocol);
  if (!p.calls.length) {
    io.stdout(
      io.protocol.deny(
        `axme could not check this call: the hook input names no tool_name (${io.client}, event ${p.hook_event_name ?? 'unnamed'}). Is the hook registered for the events before a tool call?`,
      ),
    );
    return;
  }
  const cwd = p.cwd ?? io.cwd;
  const loc = locateRepo(cwd, io.env);
  const { policy, workspace } = await policyFor(
    loc,
    io.version,
    async () => {
      const slow = await io.loadStoreWork();
      return slow.readRepositoryPolicy(loc, io.env, cwd);
    },
    cwd,
  );
  for (const w of policy.warnings) io.stderr(`axme: ${w}\n`);
  const ctx: EvalContext = {
    // answer before the client gives up on the hook (the deadline's timer cannot cut a check short);
    // counted from the event's start, the policy's load included
    deadline: io.answerBy === undefined ? undefined : io.answerBy - ANSWER_MARGIN_MS,
    cwd,
    home: io.home,
    root: loc?.worktree ?? undefined,
    commonDir: loc?.commonDir,
    branchOf: (dir, gitDir) => branchAt(dir, io.env, gitDir),
    remoteUrl: (dir, gitDir, name) => remoteUrlAt(dir, io.env, gitDir, name),
    gitSetting: (dir, gitDir, key) => gitSettingAt(dir, io.env, gitDir, key),
    lookupPr: io.lookupPr ?? (async (repo, pr) => (await io.loadStoreWork()).lookupPr({ repo, pr, env: io.env, now: io.now, loc })),
    // a workspace store is written by axme only: an agent's tools must not touch it
    protectedPaths: [...guardedPaths(loc, io.home, { installDir: io.installDir, env: io.env }), ...(workspace ? [workspace.gitDir] : [])],
    realpath: (path) => {
      try {
        return realpathSync(path);
      } catch {
        return null;
      }
    },
    pathKind: (path) => {
      try {
        const st = statSync(path, { throwIfNoEntry: false });
        return st ? (st.isDirectory() ? 'folder' : 'file') : null;
      } catch {
        return null;
      }
    },
    // asked only for a command that runs a project's script (`npm run x`, `make x`): the files that define it
    fileText: projectFileText,
    folderNames: projectFolderNames,
  };
  // a deny of any call decides; an "ask" is put to a person (where the client can) when nothing denies
  let denied: string | null = null;
  let asked: string | null = null;
  for (const call of p.calls) {
    const verdict = await evaluate(call, policy, ctx);
    if (verdict.decision === 'deny') {
      denied = verdict.reason;
      break;
    }
    if (verdict.decision === 'ask') asked ??= verdict.reason;
  }
  // what the parser lets through runs in the kernel sandbox (docs/safety.md); where that is required but cannot start, a shell call is denied
  const shell = denied === null && io.protocol.sandbox !== undefined && p.calls.some((c) => c.tool === 'Bash');
  const commands = p.calls.flatMap((c) => (c.tool === 'Bash' && typeof c.input.command === 'string' ? [c.input.command] : []));
  const route = shell ? await routeIntoSandbox(io, { loc, cwd, protectedPaths: ctx.protectedPaths ?? [], commands }) : null;
  const sandbox = route?.sandbox ?? null;
  if (route?.deny) denied = route.deny;
  const answer = denied !== null ? io.protocol.deny(denied) : asked !== null ? io.protocol.ask(asked) : await passAnswer(io, p, sandbox);
  // a plain "no objection" may carry what the store knows about the files the call edits; a deny, an ask or a changed input stays as it is
  io.stdout(denied === null && asked === null && answer === io.protocol.pass ? await withRecall(io, p, loc, cwd, answer) : answer);
  // the session's store: the repository's, or in a workspace folder the workspace store
  const sessions = loc?.commonDir ?? workspace?.gitDir;
  if (sessions && p.session_id) startSession(io, { ...p, session_id: p.session_id }, sessions);
  if (denied === null && io.protocol.recordsEditsBefore) recordEditsBefore(io, p);
  if (denied === null && loc) leaveTypedCommits(io, loc.gitDir, commands);
}

/**
 * The commits a shell call let through marks with a `#!axme` comment, left for the commit-msg
 * hook (the shell drops the comment before git runs: hooks/git/command-marker.ts). Never changes the verdict.
 */
function leaveTypedCommits(io: HookIO, gitDir: string, commands: string[]): void {
  try {
    leaveTypedMarkers(
      gitDir,
      commands.flatMap((c) => typedCommits(c, io.home)),
    );
  } catch (err) {
    io.stderr(`axme: could not leave the #!axme marker for the commit-msg hook (${(err as Error).message})\n`);
  }
}

/** `pass` with the pre-edit recall for the files `p` edits, where the client shows the model context there; `pass` on any failure (said on stderr). */
async function withRecall(io: HookIO, p: HookPayload, loc: ReturnType<typeof locateRepo>, cwd: string, pass: string): Promise<string> {
  if (!io.protocol.toolContext) return pass;
  try {
    const text = await preEditRecall(io, p, loc, cwd);
    return text ? io.protocol.toolContext(text) : pass;
  } catch (err) {
    io.stderr(`axme: could not recall what the store knows about this file (${(err as Error).message})\n`);
    return pass;
  }
}

/** The client's "no objection" to `p`, with its input changed where its adapter asks (facts looked up only then). */
async function passAnswer(io: HookIO, p: HookPayload, sandbox: Sandbox | null): Promise<string> {
  if (!io.protocol.passChanged) return io.protocol.pass;
  const askGit = async (dir: string) => (await io.loadStoreWork()).gitHooksPath(dir, io.env);
  const sandboxed = async (command: string, dir: string) => (sandbox && io.protocol.sandbox === 'rewrite' ? sandbox.commandLine(command, dir) : null);
  return (await io.protocol.passChanged(p, { axmeGitHooksPath: (dir) => axmeGitHooksPath(dir, io.env, askGit), sandboxed })) ?? io.protocol.pass;
}

/** The files a call let through will edit, recorded now: its client reports them in no after-tool event. Never changes the verdict. */
function recordEditsBefore(io: HookIO, p: HookPayload): void {
  try {
    recordEdits(io, p);
  } catch (err) {
    io.stderr(`axme: could not record the files of this call (${(err as Error).message})\n`);
  }
}

/**
 * A session starts on the agent's first tool call even when SessionStart was not delivered:
 * one stat per call finds it already mapped. Tracking never changes the verdict.
 */
function startSession(io: HookIO, p: HookPayload & { session_id: string }, commonDir: string): void {
  try {
    ensureHarnessSession(io, p, commonDir);
  } catch (err) {
    io.stderr(`axme: could not record the session (${(err as Error).message})\n`);
  }
}
