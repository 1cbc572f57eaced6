import { z } from 'zod';
import type { SearchHit } from '../knowledge/views/search.ts';
import { SearchInput } from '../model/search.ts';
import { defineOperation, READ } from './operation.ts';
import { atParam } from './params.ts';
import { textOf } from './lines.ts';

type Found = { hits: SearchHit[]; commit: string; total: number; query: string };

/** search: `axme search <query..>`, `axme_search_kb`. */
export const search = defineOperation({
  id: 'search',
  summary: 'Search the knowledge',
  description: 'Ranked search over decisions and memories (and backlog/questions with `type`). Each result cites git:<commit>:<path>.',
  input: { ...SearchInput.shape, at: atParam },
  output: z.looseObject({
    hits: z
      .array(
        z.looseObject({
          citation: z.string().describe('git:<commit>:<path>: `git show <commit>:<path>` gives the text'),
          via: z.string().optional().describe('the superseded decision that matched: this hit is its live successor (the old one is not listed)'),
          stale: z.boolean().optional().describe('true when the item is stale (its anchors changed in the code since it was learned: `axme verify`): ranked lower'),
          stale_reason: z.string().optional().describe('why it is stale, e.g. "src/pay.ts changed in 3 commits since this was decided"'),
        }),
      )
      .describe('the results, best first'),
    commit: z.string().describe('the commit searched'),
    total: z.number().describe('how many items matched in all'),
  }),
  annotations: READ,
  write: false,
  mcp: { tool: 'axme_search_kb' },
  async run(kb, input): Promise<Found> {
    const { searchKnowledge } = await import('../knowledge/views/search.ts');
    const r = await searchKnowledge(kb, input);
    return { ...r, query: String(input.query).trim() };
  },
  cli: {
    command: ['search'],
    describe: 'ranked search over decisions and memories (BM25F with stemming and synonyms), with git citations',
    positional: ['query'],
    variadic: true,
    // one line per hit: score, ID or slug, title, status when not current, the superseded item it
    // stands for, a stale mark (never served silently as current), citation last
    text: (r) =>
      textOf(
        r.hits.map(
          (h) =>
            `${h.score.toFixed(3)}  ${h.id ?? h.slug}  ${h.title}${h.status === 'active' ? '' : ` [${h.status}]`}${h.via ? ` (replaces ${h.via})` : ''}${h.stale ? ` (may be outdated${h.stale_reason ? `: ${h.stale_reason}` : ''})` : ''}  ${h.citation}`,
        ),
      ),
  },
  json: ({ query: _q, ...r }) => r,
  text: (r) => {
    const lines = r.hits.map((h, i) => `${i + 1}. ${h.id ? `${h.id} ` : ''}${h.title} [${h.kind}${h.status === 'active' ? '' : `, ${h.status}`}]${h.via ? ` (replaces ${h.via})` : ''}${h.stale ? ` (may be outdated${h.stale_reason ? `: ${h.stale_reason}` : ''})` : ''}\n   ${h.snippet}\n   ${h.citation}`);
    return r.hits.length ? `# ${r.hits.length} of ${r.total} matches for "${r.query}"\n${lines.join('\n')}` : `No matches for "${r.query}".`;
  },
});
