import { locateRepo, sessionStoreAt } from '../knowledge/core/location.ts';
import { CHECKPOINT_KEY } from '../session/given.ts';
import { readPayload } from '../setup/clients/hook-registry.ts';
import { dueCheckpoint, givenSoFar, rememberGiven } from './given.ts';
import { harnessSessionIfRecorded } from './harness-session.ts';
import type { HookIO } from './io.ts';

/** What the session start injects stays this small at any store size; the rest is one axme_context call away. */
export const SESSION_START_BUDGET = 6_000;
/** Room kept for the lines the hook adds after the page (the session's id, a recovery or sync note). */
const NOTES_ROOM = 400;

/** SessionStart (Claude Code, Codex, Gemini CLI, Cursor's sessionStart): registers the session and hands the agent the compact project context. */
export async function sessionStart(io: HookIO): Promise<void> {
  const p = readPayload(io.stdin, io.protocol);
  const cwd = p.cwd ?? io.cwd;
  const loc = sessionStoreAt(cwd, io.env);
  if (!loc) return void io.stdout(io.protocol.pass);
  let sessionId: string | undefined;
  if (p.session_id) {
    sessionId = harnessSessionIfRecorded(io, { ...p, session_id: p.session_id }, loc.commonDir, { renew: true })?.id;
  }
  // after a compaction (Claude Code's SessionStart with source "compact"), the checkpoint leads
  const checkpoint = sessionId ? dueCheckpoint(loc.commonDir, sessionId, givenSoFar(io, loc.commonDir, sessionId)) : null;
  const head = checkpoint ? `${checkpoint}\n\n` : '';
  const slow = await io.loadStoreWork();
  const { text, listed } = await slow.sessionContext(loc, io.env, { budget: SESSION_START_BUDGET - NOTES_ROOM - head.length, sessionId, cwd, self: io.self });
  const [sandbox, team] = await Promise.all([sandboxNote(io, cwd), teamNote(io, cwd)]);
  io.stdout(io.protocol.context(`${head}${text}${sandbox}${team}`));
  // what the context listed is not recalled again in this session (session/given.ts)
  if (sessionId) rememberGiven(io, loc.commonDir, sessionId, 'session-start', checkpoint ? [CHECKPOINT_KEY, ...listed] : listed);
}

/**
 * One line when the kernel sandbox could run here but does not (Linux without a working
 * bubblewrap): never a silent fallback to the parser alone. Nothing when it is on, off by choice,
 * or the client has no way in.
 */
async function sandboxNote(io: HookIO, cwd: string): Promise<string> {
  if (io.protocol.sandbox === undefined || process.platform !== 'linux') return '';
  try {
    const { openSandbox } = await import('../setup/sandbox.ts');
    const { hookYaml } = await import('./sandbox-route.ts');
    const { state } = await openSandbox({ loc: locateRepo(cwd, io.env), cwd, home: io.home, env: io.env, parseYaml: hookYaml(io) });
    if (state.on || state.chosen) return '';
    return `\n\n(axme's kernel sandbox is off on this machine: ${state.why}.${state.fix ? ` Tell the user: ${state.fix}.` : ''})`;
  } catch {
    return '';
  }
}

/** One line when this client's axme server is a team server it cannot use (setup/team-server-note.ts); nothing otherwise. */
async function teamNote(io: HookIO, cwd: string): Promise<string> {
  try {
    const root = locateRepo(cwd, io.env)?.worktree;
    if (!root) return '';
    // on the slow path (setup's file readers stay out of the hook bundle)
    return await (await io.loadStoreWork()).teamServerNote({ root, client: io.client, env: io.env });
  } catch {
    return '';
  }
}
