import { z } from 'zod';
import type { ImportResult } from '../../knowledge/import/axme-code.ts';
import { KIND_ORDER } from '../../model/kinds.ts';
import { defineOperation, SAVE } from '../operation.ts';

const Item = z.object({
  kind: z.string().describe('decision, memory, backlog, question, plan, handoff or oracle'),
  id: z.string().optional().describe('the display ID, kept from AXME Code (D-NNN, B-NNN, Q-NNN)'),
  slug: z.string().describe("the item's slug (its file name in the store)"),
  outcome: z.enum(['new', 'exists']).describe('new: written (with dry_run: would be); exists: already in the store, not written again'),
});

/** import.axme-code: `axme import axme-code [path]` (CLI only: a person moves a project over once). */
export const importAxmeCode = defineOperation({
  id: 'import.axme-code',
  summary: 'Import an AXME Code .axme-code folder (one commit)',
  description:
    'Imports decisions, memories, backlog, open questions, plans, handoffs, oracle pages and the safety rules of an AXME Code `.axme-code/` folder in ONE commit, with their IDs; the worklog narrative goes into the commit message body. Items already in the store are not written again, so importing twice commits nothing. An ID the store holds for another item is refused (nothing written). Unknown or malformed files are reported and the rest imported. `dry_run` shows what would come in.',
  input: {
    path: z.string().min(1).max(4096).optional().describe('the AXME Code folder (default: .axme-code in the current folder)'),
    dry_run: z.boolean().default(false).describe('show what would come in; write nothing'),
  },
  output: z.looseObject({
    source: z.string().describe('the folder read'),
    store: z.string().describe('the store written: repository, or workspace <folder>'),
    dry_run: z.boolean().describe('true: nothing was written'),
    commit: z.string().nullable().describe('the one commit written (null: dry run, or nothing new)'),
    items: z.array(Item).describe('every item read, with its outcome'),
    rules: z.enum(['new', 'exists', 'none']).describe("safety/rules.yaml: new (replaces the store's rules), exists (the same), none (no file)"),
    loosened: z
      .array(z.string())
      .describe(
        "what the imported rules let through that the store's did not, one phrase each (git.allowForcePush: true (here false)); empty when they loosen nothing",
      ),
    worklog: z.number().describe('worklog entries carried into the commit message body'),
    problems: z.array(z.object({ path: z.string(), reason: z.string() })).describe('files or blocks left out, and why'),
  }),
  annotations: SAVE,
  write: false,
  mcp: null,
  async run(kb, input, opts): Promise<ImportResult> {
    const { importAxmeCode: run } = await import('../../knowledge/import/axme-code.ts');
    return run(kb, { path: input.path ?? '.axme-code', dry_run: input.dry_run }, { cwd: opts?.cwd });
  },
  json: (r) => ({ ...r }),
  text: (r) => describe(r),
  cli: {
    command: ['import', 'axme-code'],
    positional: ['path'],
    print: (r, p) => {
      if (p.json) p.printJson(r);
      else p.out(describe(r));
      // a person's import that loosens is taken: they hear what it let go of, beside the answer
      if (r.loosened.length) p.note(`axme: ${loosenedNote(r)}`);
    },
  },
});

/** What an import's rules loosen, said to the person who took them (or would, in a dry run). */
function loosenedNote(r: ImportResult): string {
  return `the imported safety rules ${r.dry_run ? 'would loosen' : 'loosen'} what binds agents here: ${r.loosened.join('; ')}${r.dry_run ? '' : '. The old rules stay in history (axme history safety/rules.yaml); tighten again with axme safety set'}`;
}

function describe(r: ImportResult): string {
  const fresh = r.items.filter((i) => i.outcome === 'new');
  const count = fresh.length + (r.rules === 'new' ? 1 : 0);
  const head = r.dry_run
    ? `Dry run: ${count} new from ${r.source} would go into the ${r.store} store (nothing written)`
    : r.commit
      ? `Imported ${count} new from ${r.source} into the ${r.store} store in one commit ${r.commit.slice(0, 12)}`
      : `Nothing new to import from ${r.source}: everything is already in the ${r.store} store`;
  const lines = [head];
  for (const k of KIND_ORDER) {
    const all = r.items.filter((i) => i.kind === k);
    if (!all.length) continue;
    const n = all.filter((i) => i.outcome === 'new');
    lines.push(
      `- ${k}: ${n.length} new${all.length > n.length ? `, ${all.length - n.length} already stored` : ''}${n.length ? `: ${n.map((i) => (i.id ? `${i.id} ${i.slug}` : i.slug)).join(', ')}` : ''}`,
    );
  }
  if (r.rules !== 'none')
    lines.push(
      `- safety rules: ${r.rules === 'new' ? (r.dry_run ? "would replace the store's rules" : "replaced the store's rules (the old file stays in history)") : "the same as the store's"}${r.loosened.length ? `; they loosen ${r.loosened.length === 1 ? 'one rule' : `${r.loosened.length} rules`}: ${r.loosened.join('; ')}` : ''}`,
    );
  if (r.worklog) lines.push(`- worklog: ${r.worklog} entries${!r.dry_run && r.commit ? ' in the commit message body' : ''}`);
  if (r.problems.length) {
    lines.push(`Left out (${r.problems.length}):`);
    for (const p of r.problems) lines.push(`- ${p.path}: ${p.reason}`);
  }
  return lines.join('\n');
}
