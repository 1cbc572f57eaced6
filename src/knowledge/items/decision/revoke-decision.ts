import { RevokeInput, type Decision } from '../../../model/decision.ts';
import { AxmeError } from '../../../model/errors.ts';
import { parseInput } from '../../../model/validate.ts';
import { assertNoSecrets } from '../../../model/secrets.ts';
import type { WriteOptions } from '../../core/results.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { writtenResult, type EditResult } from '../../core/results.ts';
import { findItem } from '../../core/lookup.ts';
import { itemFile, mutate, subjectOf } from '../../core/mutate.ts';



/** Marks an active decision revoked (with when and why); the old text stays in the file and history. */
export async function revokeDecision(kb: KnowledgeBase, input: RevokeInput, opts: WriteOptions = {}): Promise<EditResult<Decision>> {
  const data = parseInput(RevokeInput, input, 'revocation');
  assertNoSecrets({ reason: data.reason }, !!opts.allowSecret);
  const r = await mutate(kb, (state) => {
    const old = findItem<Decision>(state, 'decision', data.id);
    if (old.status === 'revoked') return { result: { item: old, changed: false } };
    if (old.status === 'superseded') throw new AxmeError('WRONG_STATE', `${old.id} is superseded by ${old.superseded_by}: revoke that one instead`, { id: old.id });
    const now = kb.now().toISOString();
    const item: Decision = { ...old, status: 'revoked', revoked_at: now, revoked_reason: data.reason, updated: now };
    const [path, text] = itemFile('decision', item);
    return { result: { item, changed: true }, files: new Map([[path, text]]), subject: subjectOf('decision', 'revoke', item.id, item.title), event: 'decision.revoked', body: data.reason };
  });
  return writtenResult(kb, 'decision', r);
}
