import { z } from 'zod';
import type { ReconfirmResult } from '../knowledge/items/anchored/reconfirm-item.ts';
import { ANCHORED_KINDS, ReconfirmInput } from '../model/anchor.ts';
import { defineOperation, EDIT, warningsOf } from './operation.ts';
import { EditedOutput, savedAnchors } from './results.ts';

/** reconfirm: `axme reconfirm <id>`, `axme_reconfirm`. */
export const reconfirm = defineOperation({
  id: 'reconfirm',
  summary: 'Record that an item still holds for the code as it is now',
  description:
    'After checking a decision, memory, backlog item or oracle page that `axme verify` calls stale against the code, record that it still holds: one commit moves its `learned_at` to the commit HEAD points at (`anchors` replaces its anchors, e.g. after a rename). If it no longer holds, supersede or revoke it instead.',
  input: ReconfirmInput.shape,
  output: EditedOutput.extend({
    kind: z.enum(ANCHORED_KINDS).describe('the kind of the item'),
    learned_at: z.string().describe('the code commit the item is now learned at'),
    previous: z.string().nullable().describe('the code commit it was learned at before (null: none)'),
  }),
  annotations: EDIT,
  write: false,
  cli: { command: ['reconfirm'], positional: ['id'], names: { anchors: 'anchor' } },
  mcp: { tool: 'axme_reconfirm' },
  async run(kb, input): Promise<ReconfirmResult> {
    const { reconfirmItem } = await import('../knowledge/items/anchored/reconfirm-item.ts');
    return reconfirmItem(kb, input);
  },
  // learned anew at HEAD: an anchor that names nothing now would never go stale
  anchored: (r) => (r.changed ? [savedAnchors(r.kind, r.item)] : []),
  json: (r) => ({
    ...r.item,
    kind: r.kind,
    changed: r.changed,
    path: r.path,
    location: r.location,
    commit: r.commit,
    previous: r.previous,
    ...(warningsOf(r).length ? { warnings: warningsOf(r) } : {}),
  }),
  text: (r) => {
    const name = `${r.kind} ${r.item.id ?? r.item.slug}`;
    if (!r.changed) return `${name} is already learned at ${r.item.learned_at?.slice(0, 12)} (HEAD): nothing to record`;
    return `Reconfirmed ${name} at ${r.item.learned_at?.slice(0, 12)}${r.previous ? ` (was ${r.previous.slice(0, 12)})` : ''}: \`axme verify\` compares it with the code from here on`;
  },
});
