import { relative, resolve } from 'node:path';
import { recordEvent } from '../session/sessions.ts';
import { harnessSession } from './harness-session.ts';
import { sessionStoreAt } from '../knowledge/core/location.ts';
import type { HookIO } from './io.ts';
import { parsePayload } from './payload.ts';

const FILE_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);

/** PostToolUse: records the file an edit changed in the session's machine-local state. */
export async function postToolUse(io: HookIO): Promise<void> {
  const p = parsePayload(io.stdin);
  if (!p.tool_name || !FILE_TOOLS.has(p.tool_name) || !p.session_id) return;
  const raw = p.tool_input.file_path ?? p.tool_input.notebook_path;
  if (typeof raw !== 'string' || !raw) return;
  const cwd = p.cwd ?? io.cwd;
  const loc = sessionStoreAt(cwd, io.env);
  if (!loc) return;
  const abs = resolve(cwd, raw);
  const rel = loc.worktree ? relative(loc.worktree, abs) : abs;
  const path = rel.startsWith('..') ? abs : rel;
  const s = harnessSession(io, { ...p, session_id: p.session_id }, loc.commonDir);
  recordEvent(loc.commonDir, s.id, { t: io.now().toISOString(), type: 'file', path, tool: p.tool_name });
}
