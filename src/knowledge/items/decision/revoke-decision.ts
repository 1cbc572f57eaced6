import { type Decision, RevokeInput } from '../../../model/decision.ts';
import { AxmeError } from '../../../model/errors.ts';
import { assertNoSecrets } from '../../../model/secrets.ts';
import { parseInput } from '../../../model/validate.ts';
import { nextDisplayId } from '../../core/identity.ts';
import { assertVersion } from '../../core/item-version.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { findItem } from '../../core/lookup.ts';
import { mutate, subjectOf } from '../../core/mutate.ts';
import type { WriteOptions } from '../../core/results.ts';
import { type EditResult, writtenResult } from '../../core/results.ts';
import { putItem, type Staged, single, stage } from '../../core/staging.ts';
import { ownHas, type WorkspaceItem, workspaceItem } from '../../workspace/workspace-item.ts';
import { assertPersonMayLoosen } from './person-only.ts';

/**
 * Stages the revocation of an active decision (with when and why); one already revoked is
 * returned unchanged. A required decision is revoked by a person only (assertPersonMayLoosen).
 */
export function planRevokeDecision(kb: KnowledgeBase, st: Staged, data: { id: string; reason: string }): { item: Decision; changed: boolean } {
  const old = findItem<Decision>(st.state, 'decision', data.id);
  if (old.status === 'revoked') return { item: old, changed: false };
  if (old.status === 'superseded')
    throw new AxmeError('WRONG_STATE', `${old.id} is superseded by ${old.superseded_by}: revoke that one instead`, { id: old.id });
  assertPersonMayLoosen(kb, old, 'revoking it', `axme decision revoke ${old.id} --reason ${JSON.stringify(data.reason.split('\n')[0]!.slice(0, 80))}`);
  const now = kb.now().toISOString();
  const item: Decision = { ...old, status: 'revoked', revoked_at: now, revoked_reason: data.reason, updated: now };
  putItem(st, 'decision', item, 'decision.revoked', subjectOf('decision', 'revoke', item.id, item.title));
  return { item, changed: true };
}

/**
 * Stages the override of a workspace decision in this repository: a copy of it under the same
 * slug, with this store's next ID, revoked (when and why), which shadows the workspace's in every
 * read here; the workspace store and the other repositories keep it. A required one is a person's
 * to revoke, as in its own store.
 */
function planRevokeHere(kb: KnowledgeBase, st: Staged, theirs: WorkspaceItem<Decision>, data: { reason: string }): { item: Decision; changed: boolean } {
  const ws = theirs.item;
  if (ws.status !== 'active') return { item: ws, changed: false };
  assertPersonMayLoosen(kb, ws, 'revoking it here', `axme decision revoke ${ws.slug} --reason ${JSON.stringify(data.reason.split('\n')[0]!.slice(0, 80))}`);
  const now = kb.now().toISOString();
  const id = nextDisplayId(kb, st, 'decision');
  const item: Decision = { ...ws, id, aliases: [], status: 'revoked', revoked_at: now, revoked_reason: data.reason, created: now, updated: now };
  putItem(st, 'decision', item, 'decision.revoked', subjectOf('decision', 'revoke', id, `${ws.title} (the workspace's, in this repository)`));
  return { item, changed: true };
}

/**
 * Marks an active decision revoked, in one commit; the old text stays in the file and history.
 * With `opts.base`, refused when the decision changed since that version (item-version.ts).
 */
export async function revokeDecision(kb: KnowledgeBase, input: RevokeInput, opts: WriteOptions = {}): Promise<EditResult<Decision>> {
  const data = parseInput(RevokeInput, input, 'revocation');
  assertNoSecrets({ reason: data.reason }, !!opts.allowSecret);
  const r = await mutate(kb, async (state) => {
    const st = stage(state);
    // a workspace decision this repository reads: revoked here alone, by a revoked copy under its slug (docs/workspaces.md)
    const theirs = ownHas(state, 'decision', data.id) ? null : await workspaceItem<Decision>(kb, 'decision', data.id);
    if (theirs) return { ...single(st, planRevokeHere(kb, st, theirs, data)), body: data.reason };
    if (opts.base !== undefined) assertVersion(state, 'decision', findItem<Decision>(state, 'decision', data.id), opts.base);
    return { ...single(st, planRevokeDecision(kb, st, data)), body: data.reason };
  });
  return writtenResult(kb, 'decision', r);
}
