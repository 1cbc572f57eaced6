import { realpathSync } from 'node:fs';
import { guardedPaths } from '../setup/paths.ts';
import { branchAt, locateRepo } from '../knowledge/core/location.ts';
import { policyFor } from '../knowledge/rules/policy-cache.ts';
import { evaluate, type EvalContext } from '../safety/evaluate.ts';
import type { HookIO } from './io.ts';
import { ensureHarnessSession } from './harness-session.ts';
import type { HookPayload } from './payload.ts';
import { readPayload } from './protocols.ts';

/**
 * Before a tool call (Claude Code's and Codex's PreToolUse, Gemini's BeforeTool, Cursor's
 * beforeShellExecution / beforeReadFile / beforeMCPExecution): checks what the call does against
 * the policy in force and answers in the client's protocol — a deny that says why, or the
 * client's "no opinion", never an allow that would skip the client's own approval.
 */
export async function preToolUse(io: HookIO): Promise<void> {
  const p = readPayload(io.stdin, io.protocol);
  if (!p.calls.length) {
    io.stdout(io.protocol.deny(`axme could not check this call: the hook input names no tool_name (${io.protocol.client}, event ${p.hook_event_name ?? 'unnamed'}). Is the hook registered for the events before a tool call?`));
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
    cwd,
    home: io.home,
    root: loc?.worktree ?? undefined,
    branchOf: (dir, gitDir) => branchAt(dir, io.env, gitDir),
    lookupPr:
      io.lookupPr ??
      (async (repo, pr) => (await io.loadStoreWork()).lookupPr({ repo, pr, env: io.env, now: io.now, loc })),
    // a workspace store is written by axme only: an agent's tools must not touch it
    protectedPaths: [...guardedPaths(loc, io.home, { installDir: io.installDir, env: io.env }), ...(workspace ? [workspace.gitDir] : [])],
    realpath: (path) => {
      try {
        return realpathSync(path);
      } catch {
        return null;
      }
    },
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
  io.stdout(denied !== null ? io.protocol.deny(denied) : asked !== null ? io.protocol.ask(asked) : io.protocol.pass);
  // the session's store: the repository's, or in a workspace folder the workspace store
  const sessions = loc?.commonDir ?? workspace?.gitDir;
  if (sessions && p.session_id) startSession(io, { ...p, session_id: p.session_id }, sessions);
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
