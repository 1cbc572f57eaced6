import { z } from 'zod';
import type { StoreStatus } from '../knowledge/admin/store-status.ts';
import { ignoredSettingsLine } from '../knowledge/core/ignored-settings.ts';
import { remoteProposalLine } from '../knowledge/review/remote-proposals.ts';
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
    diagnostics: z.array(z.looseObject({})).describe('what reading the store found: errors (files that could not be read, see axme fsck) and warnings'),
    problems: z.number().describe('the errors among the diagnostics: what axme fsck is for'),
    ignoredSettings: z.array(z.string()).describe('machine-local settings the shared axme.yaml sets, ignored here (docs/settings.md): not problems'),
    session: z.string().nullable().describe('the session this call belongs to'),
    actor: z.string().describe('who the writes of this connection are attributed to'),
    proposals: z
      .array(z.looseObject({}))
      .describe(
        "knowledge proposals open on the remotes as the last sync or fetch saw them, a teammate's too: remote, name, branch, ref, tip, pr (null unless opened here), url, mine",
      ),
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
        ...problemLines(s),
        ...s.proposals.map((p) => `open proposal ${remoteProposalLine(p)}`),
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
      ...(problemLines(s).length ? problemLines(s) : ['no problems']),
      ...s.proposals.map((p) => `open proposal ${remoteProposalLine(p)}`),
    ].join('\n');
  },
});

/** What reading the store found, said once each: its errors (`N problems: run axme fsck`), the settings axme.yaml sets that are ignored here (one line, with what to do), other warnings. */
function problemLines(s: StoreStatus): string[] {
  const others = s.diagnostics.filter((d) => d.severity === 'warning' && (d as { setting?: string }).setting === undefined).length;
  return [
    ...(s.problems ? [`${s.problems} problem${s.problems === 1 ? '' : 's'}: run axme fsck`] : []),
    ...(s.ignoredSettings.length ? [ignoredSettingsLine(s.ignoredSettings)] : []),
    ...(others ? [`${others} warning${others === 1 ? '' : 's'}: run axme fsck`] : []),
  ];
}
