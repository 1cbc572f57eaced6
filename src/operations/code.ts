import { z } from 'zod';
import type { CommitLinks } from '../knowledge/history/commit-links.ts';
import { AxmeError } from '../model/errors.ts';
import { textOf } from './lines.ts';
import { defineOperation, READ, type RunOptions } from './operation.ts';

const Links = z.looseObject({
  commit: z.string().describe('the code commit'),
  subject: z.string().describe('its subject'),
  pr: z.string().nullable().describe('the pull request number, or "none" (from the #!axme trailer or note)'),
  session: z.string().nullable().describe('the agent session that made it'),
  decisions: z.array(z.looseObject({})).describe('the decisions it cites: id, title, status'),
  memory: z.string().nullable().describe('the refs/memory/main tip when it was made'),
});

/** Where git runs for the code: the caller's folder (its -C), with the caller's environment. */
function gitAt(kb: { repo: { env: NodeJS.ProcessEnv } }, opts: RunOptions | undefined, fallback: string): { cwd: string; env: NodeJS.ProcessEnv } {
  return { cwd: opts?.cwd ?? fallback, env: opts?.env ?? kb.repo.env };
}

/** show-commit: `axme show-commit <rev>` (the CLI's own). */
export const showCommit = defineOperation({
  id: 'show-commit',
  summary: 'Knowledge behind a code commit',
  description: 'The knowledge linked to a code commit: its PR, session, the decisions it cites, the memory tip it was made at.',
  input: { rev: z.string().min(1).max(300).describe('a commit, branch or tag of the code') },
  output: Links,
  annotations: READ,
  write: false,
  mcp: null,
  async run(kb, input, opts): Promise<CommitLinks> {
    return (await import('../knowledge/history/commit-links.ts')).showCommit(kb, gitAt(kb, opts, '.'), String(input.rev));
  },
  cli: {
    command: ['show-commit'],
    describe: 'the knowledge linked to a code commit: PR, session, decisions cited, the memory tip it was made at',
    positional: ['rev'],
  },
  json: (r) => ({ ...r }),
  text: (r) => linksText(r),
});

type Blamed = Array<CommitLinks & { lines: number[] }>;

/** blame: `axme blame <file>[:<line>[-<line>]]` (the CLI's own). */
export const blame = defineOperation({
  id: 'blame',
  summary: "Knowledge behind a file's lines",
  description: "The commits behind a file's lines (file, file:12 or file:12-30) and the knowledge each links to.",
  input: { target: z.string().min(1).max(4096).describe('file, file:12 or file:12-30') },
  output: z.looseObject({ commits: z.array(Links).describe('each commit with the lines it wrote') }),
  annotations: READ,
  write: false,
  mcp: null,
  async run(kb, input, opts): Promise<Blamed> {
    const { file, range } = parseTarget(String(input.target));
    const { blameKnowledge } = await import('../knowledge/history/commit-links.ts');
    return blameKnowledge(kb, gitAt(kb, opts, '.'), file, range);
  },
  cli: {
    command: ['blame'],
    describe: "the commits behind a file's lines (file, file:12 or file:12-30) and the knowledge each links to",
    positional: ['target'],
    // --json: the array of commits
    json: (r) => r,
  },
  json: (r) => ({ commits: r }),
  text: (r) => textOf(r.map((c) => `${linksText(c)}\n  lines ${spans(c.lines)}`)),
});

function parseTarget(target: string): { file: string; range?: [number, number] } {
  const m = /^(.*):(\d+)(?:-(\d+))?$/.exec(target);
  if (!m) return { file: target };
  const from = Number(m[2]);
  const to = m[3] ? Number(m[3]) : from;
  if (from < 1 || to < from) throw new AxmeError('INVALID_INPUT', `${target}: lines are counted from 1 and written file:12 or file:12-30`);
  return { file: m[1]!, range: [from, to] };
}

function linksText(c: CommitLinks): string {
  const lines = [`${c.commit.slice(0, 12)}  ${c.subject}  (${c.author}, ${c.date.slice(0, 10)})`];
  if (c.pr) lines.push(`  PR ${c.pr === 'none' ? 'none' : `#${c.pr}`}${c.repo ? ` ${c.repo}` : ''}${c.prUrl ? `  ${c.prUrl}` : ''}`);
  if (c.session) lines.push(`  session ${c.session}`);
  for (const d of c.decisions)
    lines.push(`  decision ${d.id}${d.title ? ` ${d.title}` : ' (not in the store)'}${d.status && d.status !== 'active' ? ` [${d.status}]` : ''}`);
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
