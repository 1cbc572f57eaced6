import type { Repo } from './repo.ts';

export interface LogEntry {
  commit: string;
  parents: string[];
  /** committer date, ISO 8601 */
  date: string;
  author: string;
  email: string;
  subject: string;
  body: string;
  /** trailer key -> values, e.g. {"Axme-Item": ["decisions/x.md"]} */
  trailers: Record<string, string[]>;
}

export interface LogOptions {
  /** newest first from this revision */
  rev: string;
  /** only commits touching this path (follows nothing: the path is the identity) */
  path?: string;
  limit?: number;
  /** only commits at or after this instant */
  since?: Date;
  /** with `path`: every commit that changed it on any line of history, merges that differ from a parent included (`git log --full-history`), not only the line git's simplification follows */
  fullHistory?: boolean;
}

const FS = '\x1f';
const RS = '\x1e';

/** Commits of a memory ref, newest first, with their trailers parsed. */
export async function readLog(repo: Repo, opts: LogOptions): Promise<LogEntry[]> {
  const args = ['log', `--format=%H${FS}%P${FS}%cI${FS}%an${FS}%ae${FS}%B${RS}`];
  if (opts.limit !== undefined) args.push(`--max-count=${opts.limit}`);
  if (opts.since) args.push(`--since=@${Math.floor(opts.since.getTime() / 1000)}`); // inclusive
  if (opts.fullHistory) args.push('--full-history');
  args.push(opts.rev, '--');
  if (opts.path) args.push(opts.path);
  const out = (await repo.git(args)).stdout.toString('utf8');
  return out
    .split(RS)
    .map((r) => r.replace(/^\n/, ''))
    .filter((r) => r.trim() !== '')
    .map((rec) => {
      const [commit, parents, date, author, email, message = ''] = rec.split(FS);
      const { subject, body, trailers } = splitMessage(message);
      return { commit: commit!, parents: parents ? parents.split(' ') : [], date: date!, author: author!, email: email!, subject, body, trailers };
    });
}

/** Subject, body and trailers (the last paragraph when every line of it is `Key: value`). */
export function splitMessage(message: string): { subject: string; body: string; trailers: Record<string, string[]> } {
  const paras = message.replace(/\s+$/, '').split(/\n{2,}/);
  const subject = (paras.shift() ?? '').trim();
  const trailers: Record<string, string[]> = {};
  const last = paras[paras.length - 1];
  if (last && last.split('\n').every((l) => /^[A-Za-z][A-Za-z0-9-]*: /.test(l))) {
    paras.pop();
    for (const l of last.split('\n')) {
      const i = l.indexOf(': ');
      (trailers[l.slice(0, i)] ??= []).push(l.slice(i + 2));
    }
  }
  return { subject, body: paras.join('\n\n'), trailers };
}
