import type { Argv } from 'yargs';
import { PORT } from '../../model/number-value.ts';
import { actorFrom, type CliArgs, type CliIO, clockFrom } from '../io.ts';
import { numberOption } from '../number-values.ts';

/** `axme ui`: the local web page over the knowledge, where a person can also correct and retire items (src/ui/, docs/ui.md). */
export function uiCommand(io: CliIO) {
  return {
    command: 'ui',
    describe: 'serve a web page of the knowledge on loopback: read it, edit memories, amend and revoke decisions (prints the URL; runs until Ctrl-C)',
    builder: (y: Argv) =>
      y
        .option('port', numberOption('port', PORT, { default: 0, describe: 'the port to listen on (0: pick a free one)' }))
        .option('host', { type: 'string', default: '127.0.0.1', describe: 'the address to bind (loopback unless you mean to share it)' })
        .option('at', { type: 'string', describe: 'show the knowledge as it was at a revision or date (a commit, ~N, 2026-01-31)' })
        .option('open', { type: 'boolean', describe: "open the page in the system's browser" }),
    handler: async (a: CliArgs & { port?: number; host?: string; at?: string; open?: boolean }) => {
      const { serveUi } = await import('../../ui/serve-ui.ts');
      await serveUi({
        cwd: a.C ?? io.cwd,
        env: io.env,
        port: a.port ?? 0,
        host: a.host ?? '127.0.0.1',
        at: a.at,
        open: a.open,
        stdout: io.stdout,
        stderr: io.stderr,
        now: clockFrom(io.env),
        actor: actorFrom(io.env),
      });
    },
  };
}
