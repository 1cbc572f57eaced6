import type { Argv } from 'yargs';
import { AxmeError } from '../../model/errors.ts';
import { SYNC_ROUNDS } from '../../model/number-value.ts';
import { type CliArgs, type CliIO, note, out, printJson, withKb, wordsAfterDashes } from '../io.ts';
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
        const remote = remoteWord(a);
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

/** The remote the command line names, before `--` or after it (`axme sync -- origin`); more than one is a usage error. */
function remoteWord(a: CliArgs): string | undefined {
  const words = [...(a.remote === undefined ? [] : [String(a.remote)]), ...wordsAfterDashes(a, 1)];
  if (words.length > 1)
    throw new AxmeError('INVALID_INPUT', `axme sync takes one remote at a time, not ${words.map((w) => JSON.stringify(w)).join(', ')}: run it once for each`);
  return words[0];
}
