import type { Argv } from 'yargs';
import { note, out, printJson, withKb, type CliIO } from '../io.ts';
import { reportFindings } from './shared.ts';

type Args = Record<string, unknown> & { C?: string; json?: boolean };

/** Colour on a terminal only: never in a pipe, never with NO_COLOR; --color / --no-color decide. */
export function wantsColor(io: CliIO, flag: unknown): boolean {
  if (typeof flag === 'boolean') return flag;
  return !!(io.stdout as { isTTY?: boolean }).isTTY && !io.env.NO_COLOR && io.env.TERM !== 'dumb';
}

/** diff, propose, check: reviewing knowledge changes. */
export function reviewCommands(io: CliIO) {
  return [
    {
      command: 'diff [from] [to]',
      describe: 'what changed in the knowledge between two revisions: items added, superseded, revoked, archived, changed (field by field, body as a diff), safety rules, questions. Default: what your refs/memory/main changed since it and the remote-tracking tip diverged',
      builder: (y: Argv): Argv =>
        y
          .positional('from', { type: 'string', describe: 'older revision: commit, ~N (relative to refs/memory/main), date, ref (default: the merge base with the remote-tracking tip)' })
          .positional('to', { type: 'string', describe: 'newer revision (default: refs/memory/main)' })
          .option('remote', { type: 'string', describe: 'whose tracking tip is the default <from> (default: origin, or the only remote)' })
          .option('format', { choices: ['text', 'markdown'], default: 'text', describe: 'text for a terminal, markdown for a pull request body or comment' })
          .option('color', { type: 'boolean', describe: 'colour the text format (default: on a terminal, unless NO_COLOR)' }),
      handler: (a: Args) =>
        withKb(io, a, async (kb) => {
          const [{ diffRevisions }, { renderDiffMarkdown, renderDiffText }] = await Promise.all([import('../../knowledge/review/diff/diff-revisions.ts'), import('../../knowledge/review/diff/render-diff.ts')]);
          const d = await diffRevisions(kb, { from: a.from as string | undefined, to: a.to as string | undefined, remote: a.remote as string | undefined });
          if (a.json) return printJson(io, d);
          out(io, a.format === 'markdown' ? renderDiffMarkdown(d) : renderDiffText(d, { color: wantsColor(io, a.color) }));
        }),
    },
    {
      command: 'propose',
      describe: 'open a knowledge pull request: push the memory tip (or each pending proposal) to axme/proposals/<name> and open a PR into axme/memory with the semantic diff as its body; prints the PR URL',
      builder: (y: Argv): Argv =>
        y
          .option('title', { type: 'string', describe: 'pull request title (default: a summary of the changes)' })
          .option('remote', { type: 'string', describe: 'git remote (default: origin, or the only remote)' })
          .option('name', { type: 'string', describe: 'the branch is axme/proposals/<name> (default: from the title, or the proposal)' })
          .option('repo', { type: 'string', describe: 'GitHub owner/name (default: from the remote URL)' })
          .option('ref', { type: 'string', describe: 'what to propose: refs/memory/main or a pending proposal (default: every pending proposal, else refs/memory/main)' }),
      handler: (a: Args) =>
        withKb(io, a, async (kb) => {
          const { proposeKnowledge } = await import('../../knowledge/review/propose.ts');
          const r = await proposeKnowledge(kb, { title: a.title as string | undefined, remote: a.remote as string | undefined, name: a.name as string | undefined, repo: a.repo as string | undefined, ref: a.ref as string | undefined }, { env: io.env });
          if (a.json) return printJson(io, r);
          // stdout is the answer (the URLs); what happened goes to stderr
          for (const line of r.text.split('\n')) if (!/^https?:\/\//.test(line)) note(io, line);
          for (const o of r.opened) out(io, o.url);
        }),
    },
    {
      command: 'check [rev]',
      describe: 'validate a memory tree for CI on knowledge pull requests: schemas, unique IDs, supersession graph, rule files, no credentials in content; exit 1 with the findings',
      builder: (y: Argv): Argv => y.positional('rev', { type: 'string', describe: 'the revision to check: a commit, a branch (origin/axme/proposals/x), ~N; default refs/memory/main' }),
      handler: (a: Args) =>
        withKb(io, a, async (kb) => {
          const { checkKnowledge } = await import('../../knowledge/admin/check-knowledge.ts');
          const r = await checkKnowledge(kb, { at: a.rev as string | undefined });
          reportFindings(io, a.json, r, () => {
            const errors = r.findings.filter((f) => f.severity === 'error').length;
            return `${r.ok ? 'ok' : `FAILED: ${errors} finding${errors === 1 ? '' : 's'}`} at ${r.commit.slice(0, 12)} (${r.scanned} files, ${r.objects} objects checked)`;
          });
        }),
    },
  ];
}
