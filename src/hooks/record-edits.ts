import { relative, resolve } from 'node:path';
import { sessionStoreAt } from '../knowledge/core/location.ts';
import { recordEvent } from '../session/sessions.ts';
import type { HookPayload } from '../setup/clients/hook-payload.ts';
import { harnessSession } from './harness-session.ts';
import type { HookIO } from './io.ts';

/** The tools whose calls change a file (in the common vocabulary). */
const FILE_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);

/**
 * Records the files `p`'s calls edit in the session's machine-local state (relative to the
 * working tree when inside it): after an edit (post-tool-use), or before one the client reports
 * in no after-tool event (pre-tool-use, Codex's apply_patch). Nothing without a session or an edit.
 */
export function recordEdits(io: HookIO, p: HookPayload): void {
  if (!p.session_id) return;
  const raws = p.calls
    .filter((c) => FILE_TOOLS.has(c.tool))
    .map((c) => c.input.file_path ?? c.input.notebook_path)
    .filter((r): r is string => typeof r === 'string' && r !== '');
  if (!raws.length) return;
  const cwd = p.cwd ?? io.cwd;
  const loc = sessionStoreAt(cwd, io.env);
  if (!loc) return;
  const s = harnessSession(io, { ...p, session_id: p.session_id }, loc.commonDir);
  for (const raw of new Set(raws)) {
    const abs = resolve(cwd, raw);
    const rel = loc.worktree ? relative(loc.worktree, abs) : abs;
    const path = rel.startsWith('..') ? abs : rel;
    recordEvent(loc.commonDir, s.id, { t: io.now().toISOString(), type: 'file', path, tool: p.tool_name ?? p.calls[0]!.tool });
  }
}
