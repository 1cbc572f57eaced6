import { relative, resolve } from 'node:path';
import type { RepoLocation } from '../knowledge/core/location.ts';
import { type AnchoredEntry, anchoredTo, anchorIndexKey, readAnchorIndex } from '../knowledge/views/anchor-index.ts';
import { PRE_EDIT_HEADER, recallText } from '../knowledge/views/recall-lines.ts';
import { fileKey, itemKey } from '../session/given.ts';
import type { HookPayload } from '../setup/clients/hook-payload.ts';
import { givenSoFar, rememberGiven } from './given.ts';
import { harnessSession } from './harness-session.ts';
import type { HookIO } from './io.ts';

/** The tools whose calls change a file (in the common vocabulary: Codex's apply_patch and Gemini's write_file/replace are mapped onto them). */
const FILE_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);

/** The files `p`'s calls edit, relative to the working tree (those outside it are left out). */
function editedFiles(p: HookPayload, cwd: string, worktree: string): string[] {
  const out = new Set<string>();
  for (const c of p.calls) {
    if (!FILE_TOOLS.has(c.tool)) continue;
    const raw = c.input.file_path ?? c.input.notebook_path;
    if (typeof raw !== 'string' || raw === '') continue;
    const rel = relative(worktree, resolve(cwd, raw)).replace(/\\/g, '/');
    if (rel !== '' && !rel.startsWith('..') && !rel.startsWith('/')) out.add(rel);
  }
  return [...out];
}

/**
 * Recall before an edit (issue 32): the current items anchored to the files a call let through
 * edits, as context for the model — once per file per session, never an item the session was
 * given. Light: the anchor index (knowledge/views/anchor-index.ts) is read with plain file reads,
 * and the store is loaded only for a file tool's call when that index is missing or out of date.
 * Returns the text, or null. Never changes the verdict: the caller adds it to a pass only.
 */
export async function preEditRecall(io: HookIO, p: HookPayload, loc: RepoLocation | null, cwd: string): Promise<string | null> {
  if (!loc?.worktree || !p.session_id) return null;
  const files = editedFiles(p, cwd, loc.worktree);
  if (!files.length) return null;
  const key = anchorIndexKey(loc);
  let items: AnchoredEntry[] | null = key ? readAnchorIndex(loc.commonDir, key) : null;
  items ??= await (await io.loadStoreWork()).anchoredItems(loc, io.env, cwd);
  const covered = files.filter((f) => anchoredTo(items, f).length > 0);
  if (!covered.length) return null;
  const session = harnessSession(io, { ...p, session_id: p.session_id }, loc.commonDir);
  const given = givenSoFar(io, loc.commonDir, session.id);
  const fresh = covered.filter((f) => !given.has(fileKey(f)));
  if (!fresh.length) return null;
  const seen = new Set<string>();
  const entries = fresh
    .flatMap((f) => anchoredTo(items, f))
    .filter((e) => {
      const k = itemKey(e.kind, e.slug);
      if (given.has(k) || seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  const { text, shown } = recallText(PRE_EDIT_HEADER, entries);
  rememberGiven(io, loc.commonDir, session.id, 'pre-edit', [...fresh.map(fileKey), ...shown.map((e) => itemKey(e.kind, e.slug))]);
  return text || null;
}
