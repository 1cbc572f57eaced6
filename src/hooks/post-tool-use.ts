import { relative, resolve } from 'node:path';
import { recordEvent } from '../session/sessions.ts';
import { harnessSession } from './harness-session.ts';
import { sessionStoreAt } from '../knowledge/core/location.ts';
import type { HookIO } from './io.ts';
import { readPayload } from './protocols.ts';

const FILE_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);

/**
 * After a tool call (PostToolUse, Gemini's AfterTool, Cursor's afterFileEdit): records the files
 * an edit changed in the session's machine-local state.
 */
export async function postToolUse(io: HookIO): Promise<void> {
  const p = readPayload(io.stdin, io.protocol);
  if (!p.session_id) return;
  const raws = p.calls.filter((c) => FILE_TOOLS.has(c.tool)).map((c) => c.input.file_path ?? c.input.notebook_path).filter((r): r is string => typeof r === 'string' && r !== '');
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
