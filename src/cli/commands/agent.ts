import type { Argv } from 'yargs';
import { context } from '../../operations/context.ts';
import { oracleDigest } from '../../operations/digests.ts';
import { oracleScan } from '../../operations/safety.ts';
import { search } from '../../operations/search.ts';
import { status } from '../../operations/status.ts';
import { type CliIO, type CliArgs } from '../io.ts';
import { operationCommand } from '../operation-command.ts';

/** The commands that twin the MCP tools: serve, and the declared context, search, status, oracle. */
export function agentCommands(io: CliIO) {
  return [
    {
      command: 'serve',
      describe: 'run the MCP server on stdio (for Claude Code, Cursor, Codex, any MCP client)',
      builder: (y: Argv) => y,
      handler: async (a: CliArgs) => {
        const { serve } = await import('../../mcp/server.ts');
        await serve({ cwd: a.C ?? io.cwd, env: io.env });
      },
    },
    operationCommand(io, context),
    operationCommand(io, search),
    operationCommand(io, status),
    {
      command: 'oracle <action>',
      describe: 'the oracle pages (stack, structure, patterns, glossary): show, scan',
      builder: (y: Argv) =>
        y
          .command(operationCommand(io, oracleDigest))
          .command(operationCommand(io, oracleScan))
          .demandCommand(1, 'say what to do: show or scan'),
      handler: () => {},
    },
  ];
}
