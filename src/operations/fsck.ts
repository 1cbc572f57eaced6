import { z } from 'zod';
import type { FsckResult } from '../knowledge/admin/check-store.ts';
import { diagnosticLine, reportFindings } from './lines.ts';
import { defineOperation, READ } from './operation.ts';
import { atParam } from './params.ts';

/** fsck: `axme fsck` (the CLI's own; `check` is what CI and the agent run). */
export const fsck = defineOperation({
  id: 'fsck',
  summary: 'Check the store',
  description:
    'Check one memory commit: every object reachable from it is present, every file parses against its schema, display IDs are unique, the supersession graph is consistent. Exit 1 when a finding is an error.',
  input: { at: atParam },
  output: z.looseObject({
    ok: z.boolean().describe('false when any finding is an error'),
    commit: z.string().describe('the commit checked'),
    findings: z.array(z.looseObject({})).describe('what is wrong: path, severity, reason'),
    counts: z.record(z.string(), z.number()).describe('items per kind'),
    objects: z.number().describe('objects reachable from the commit that were checked'),
  }),
  annotations: READ,
  write: false,
  mcp: null,
  async run(kb, input): Promise<FsckResult> {
    const { checkStore } = await import('../knowledge/admin/check-store.ts');
    return checkStore(kb, { at: input.at });
  },
  cli: {
    command: ['fsck'],
    describe: 'check the store: objects, schemas, unique IDs, supersession links',
    print: (r, p) => reportFindings(r, p, fsckSummary(r)),
  },
  json: (r) => ({ ...r }),
  text: (r) => [...r.findings.map(diagnosticLine), fsckSummary(r)].join('\n'),
});

function fsckSummary(r: FsckResult): string {
  const counts = Object.entries(r.counts)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
  return `${r.ok ? 'ok' : 'FAILED'}: ${r.objects} objects checked at ${r.commit.slice(0, 12)}${counts ? ` (${counts})` : ''}`;
}
