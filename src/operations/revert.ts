import { z } from 'zod';
import type { RevertResult } from '../knowledge/history/revert-commit.ts';
import { defineOperation, EDIT } from './operation.ts';

/**
 * revert: `axme revert <commit>`. On the CLI only: undoing a commit is a person's correction of
 * the record (an agent corrects its own items with the item tools); run by an agent through its
 * shell, the core applies the agent's rules (its proposal under review.required; no loosening).
 */
export const revert = defineOperation({
  id: 'revert',
  summary: 'Undo one knowledge commit',
  description:
    'Undoes one commit of refs/memory/main as a new commit (the undone one stays in history): every file it changed goes back to its version before it. Refused, naming each commit, when a later commit changed the same files (revert those first); an agent may not revert what would loosen the safety rules, review or a required decision.',
  input: {
    commit: z.string().min(1).max(64).describe('the commit to undo: its OID or an unambiguous prefix of it (`axme log` lists them)'),
  },
  output: z.looseObject({
    reverted: z.string().describe('the commit undone'),
    subject: z.string().describe('its subject'),
    commit: z.string().describe('the new commit that undoes it'),
    ref: z.string().describe("the ref written: refs/memory/main, or an agent's proposal under review.required"),
    files: z
      .array(z.looseObject({ path: z.string(), change: z.string() }))
      .describe('each file put back: restored (changed back), removed (the commit had added it), re-added (the commit had removed it)'),
    renumbered: z
      .array(z.looseObject({ path: z.string(), from: z.string(), to: z.string() }))
      .describe('items put back whose display ID another item took meanwhile: the next free ID, the old one kept as an alias'),
  }),
  annotations: EDIT,
  write: false,
  cli: {
    command: ['revert'],
    positional: ['commit'],
    describe: 'undo one knowledge commit as a new commit (history kept); refused when a later commit changed the same files',
  },
  mcp: null,
  async run(kb, input): Promise<RevertResult> {
    const { revertCommit } = await import('../knowledge/history/revert-commit.ts');
    return revertCommit(kb, input);
  },
  json: (r) => ({ ...r }),
  text: (r) =>
    [
      `Reverted ${r.reverted.slice(0, 12)} (${r.subject}) in ${r.commit.slice(0, 12)}${r.ref === 'refs/memory/main' ? '' : ` on ${r.ref}`}:`,
      ...r.files.map((f) => `  ${f.change.padEnd(8)} ${f.path}`),
      ...r.renumbered.map((x) => `  ${x.path} is back as ${x.to}: ${x.from} is another item's now (${x.from} stays its alias)`),
    ].join('\n'),
});
