import { type Decision, RevokeInput } from '../../../model/decision.ts';
import { AxmeError } from '../../../model/errors.ts';
import { assertNoSecrets } from '../../../model/secrets.ts';
import { parseInput } from '../../../model/validate.ts';
import { assertVersion } from '../../core/item-version.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { findItem } from '../../core/lookup.ts';
import { mutate, subjectOf } from '../../core/mutate.ts';
import type { WriteOptions } from '../../core/results.ts';
import { type EditResult, writtenResult } from '../../core/results.ts';
import { putItem, type Staged, single, stage } from '../../core/staging.ts';
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
 * Marks an active decision revoked, in one commit; the old text stays in the file and history.
 * With `opts.base`, refused when the decision changed since that version (item-version.ts).
 */
export async function revokeDecision(kb: KnowledgeBase, input: RevokeInput, opts: WriteOptions = {}): Promise<EditResult<Decision>> {
  const data = parseInput(RevokeInput, input, 'revocation');
  assertNoSecrets({ reason: data.reason }, !!opts.allowSecret);
  const r = await mutate(kb, (state) => {
    if (opts.base !== undefined) assertVersion(state, 'decision', findItem<Decision>(state, 'decision', data.id), opts.base);
    const st = stage(state);
    return { ...single(st, planRevokeDecision(kb, st, data)), body: data.reason };
  });
  return writtenResult(kb, 'decision', r);
}
