import type { Argv } from 'yargs';
import { addDecision } from '../../knowledge/add-decision.ts';
import { revokeDecision } from '../../knowledge/revoke-decision.ts';
import { supersedeDecision } from '../../knowledge/supersede-decision.ts';
import { DECISION_STATUSES, ENFORCE, type Decision } from '../../model/decision.ts';
import { out, printJson, withKb, writeJson, type CliIO } from '../io.ts';
import { decisionLine } from '../render.ts';
import { listCommand, showCommand, stdinFields, writeOptions } from './shared.ts';

const decisionFields = (y: Argv) =>
  writeOptions(y, ['decision', 'reasoning'])
    .option('title', { type: 'string', describe: 'short name of the decision' })
    .option('decision', { type: 'string', describe: 'what was decided' })
    .option('reasoning', { type: 'string', describe: 'why: forces, rejected alternatives' })
    .option('enforce', { choices: ENFORCE, describe: 'required or advisory (default advisory)' })
    .option('scope', { type: 'string', describe: 'repositories it applies to, comma-separated (default all)' })
    .option('tags', { type: 'string', describe: 'labels, comma-separated or repeated' })
    .option('anchors', { type: 'string', describe: 'paths or globs in the code it is about' });

type Args = Record<string, unknown> & { C?: string; json?: boolean };

async function decisionInput(io: CliIO, a: Args) {
  const fromStdin = await stdinFields(io, a, ['decision', 'reasoning']);
  return {
    title: a.title as string,
    decision: (fromStdin.decision ?? a.decision) as string,
    reasoning: (fromStdin.reasoning ?? a.reasoning) as string | undefined,
    enforce: a.enforce as Decision['enforce'] | undefined,
    scope: a.scope as string | undefined,
    tags: a.tags as string | string[] | undefined,
    anchors: a.anchors as string | string[] | undefined,
  };
}

export function decisionCommand(io: CliIO) {
  return {
    command: 'decision',
    describe: 'architectural decisions (D-NNN): add, list, show, supersede, revoke',
    builder: (y: Argv) =>
      y
        .command('add', 'save a decision', (y) => decisionFields(y).demandOption(['title']), (a: Args) =>
          withKb(io, a, async (kb) => {
            const r = await addDecision(kb, await decisionInput(io, a), { allowSecret: !!a.allowSecret });
            if (a.json) return printJson(io, writeJson(r));
            for (const x of [r, ...(r.others ?? [])]) out(io, `${x.duplicate ? 'Decision exists' : 'Decision saved'}: ${x.item.id} - ${x.item.title} -> ${x.location}`);
          }),
        )
        .command(listCommand(io, 'decision', DECISION_STATUSES, decisionLine))
        .command(showCommand(io, 'decision', 'id', 'show one decision by ID, slug or alias'))
        .command('supersede <id>', 'replace a decision by a new one (one commit)', (y) => decisionFields(y).positional('id', { type: 'string', describe: 'the decision to replace' }).demandOption(['title']), (a: Args) =>
          withKb(io, a, async (kb) => {
            const r = await supersedeDecision(kb, { id: String(a.id), ...(await decisionInput(io, a)) }, { allowSecret: !!a.allowSecret });
            if (a.json) return printJson(io, writeJson(r));
            out(io, `Decision saved: ${r.item.id} - ${r.item.title} -> ${r.location} (supersedes ${r.superseded.id})`);
          }),
        )
        .command('revoke <id>', 'revoke a decision that no longer holds', (y) => writeOptions(y, []).positional('id', { type: 'string' }).option('reason', { type: 'string', demandOption: true, describe: 'why it no longer holds' }), (a: Args) =>
          withKb(io, a, async (kb) => {
            const r = await revokeDecision(kb, { id: String(a.id), reason: a.reason as string }, { allowSecret: !!a.allowSecret });
            if (a.json) return printJson(io, writeJson(r));
            out(io, `${r.changed ? 'Decision revoked' : 'Decision already revoked'}: ${r.item.id} - ${r.item.title}`);
          }),
        )
        .demandCommand(1, 'say what to do: add, list, show, supersede or revoke'),
    handler: () => {},
  };
}
