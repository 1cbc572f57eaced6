import { z } from 'zod';
import type { CheckResult } from '../knowledge/admin/check-knowledge.ts';
import type { SemanticDiff } from '../knowledge/review/diff/semantic-diff.ts';
import { DiffInput } from '../knowledge/review/diff/diff-revisions.ts';
import { ProposeInput, type ProposeResult } from '../knowledge/review/propose.ts';
import { diagnosticLine } from '../knowledge/core/diagnostics.ts';
import { renderDiffMarkdown } from '../knowledge/review/diff/render-diff.ts';
import { defineOperation, PUBLISH, READ } from './operation.ts';

/** diff: `axme_diff` (the CLI's `axme diff` is its twin). */
export const diff = defineOperation({
  id: 'diff',
  summary: 'What changed in the knowledge',
  description: 'The semantic diff between two memory revisions (default: what this clone changed since it and the remote-tracking tip diverged): items added, superseded, revoked, archived, changed field by field, safety rules, questions opened and answered. Markdown.',
  input: DiffInput.shape,
  output: z.looseObject({
    from: z.string().nullable().describe('the older revision (null: the empty store)'),
    to: z.string().nullable().describe('the newer revision'),
    items: z.array(z.looseObject({})).describe('one entry per item changed: kind, id, slug, title, change, fields'),
    counts: z.looseObject({}).describe('changes by type'),
  }),
  annotations: READ,
  write: false,
  cli: null,
  mcp: { tool: 'axme_diff' },
  async run(kb, input): Promise<SemanticDiff> {
    const { diffRevisions } = await import('../knowledge/review/diff/diff-revisions.ts');
    return diffRevisions(kb, input);
  },
  json: (d) => ({ ...d }),
  text: (d) => renderDiffMarkdown(d),
});

/** check: `axme_check` (the CLI's `axme check` is its twin). */
export const check = defineOperation({
  id: 'check',
  summary: 'Check the knowledge',
  description: 'Validate a memory revision as CI does on knowledge pull requests: schemas, unique IDs, supersession links, rule files, no credentials in content.',
  input: { rev: z.string().max(300).optional().describe('revision to check (default: refs/memory/main)') },
  output: z.looseObject({
    ok: z.boolean().describe('false when any finding is an error'),
    commit: z.string().describe('the commit checked'),
    scanned: z.number().describe('files scanned for credentials'),
    findings: z.array(z.looseObject({})).describe('what is wrong: path, reason, level'),
  }),
  annotations: READ,
  write: false,
  cli: null,
  mcp: { tool: 'axme_check' },
  async run(kb, input): Promise<CheckResult> {
    const { checkKnowledge } = await import('../knowledge/admin/check-knowledge.ts');
    return checkKnowledge(kb, { at: input.rev });
  },
  json: (r) => ({ ...r }),
  text: (r) => `${r.ok ? 'ok' : 'FAILED'} at ${r.commit.slice(0, 12)} (${r.scanned} files)${r.findings.length ? `\n${r.findings.map((f) => `- ${diagnosticLine(f)}`).join('\n')}` : ''}`,
});

/** propose: `axme_propose` (the CLI's `axme propose` is its twin). */
export const propose = defineOperation({
  id: 'propose',
  summary: 'Open a knowledge pull request',
  description: "Push the pending knowledge (this session's proposal when review is required, else refs/memory/main) to axme/proposals/<name> and open a pull request into axme/memory with the semantic diff as its body. Returns the PR URL.",
  input: ProposeInput.shape,
  output: z.looseObject({
    remote: z.string().describe('the git remote pushed to'),
    repo: z.string().describe('the GitHub repository, owner/name'),
    opened: z.array(z.looseObject({})).describe('the pull requests opened or updated: branch, number, url'),
    skipped: z.array(z.looseObject({})).describe('sources with nothing new, and why'),
    createdBase: z.boolean().describe('the reviewed branch axme/memory was created by this run'),
  }),
  annotations: PUBLISH,
  write: false,
  cli: null,
  mcp: { tool: 'axme_propose' },
  async run(kb, input): Promise<ProposeResult> {
    const { proposeKnowledge } = await import('../knowledge/review/propose.ts');
    return proposeKnowledge(kb, input, { env: kb.repo.env });
  },
  json: ({ text: _t, ...r }) => r,
  text: (r) => r.text,
});
