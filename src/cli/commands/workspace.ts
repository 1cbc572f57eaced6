import type { Argv } from 'yargs';
import { out, printJson, type CliIO } from '../io.ts';

type Args = Record<string, unknown> & { C?: string; json?: boolean };

/** `axme workspace`: the workspace around this folder, its repositories, their store tips and counts. */
export function workspaceCommand(io: CliIO) {
  return {
    command: 'workspace',
    describe: 'the workspace this folder belongs to: its store and every repository, with store tips and counts (docs/workspaces.md)',
    builder: (y: Argv) => y,
    handler: async (a: Args) => {
      const { workspaceStatus, workspaceText } = await import('../../knowledge/workspace/workspace-status.ts');
      const s = await workspaceStatus({ cwd: a.C ?? io.cwd, env: io.env });
      if (a.json) return printJson(io, s);
      out(io, workspaceText(s));
    },
  };
}
