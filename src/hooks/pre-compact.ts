import { sessionStoreAt } from '../knowledge/core/location.ts';
import { writeCheckpoint } from '../session/checkpoint.ts';
import { recordCompaction } from '../session/given.ts';
import { readPayload } from '../setup/clients/hook-registry.ts';
import { harnessSession } from './harness-session.ts';
import type { HookIO } from './io.ts';

/**
 * The client is about to compact the session's context (Claude Code's and Codex's PreCompact,
 * Gemini CLI's PreCompress): writes the session's checkpoint (where the work stands, from its
 * record and transcript) and marks the compaction in what the session was given, so the next
 * context start — or, where the client starts none after a compaction, the next prompt — hands
 * the model the checkpoint, and items given before may be given again. Nothing is written when the
 * client says it compacts nothing this time (`compactsNow`: Gemini CLI asks before every model
 * call). Never blocks the compaction: the answer is the client's "no objection", whatever happens.
 */
export async function preCompact(io: HookIO): Promise<void> {
  const p = readPayload(io.stdin, io.protocol);
  const cwd = p.cwd ?? io.cwd;
  const loc = sessionStoreAt(cwd, io.env);
  io.stdout(io.protocol.pass);
  if (!loc || !p.session_id || io.protocol.compactsNow?.(p, { env: io.env, cwd, home: io.home }) === false) return;
  const session = harnessSession(io, { ...p, session_id: p.session_id }, loc.commonDir);
  // the mark first: should the checkpoint fail, the items still come back after the compaction
  recordCompaction(loc.commonDir, session.id, io.now());
  const text = await (await io.loadStoreWork()).compactionCheckpoint(loc, io.env, cwd, session.id);
  if (text) writeCheckpoint(loc.commonDir, session.id, text);
}
