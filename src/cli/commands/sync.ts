import type { Argv } from 'yargs';
import { out, printJson, withKb, type CliIO, type CliArgs } from '../io.ts';

/** `axme sync [remote]`: share knowledge through a git remote (fetch, three-way merge, push). */
export function syncCommand(io: CliIO) {
  return {
    command: 'sync [remote]',
    describe: "fetch the remote's knowledge, merge it three-way with yours (a merge commit; conflicts become questions), push; never forced",
    builder: (y: Argv) =>
      y
        .positional('remote', { type: 'string', describe: 'git remote (default: origin, or the only remote)' })
        .option('rounds', { type: 'number', describe: 'fetch-merge-push rounds when the remote keeps moving (default 5)' })
        .option('auto', { type: 'string', describe: 'what the hooks start in the background (sync.auto): the reason (session-start, session-end, commit); bounded in time, the outcome kept for the next session' }),
    handler: (a: CliArgs) =>
      withKb(io, a, async (kb) => {
        const [{ syncStore }, auto] = await Promise.all([import('../../knowledge/sync/sync-store.ts'), a.auto !== undefined ? import('../../knowledge/sync/auto-sync.ts') : null]);
        const reason = typeof a.auto === 'string' && /^[a-z-]{1,40}$/.test(a.auto) ? a.auto : 'a background run';
        const done = (last: { ok: boolean; summary: string; error?: string; remote?: string }) => auto?.recordAutoSyncRun(kb.repo.commonDir, { at: new Date().toISOString(), reason, ...last });
        // a background run never outlives its bound: a hung network is a failure told next time
        const timer = auto
          ? setTimeout(() => {
              done({ ok: false, summary: 'timed out', error: `no answer within ${auto.AUTO_SYNC_TIMEOUT_MS / 1000} s (a slow or unreachable remote?)` });
              process.exit(1);
            }, auto.AUTO_SYNC_TIMEOUT_MS)
          : undefined;
        try {
          const r = await syncStore(kb, { remote: a.remote as string | undefined, maxRounds: a.rounds as number | undefined, env: io.env });
          done({ ok: true, remote: r.remote, summary: r.text.split('\n')[0] ?? 'synced' });
          if (a.json) return printJson(io, r);
          out(io, r.text);
        } catch (err) {
          const remote = (err as { data?: { remote?: unknown } }).data?.remote;
          done({ ok: false, summary: 'failed', error: (err as Error).message.split('\n')[0], ...(typeof remote === 'string' ? { remote } : {}) });
          throw err;
        } finally {
          if (timer) clearTimeout(timer);
        }
      }),
  };
}
