import type { Argv } from 'yargs';
import { AxmeError } from '../../model/errors.ts';
import { LIMITS } from '../../model/limits.ts';
import type { SessionRow } from '../../session/list.ts';
import { note, out, printJson, readStdin, SilentExit, withKb, type CliIO } from '../io.ts';
import { writeOptions } from './shared.ts';

type Args = Record<string, unknown> & { C?: string; json?: boolean };

/** `axme session`: close a session (begin-close, finalize), list sessions and recover orphans. */
export function sessionCommand(io: CliIO) {
  return {
    command: 'session <action>',
    describe: 'agent sessions: begin-close, finalize (one commit), list, show, recover (orphans)',
    builder: (y: Argv) =>
      y
        .command('begin-close', 'what to extract before closing', (y) => y, (a: Args) =>
          withKb(io, a, async (kb) => {
            const { beginClose } = await import('../../knowledge/close/begin-close.ts');
            const r = await beginClose(kb);
            if (a.json) return printJson(io, r);
            out(io, r.text);
          }),
        )
        .command('finalize', 'store extractions, handoff and worklog in one commit (axme_finalize_close arguments as JSON on stdin)', (y) => writeOptions(y, []), (a: Args) =>
          withKb(io, a, async (kb) => {
            const raw = await readStdin(io, LIMITS.fileBytes * 8);
            let input: unknown;
            try {
              input = JSON.parse(raw);
            } catch (err) {
              throw new AxmeError('INVALID_INPUT', `standard input is not JSON (${(err as Error).message}): pipe the axme_finalize_close arguments as one JSON object`);
            }
            const { finalizeClose } = await import('../../knowledge/close/finalize-close.ts');
            const r = await finalizeClose(kb, input as never, { allowSecret: !!a.allowSecret });
            if (a.json) return printJson(io, r);
            out(io, r.text);
          }),
        )
        .command('list', "this repository's sessions on this machine, newest first", (y) => y.option('orphans', { type: 'boolean', describe: 'only sessions that ended without a close and await recovery' }), (a: Args) =>
          withKb(io, a, async (kb) => {
            const { sessionRows } = await import('../../session/list.ts');
            const rows = sessionRows(kb.repo.commonDir, { orphans: !!a.orphans });
            if (a.json) return printJson(io, rows);
            for (const r of rows) out(io, sessionLine(r));
            if (!rows.length) note(io, a.orphans ? 'axme: no orphaned sessions' : 'axme: no sessions recorded yet (Claude Code hooks record them: axme init)');
          }),
        )
        .command('show <id>', 'one session: status, files changed, commits', (y) => y.positional('id', { type: 'string' }), (a: Args) =>
          withKb(io, a, async (kb) => {
            const { sessionDetail } = await import('../../session/list.ts');
            const d = sessionDetail(kb.repo.commonDir, String(a.id));
            if (!d) throw new AxmeError('NOT_FOUND', `no session ${String(a.id)} on this machine: \`axme session list\` shows the sessions this repository has seen`);
            if (a.json) return printJson(io, d);
            out(io, sessionLine(d));
            out(io, `cwd ${d.cwd}${d.transcript ? `\ntranscript ${d.transcript}` : ''}`);
            for (const f of d.file_list) out(io, `  file ${f}`);
            for (const c of d.commit_list) out(io, `  commit ${c}`);
          }),
        )
        .command(
          'recover [id]',
          'write the handoff of a session that ended without a close, from what is known (files, commits, duration, its transcript)',
          (y) =>
            y
              .positional('id', { type: 'string', describe: 'the session (axme session list --orphans)' })
              .option('all', { type: 'boolean', describe: 'recover every orphan' })
              .option('force', { type: 'boolean', describe: 'recover a session that is still running' }),
          (a: Args) =>
            withKb(io, a, async (kb) => {
              if (a.all && a.id) throw new AxmeError('INVALID_INPUT', 'give a session id or --all, not both');
              if (!a.all && !a.id) throw new AxmeError('INVALID_INPUT', 'say which session to recover (axme session list --orphans), or pass --all');
              const { recoverSession, sweepOrphans } = await import('../../knowledge/close/recover-session.ts');
              if (a.all) {
                const r = await sweepOrphans(kb);
                if (a.json) printJson(io, r);
                else {
                  for (const x of r.recovered) out(io, x.text);
                for (const id of r.discarded) out(io, `Session ${id} recorded nothing: set aside without a handoff.`);
                for (const id of r.skipped) note(io, `axme: session ${id} is being recovered by another process`);
                for (const e of r.errors) note(io, `axme: could not recover session ${e.session}: ${e.message}`);
                  if (!r.recovered.length && !r.discarded.length && !r.errors.length) note(io, 'axme: no orphaned sessions');
                }
                if (r.errors.length) throw new SilentExit(1);
                return;
              }
              const r = await recoverSession(kb, String(a.id), { force: !!a.force });
              if (a.json) return printJson(io, r);
              out(io, r.text);
            }),
        )
        .demandCommand(1, 'say what to do: begin-close, finalize, list, show or recover'),
    handler: () => {},
  };
}

function sessionLine(r: SessionRow): string {
  const when = `${r.started.slice(0, 16).replace('T', ' ')}${r.ended ? ` to ${r.ended.slice(11, 16)}` : ''}`;
  return `${r.id}  ${r.status.padEnd(9)}  ${when}  ${r.harness}  ${r.files} file${r.files === 1 ? '' : 's'}, ${r.commits} commit${r.commits === 1 ? '' : 's'}${r.commit ? `  ${r.commit.slice(0, 12)}` : ''}`;
}
