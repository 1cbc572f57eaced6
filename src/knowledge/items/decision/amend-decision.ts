import { AmendInput, Decision } from '../../../model/decision.ts';
import { AxmeError } from '../../../model/errors.ts';
import { assertNoSecrets } from '../../../model/secrets.ts';
import { parseInput } from '../../../model/validate.ts';
import { itemFile } from '../../core/item-file.ts';
import { assertVersion } from '../../core/item-version.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { findItem } from '../../core/lookup.ts';
import { mutate, subjectOf } from '../../core/mutate.ts';
import { type EditResult, type WriteOptions, writtenResult } from '../../core/results.ts';
import { editHere } from '../../workspace/workspace-item.ts';
import { assertWordingFix } from './person-only.ts';

/** The fields an amend may change (AmendInput): the wording and the labels, never what binds. */
const WORDING = ['title', 'decision', 'reasoning', 'tags'] as const;

/**
 * Fixes the wording of an active decision in place (a typo in its title, text or reasoning; its
 * tags), in one commit: same ID, same slug, the previous version stays in history (`axme history
 * D-001`). Enforcement, scope, anchors and status are not amendable (AmendInput refuses them):
 * changing what a decision says or binds is a new decision, `axme decision supersede`. Nothing to
 * change returns `changed: false` and writes nothing.
 */
export async function amendDecision(kb: KnowledgeBase, input: AmendInput, opts: WriteOptions = {}): Promise<EditResult<Decision>> {
  const data = parseInput(AmendInput, input, 'amendment');
  if (WORDING.every((f) => data[f] === undefined))
    throw new AxmeError(
      'INVALID_INPUT',
      'say what to correct: --title, --decision, --reasoning or --tags (to change enforcement, scope or anchors, supersede the decision)',
    );
  assertNoSecrets({ title: data.title, decision: data.decision, reasoning: data.reasoning, tags: data.tags }, !!opts.allowSecret);
  const r = await editHere(
    kb,
    ['decision'],
    data.id,
    (slug) => amendCommand(slug, data).replace(/^axme /, ''),
    () =>
      mutate(kb, (state) => {
        const old = findItem<Decision>(state, 'decision', data.id);
        assertVersion(state, 'decision', old, opts.base);
        if (old.status !== 'active') {
          throw new AxmeError(
            'WRONG_STATE',
            `${old.id} is ${old.status}: only an active decision is amended (its history is not rewritten)${old.superseded_by ? `; amend its successor ${old.superseded_by}` : ''}`,
            { id: old.id, status: old.status },
          );
        }
        const next = Decision.parse({ ...old, ...Object.fromEntries(WORDING.filter((f) => data[f] !== undefined).map((f) => [f, data[f]])) });
        if (WORDING.every((f) => JSON.stringify(next[f]) === JSON.stringify(old[f]))) return { result: { item: old, changed: false } };
        assertWordingFix(kb, old, next, amendCommand(old.id, data));
        const item: Decision = { ...next, updated: kb.now().toISOString() };
        const [path, text] = itemFile('decision', item);
        const what = WORDING.filter((f) => JSON.stringify(next[f]) !== JSON.stringify(old[f])).join(', ');
        return {
          result: { item, changed: true },
          files: new Map([[path, text]]),
          subject: subjectOf('decision', 'amend', item.id, `${item.title} (${what})`),
          event: 'decision.amended',
        };
      }),
  );
  return writtenResult(kb, 'decision', r);
}

/** The amend a person would run for `data` (its texts cut to a line of 80 characters). */
function amendCommand(id: string, data: AmendInput): string {
  const said = (v: string) => JSON.stringify(v.split('\n')[0]!.slice(0, 80));
  return [
    `axme decision amend ${id}`,
    ...(data.title !== undefined ? [`--title ${said(data.title)}`] : []),
    ...(data.decision !== undefined ? [`--decision ${said(data.decision)}`] : []),
  ].join(' ');
}
