import type { Argv } from 'yargs';
import { SEARCH_TYPES } from '../../model/search.ts';
import { out, printJson, withKb, type CliIO } from '../io.ts';
import { atOption, writeOptions } from './shared.ts';

type Args = Record<string, unknown> & { C?: string; json?: boolean };

/** The commands that twin the MCP tools: serve, context, search, status, oracle. */
export function agentCommands(io: CliIO) {
  const pageOptions = (y: Argv) =>
    atOption(y)
      .option('page', { type: 'number', describe: 'page of the reply (default 1)' })
      .option('budget', { type: 'number', describe: 'characters per page (default: axme.yaml context.budget, else 25000)' });
  return [
    {
      command: 'serve',
      describe: 'run the MCP server on stdio (for Claude Code, Cursor, Codex, any MCP client)',
      builder: (y: Argv) => y,
      handler: async (a: Args) => {
        const { serve } = await import('../../mcp/server.ts');
        await serve({ cwd: a.C ?? io.cwd, env: io.env });
      },
    },
    {
      command: 'context',
      describe: 'the session-start overview an agent gets from axme_context',
      builder: pageOptions,
      handler: (a: Args) =>
        withKb(io, a, async (kb) => {
          const { assembleContext } = await import('../../knowledge/views/context.ts');
          const r = await assembleContext(kb, { at: a.at as string | undefined, page: a.page as number | undefined, budget: a.budget as number | undefined });
          if (a.json) return printJson(io, r);
          out(io, r.text);
        }),
    },
    {
      command: 'search <query..>',
      describe: 'ranked search over decisions and memories (BM25), with git citations',
      builder: (y: Argv) =>
        atOption(y)
          .positional('query', { type: 'string', array: true })
          .option('k', { type: 'number', describe: 'how many results (default 10)' })
          .option('type', { choices: SEARCH_TYPES, describe: 'decision, memory, backlog, question or all (default: decisions and memories)' }),
      handler: (a: Args) =>
        withKb(io, a, async (kb) => {
          const { searchKnowledge } = await import('../../knowledge/views/search.ts');
          const r = await searchKnowledge(kb, { query: (a.query as string[]).join(' '), k: a.k as number | undefined, type: a.type as (typeof SEARCH_TYPES)[number] | undefined, at: a.at as string | undefined });
          if (a.json) return printJson(io, r);
          for (const h of r.hits) out(io, `${h.score.toFixed(3)}  ${h.id ?? h.slug}  ${h.title}${h.status === 'active' ? '' : ` [${h.status}]`}  ${h.citation}`);
        }),
    },
    {
      command: 'status',
      describe: 'where the knowledge is, counts by kind and status',
      builder: atOption,
      handler: (a: Args) =>
        withKb(io, a, async (kb) => {
          const { storeStatus } = await import('../../knowledge/admin/store-status.ts');
          const s = await storeStatus(kb, { at: a.at as string | undefined });
          if (a.json) return printJson(io, s);
          out(io, `${s.ref} @ ${s.commit.slice(0, 12)} (${s.date})`);
          for (const [kind, c] of Object.entries(s.counts)) if (Object.keys(c).length) out(io, `${kind}: ${Object.entries(c).map(([st, n]) => `${n} ${st}`).join(', ')}`);
          if (s.diagnostics.length) out(io, `${s.diagnostics.length} problems: run axme fsck`);
        }),
    },
    {
      command: 'oracle <action>',
      describe: 'the oracle pages (stack, structure, patterns, glossary): show, scan',
      builder: (y: Argv) =>
        y
          .command('show', 'print the oracle pages', pageOptions, (a: Args) =>
            withKb(io, a, async (kb) => {
              const { readDigest } = await import('../../knowledge/views/read-digest.ts');
              const r = await readDigest(kb, { kind: 'oracle', at: a.at as string | undefined, page: a.page as number | undefined, budget: a.budget as number | undefined });
              if (a.json) return printJson(io, r);
              out(io, r.text);
            }),
          )
          .command('scan', 'detect the stack, structure and patterns of the working tree and write oracle/*.md in one commit (nothing new: no commit)', (y) => y.option('dry-run', { type: 'boolean', describe: 'show what would be written, commit nothing' }), (a: Args) =>
            withKb(io, a, async (kb) => {
              const { scanOracle } = await import('../../knowledge/items/oracle/scan-oracle.ts');
              const r = await scanOracle(kb, { dryRun: !!a.dryRun });
              if (a.json) return printJson(io, r);
              out(io, r.text);
            }),
          )
          .demandCommand(1, 'say what to do: show or scan'),
      handler: () => {},
    },
  ];
}
