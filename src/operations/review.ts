import { z } from 'zod';
import type { CheckResult } from '../knowledge/admin/check-knowledge.ts';
import { diagnosticLine } from '../knowledge/core/diagnostics.ts';
import { DiffInput } from '../knowledge/review/diff/diff-revisions.ts';
import { renderDiffMarkdown, renderDiffText } from '../knowledge/review/diff/render-diff.ts';
import type { SemanticDiff } from '../knowledge/review/diff/semantic-diff.ts';
import { ProposeInput, type ProposeResult } from '../knowledge/review/propose.ts';
import { reportFindings } from './lines.ts';
import { type CliPrinter, defineOperation, PUBLISH, READ } from './operation.ts';

/** Colour on a terminal only: never in a pipe, never with NO_COLOR; --color / --no-color decide. */
export function wantsColor(p: CliPrinter): boolean {
  const flag = p.args.color;
  if (typeof flag === 'boolean') return flag;
  return p.tty && !p.env.NO_COLOR && p.env.TERM !== 'dumb';
}

/** diff: `axme diff [from] [to]`, `axme_diff`. */
export const diff = defineOperation({
  id: 'diff',
  summary: 'What changed in the knowledge',
  description:
    'The semantic diff between two memory revisions (default: what this clone changed since it and the remote-tracking tip diverged): items added, superseded, revoked, archived, changed field by field, safety rules, questions opened and answered. Markdown.',
  input: DiffInput.shape,
  output: z.looseObject({
    from: z.string().nullable().describe('the older revision (null: the empty store)'),
    to: z.string().nullable().describe('the newer revision'),
    items: z.array(z.looseObject({})).describe('one entry per item changed: kind, id, slug, title, change, fields'),
    counts: z.looseObject({}).describe('changes by type'),
  }),
  annotations: READ,
  write: false,
  mcp: { tool: 'axme_diff' },
  async run(kb, input): Promise<SemanticDiff> {
    const { diffRevisions } = await import('../knowledge/review/diff/diff-revisions.ts');
    return diffRevisions(kb, input);
  },
  cli: {
    command: ['diff'],
    describe:
      'what changed in the knowledge between two revisions: items added, superseded, revoked, archived, changed (field by field, body as a diff), safety rules, questions. Default: what your refs/memory/main changed since it and the remote-tracking tip diverged',
    positional: ['from', 'to'],
    flags: {
      format: z.enum(['text', 'markdown']).optional().describe('text for a terminal (default), markdown for a pull request body or comment'),
      color: z.boolean().optional().describe('colour the text format (default: on a terminal, unless NO_COLOR)'),
    },
    // a terminal gets the text form (coloured on a TTY); markdown is the tool's text
    text: (d, p) => (p.args.format === 'markdown' ? renderDiffMarkdown(d) : renderDiffText(d, { color: wantsColor(p) })),
  },
  json: (d) => ({ ...d }),
  text: (d) => renderDiffMarkdown(d),
});

/** check: `axme check [rev]`, `axme_check`. */
export const check = defineOperation({
  id: 'check',
  summary: 'Check the knowledge',
  description:
    'Validate a memory revision as CI does on knowledge pull requests: schemas, unique IDs, supersession links, rule files, no credentials in content.',
  input: { rev: z.string().max(300).optional().describe('revision to check (default: refs/memory/main)') },
  output: z.looseObject({
    ok: z.boolean().describe('false when any finding is an error'),
    commit: z.string().describe('the commit checked'),
    scanned: z.number().describe('files scanned for credentials'),
    findings: z.array(z.looseObject({})).describe('what is wrong: path, reason, level'),
  }),
  annotations: READ,
  write: false,
  mcp: { tool: 'axme_check' },
  async run(kb, input): Promise<CheckResult> {
    const { checkKnowledge } = await import('../knowledge/admin/check-knowledge.ts');
    return checkKnowledge(kb, { at: input.rev });
  },
  cli: {
    command: ['check'],
    describe:
      'validate a memory tree for CI on knowledge pull requests: schemas, unique IDs, supersession graph, rule files, no credentials in content; exit 1 with the findings',
    positional: ['rev'],
    help: { rev: 'the revision to check: a commit, a branch (origin/axme/proposals/x), ~N; default refs/memory/main' },
    print: (r, p) => {
      const errors = r.findings.filter((f) => f.severity === 'error').length;
      return reportFindings(
        r,
        p,
        `${r.ok ? 'ok' : `FAILED: ${errors} finding${errors === 1 ? '' : 's'}`} at ${r.commit.slice(0, 12)} (${r.scanned} files, ${r.objects} objects checked)`,
      );
    },
  },
  json: (r) => ({ ...r }),
  text: (r) =>
    `${r.ok ? 'ok' : 'FAILED'} at ${r.commit.slice(0, 12)} (${r.scanned} files)${r.findings.length ? `\n${r.findings.map((f) => `- ${diagnosticLine(f)}`).join('\n')}` : ''}`,
});

/** propose: `axme propose`, `axme_propose`. */
export const propose = defineOperation({
  id: 'propose',
  summary: 'Open a knowledge pull request',
  description:
    "Push the pending knowledge (this session's proposal when review is required, else refs/memory/main) to axme/proposals/<name> and open a pull request into axme/memory with the semantic diff as its body. Returns the PR URL.",
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
  mcp: { tool: 'axme_propose' },
  async run(kb, input, opts): Promise<ProposeResult> {
    const { proposeKnowledge } = await import('../knowledge/review/propose.ts');
    return proposeKnowledge(kb, input, { env: opts?.env ?? kb.repo.env });
  },
  cli: {
    command: ['propose'],
    describe:
      'open a knowledge pull request: push the memory tip (or each pending proposal) to axme/proposals/<name> and open a PR into axme/memory with the semantic diff as its body; prints the PR URL',
    // stdout is the answer (the URLs); what happened goes to stderr
    print: (r, p) => {
      if (p.json) return p.printJson(r);
      for (const line of r.text.split('\n')) if (!/^https?:\/\//.test(line)) p.note(line);
      for (const o of r.opened) p.out(o.url);
    },
  },
  json: ({ text: _t, ...r }) => r,
  text: (r) => r.text,
});
