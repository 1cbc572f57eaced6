import type { Argv } from 'yargs';
import { SYNC_ROUNDS } from '../../model/number-value.ts';
import { type CliArgs, type CliIO, note, out, printJson, withKb } from '../io.ts';
import { numberOption } from '../number-values.ts';

/** `axme sync [remote]`: share knowledge through a git remote (fetch, three-way merge, push). */
export function syncCommand(io: CliIO) {
  return {
    command: 'sync [remote]',
    describe: "fetch the remote's knowledge, merge it three-way with yours (a merge commit; conflicts become questions), push; never forced",
    builder: (y: Argv) =>
      y
        .positional('remote', { type: 'string', describe: 'git remote (default: origin, or the only remote)' })
        .option('rounds', numberOption('rounds', SYNC_ROUNDS, { describe: 'fetch-merge-push rounds when the remote keeps moving (default 5)' }))
        .option('accept-removals', {
          type: 'boolean',
          describe: 'take a remote change that removes items (held otherwise, with a question: axme never deletes items in normal use)',
        })
        .option('accept-loosening', {
          type: 'boolean',
          describe:
            'take a remote change that loosens what binds agents here: the safety rules, review.required, a required decision (held otherwise, with a question; a person only)',
        })
        .option('auto', {
          type: 'string',
          describe:
            'what the hooks start in the background (sync.auto): the reason (session-start, session-end, commit); bounded in time, the outcome kept for the next session',
        }),
    handler: (a: CliArgs) =>
      withKb(io, a, async (kb) => {
        const remote = a.remote === undefined ? undefined : String(a.remote);
        const { syncStore } = await import('../../knowledge/sync/sync-store.ts');
        const sync = () =>
          syncStore(kb, {
            remote,
            maxRounds: a.rounds as number | undefined,
            env: io.env,
            acceptRemovals: a.acceptRemovals === true,
            acceptLoosening: a.acceptLoosening === true,
          });
        const r =
          a.auto === undefined
            ? await sync()
            : await (await import('../../knowledge/sync/auto-sync.ts')).runAutoSync(kb.repo.commonDir, String(a.auto), kb.now, sync, () => process.exit(1));
        if (r === null) return note(io, 'axme: another background sync is running: this one is not needed');
        if (a.json) return printJson(io, r);
        out(io, r.text);
      }),
  };
}
