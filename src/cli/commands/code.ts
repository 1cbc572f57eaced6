import type { Argv } from 'yargs';
import type { CommitLinks } from '../../knowledge/history/commit-links.ts';
import { AxmeError } from '../../model/errors.ts';
import { out, printJson, withKb, type CliIO } from '../io.ts';

type Args = Record<string, unknown> & { C?: string; json?: boolean };

/** show-commit and blame: from code to the knowledge behind it (trailers, notes, decisions). */
export function codeCommands(io: CliIO) {
  return [
    {
      command: 'show-commit <rev>',
      describe: 'the knowledge linked to a code commit: PR, session, decisions cited, the memory tip it was made at',
      builder: (y: Argv): Argv => y.positional('rev', { type: 'string' }),
      handler: (a: Args) =>
        withKb(io, a, async (kb) => {
          const { showCommit } = await import('../../knowledge/history/commit-links.ts');
          const r = await showCommit(kb, { cwd: a.C ?? io.cwd, env: io.env }, String(a.rev));
          if (a.json) return printJson(io, r);
          out(io, render(r));
        }),
    },
    {
      command: 'blame <target>',
      describe: 'the commits behind a file\'s lines (file, file:12 or file:12-30) and the knowledge each links to',
      builder: (y: Argv): Argv => y.positional('target', { type: 'string' }),
      handler: (a: Args) =>
        withKb(io, a, async (kb) => {
          const { file, range } = parseTarget(String(a.target));
          const { blameKnowledge } = await import('../../knowledge/history/commit-links.ts');
          const r = await blameKnowledge(kb, { cwd: a.C ?? io.cwd, env: io.env }, file, range);
          if (a.json) return printJson(io, r);
          for (const c of r) out(io, `${render(c)}\n  lines ${spans(c.lines)}`);
        }),
    },
  ];
}

function parseTarget(target: string): { file: string; range?: [number, number] } {
  const m = /^(.*):(\d+)(?:-(\d+))?$/.exec(target);
  if (!m) return { file: target };
  const from = Number(m[2]);
  const to = m[3] ? Number(m[3]) : from;
  if (from < 1 || to < from) throw new AxmeError('INVALID_INPUT', `${target}: lines are counted from 1 and written file:12 or file:12-30`);
  return { file: m[1]!, range: [from, to] };
}

function render(c: CommitLinks): string {
  const lines = [`${c.commit.slice(0, 12)}  ${c.subject}  (${c.author}, ${c.date.slice(0, 10)})`];
  if (c.pr) lines.push(`  PR ${c.pr === 'none' ? 'none' : `#${c.pr}`}${c.repo ? ` ${c.repo}` : ''}${c.prUrl ? `  ${c.prUrl}` : ''}`);
  if (c.session) lines.push(`  session ${c.session}`);
  for (const d of c.decisions) lines.push(`  decision ${d.id}${d.title ? ` ${d.title}` : ' (not in the store)'}${d.status && d.status !== 'active' ? ` [${d.status}]` : ''}`);
  if (c.memory) lines.push(`  memory at ${c.memory.slice(0, 12)}`);
  if (lines.length === 1) lines.push('  (no axme links: no trailers, no note)');
  return lines.join('\n');
}

/** 3,4,5,9 -> "3-5, 9" */
function spans(ls: number[]): string {
  const out: string[] = [];
  const s = [...ls].sort((a, b) => a - b);
  for (let i = 0; i < s.length; ) {
    let j = i;
    while (j + 1 < s.length && s[j + 1] === s[j]! + 1) j++;
    out.push(i === j ? `${s[i]}` : `${s[i]}-${s[j]}`);
    i = j + 1;
  }
  return out.join(', ');
}
