import { z } from 'zod';
import type { VerifyReport } from '../knowledge/stale/types.ts';
import { unmatchedPhrase } from '../knowledge/stale/unmatched-words.ts';
import { ANCHOR_CHANGES, VerifyInput } from '../model/anchor.ts';
import { defineOperation, READ } from './operation.ts';

const change = z.looseObject({
  anchor: z.string().describe('the anchor as the item stores it'),
  change: z.enum(ANCHOR_CHANGES).describe('how it moved'),
  path: z.string().optional().describe('the file or manifest concerned, when it is not the anchor itself'),
  to: z.string().optional().describe('where a renamed path went'),
  from_version: z.string().optional().describe('dep-changed: the range declared at learned_at (absent: not declared then)'),
  to_version: z.string().optional().describe('dep-changed: the range declared at HEAD (absent: removed)'),
  commits: z.array(z.string()).describe('the commits since learned_at that changed it'),
  diffstat: z
    .looseObject({ files: z.number(), insertions: z.number(), deletions: z.number() })
    .optional()
    .describe('files, lines added and removed by those commits'),
});

/** The item a finding is about: the same four fields in `stale` and `unmatched`. */
const itemFields = {
  kind: z.string().describe('decision, memory, backlog or oracle'),
  id: z.string().nullable().describe('display ID, null for kinds without one'),
  slug: z.string().describe('the item'),
  title: z.string().describe('its title'),
};

/** verify: `axme verify [--check]`, `axme_verify`. */
export const verify = defineOperation({
  id: 'verify',
  summary: 'Find knowledge the code moved away from',
  description:
    'Compare the anchors of every current decision, memory, backlog item and oracle page (paths, folders, globs, path#symbol, dep:<name>) between the code commit it was learned at and HEAD: the items whose files changed, were deleted or renamed, no longer contain their symbol, or whose dependency range moved, with the commits; and the anchors that never named anything (a mistyped path, a glob with no file, a symbol its file lacks, a dependency no manifest declares), with the nearest that exists. Read-only (docs/staleness.md).',
  input: VerifyInput.shape,
  output: z.looseObject({
    head: z.string().nullable().describe('the code commit compared with (HEAD); null when there is none (bare repository, no commit yet)'),
    checked: z.number().describe('current items with anchors and a learned_at that were compared'),
    stale: z
      .array(
        z.looseObject({
          ...itemFields,
          reason: z.string().describe('one line: what moved since it was learned'),
          learned_at: z.string().describe('the code commit it was learned at'),
          changes: z.array(change).describe('one entry per anchor that moved'),
          commits: z.array(z.looseObject({ sha: z.string(), date: z.string(), subject: z.string() })).describe('the commits behind the changes, newest first'),
        }),
      )
      .describe('items that may be outdated'),
    unverifiable: z.array(z.looseObject({})).describe('items whose learned_at is not a commit here: kind, id, slug, learned_at, reason'),
    unlearned: z.number().describe('current items with anchors but no learned_at: not compared'),
    unmatched: z
      .array(
        z.looseObject({
          ...itemFields,
          anchor: z.string().describe('the anchor as the item stores it'),
          problem: z
            .enum(['no-file', 'no-symbol', 'no-dependency'])
            .describe(
              'no-file: no file or folder is that path, no file matches the glob; no-symbol: the file lacks the text after #; no-dependency: no manifest declares it',
            ),
          nearest: z.string().optional().describe('the closest anchor that exists (a path a few edits away, a word of the file, a declared dependency)'),
          suggestion: z.string().describe('what to do: the reconfirm that gives the item the anchors it meant, or commit the file'),
        }),
      )
      .describe('anchors of current items that name nothing at HEAD and did not when the item was learned: never matched, so never recalled nor marked stale'),
    note: z.string().optional().describe('why nothing was compared, when nothing could be'),
  }),
  annotations: READ,
  write: false,
  mcp: { tool: 'axme_verify' },
  async run(kb, input): Promise<VerifyReport> {
    const { verifyKnowledge } = await import('../knowledge/stale/verify-knowledge.ts');
    const { unmatchedAtHead } = await import('../knowledge/stale/unmatched-at-head.ts');
    const verified = await verifyKnowledge(kb, input);
    return { ...verified, unmatched: await unmatchedAtHead(kb, verified, input) };
  },
  cli: {
    command: ['verify'],
    describe:
      'list the decisions, memories, backlog items and oracle pages whose anchors moved in the code since they were learned (with the commits), and anchors that name nothing; --check exits 1 when there is any, for CI',
    flags: { check: z.boolean().optional().describe('exit 1 when an item is stale or an anchor names nothing (for CI, next to axme check)') },
    print: (r, p) => {
      if (p.json) p.printJson(r);
      else {
        if (r.stale.length || r.unverifiable.length || r.unmatched.length) p.out(verifyText(r, true));
        p.note(summary(r));
      }
      return p.args.check && (r.stale.length || r.unmatched.length) ? 1 : 0;
    },
  },
  json: (r) => ({ ...r }),
  text: (r) => verifyText(r, false),
});

/** Commit subjects shown per item; the rest are counted. */
const SUBJECTS = 5;

function verifyText(r: VerifyReport, cli: boolean): string {
  const lines: string[] = [];
  for (const s of r.stale) {
    lines.push(`${s.id ?? s.kind} ${s.title} (${s.slug})`, `  ${s.reason}`);
    for (const c of s.commits.slice(0, SUBJECTS)) lines.push(`    ${c.sha.slice(0, 12)} ${c.date.slice(0, 10)} ${c.subject}`);
    if (s.commits.length > SUBJECTS) lines.push(`    ... and ${s.commits.length - SUBJECTS} more commits`);
  }
  for (const u of r.unverifiable) lines.push(`${u.id ?? u.kind} ${u.slug}: cannot verify: ${u.reason}`);
  for (const u of r.unmatched)
    lines.push(`${u.id ?? u.kind} ${u.title} (${u.slug}): anchor ${unmatchedPhrase(u, `at ${r.head!.slice(0, 12)}`)}`, `  ${u.suggestion}`);
  if (!cli) lines.push(summary(r));
  return lines.join('\n');
}

function summary(r: VerifyReport): string {
  if (r.note) return r.note;
  const parts = [`${r.stale.length} of ${r.checked} anchored item${r.checked === 1 ? '' : 's'} may be outdated at ${r.head!.slice(0, 12)}`];
  if (r.unverifiable.length) parts.push(`${r.unverifiable.length} cannot be verified`);
  if (r.unlearned) parts.push(`${r.unlearned} without learned_at not compared`);
  if (r.unmatched.length) parts.push(`${r.unmatched.length} anchor${r.unmatched.length === 1 ? ' names' : 's name'} nothing`);
  return parts.join('; ');
}
