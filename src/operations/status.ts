import { z } from 'zod';
import type { StoreStatus } from '../knowledge/admin/store-status.ts';
import { textOf } from './lines.ts';
import { defineOperation, READ } from './operation.ts';
import { atParam } from './params.ts';

/** status: `axme status`, `axme_status`. */
export const status = defineOperation({
  id: 'status',
  summary: 'Store status',
  description: 'Where the knowledge is stored, the tip commit, counts by kind and status, and problems found reading it.',
  input: { at: atParam },
  output: z.looseObject({
    ref: z.string().describe('the memory ref, refs/memory/main'),
    commit: z.string().describe('the commit read'),
    date: z.string().describe('its committer date (ISO 8601)'),
    repository: z.string().describe('the git directory holding the store'),
    counts: z.record(z.string(), z.record(z.string(), z.number())).describe('items per kind, by status'),
    diagnostics: z.array(z.looseObject({})).describe('files that could not be read (see axme fsck)'),
    session: z.string().nullable().describe('the session this call belongs to'),
    actor: z.string().describe('who the writes of this connection are attributed to'),
  }),
  annotations: READ,
  write: false,
  mcp: { tool: 'axme_status' },
  async run(kb, input): Promise<StoreStatus> {
    const { storeStatus } = await import('../knowledge/admin/store-status.ts');
    return storeStatus(kb, { at: input.at });
  },
  cli: {
    command: ['status'],
    describe: 'where the knowledge is, counts by kind and status',
    // the terminal's shorter form: the ref and tip, the counts, problems only when there are some
    text: (s) =>
      textOf([
        `${s.ref} @ ${s.commit.slice(0, 12)} (${s.date})`,
        ...Object.entries(s.counts)
          .filter(([, c]) => Object.keys(c).length)
          .map(
            ([kind, c]) =>
              `${kind}: ${Object.entries(c)
                .map(([st, n]) => `${n} ${st}`)
                .join(', ')}`,
          ),
        ...(s.diagnostics.length ? [`${s.diagnostics.length} problems: run axme fsck`] : []),
      ]),
  },
  json: (s) => ({ ...s }),
  text: (s) => {
    const counts = Object.entries(s.counts)
      .filter(([, c]) => Object.keys(c).length)
      .map(
        ([k, c]) =>
          `${k}: ${Object.entries(c)
            .map(([st, n]) => `${n} ${st}`)
            .join(', ')}`,
      );
    return [
      `${s.ref} @ ${s.commit.slice(0, 12)} (${s.date}) in ${s.repository}`,
      `session ${s.session ?? '-'} (${s.actor})`,
      ...counts,
      s.diagnostics.length ? `${s.diagnostics.length} problems: run axme fsck` : 'no problems',
    ].join('\n');
  },
});
