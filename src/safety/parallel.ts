import { posix } from 'node:path';
import { shellQuote } from '../model/shell-quote.ts';
import { UNKNOWN } from './expand.ts';

/**
 * GNU parallel's command line, read as the commands it runs (docs/safety.md): the command after
 * its options, run by a shell once per job, with the job's arguments in place of its replacement
 * strings (`{}`, `{.}`, `{/}`, `{//}`, `{/.}`, `{2}`) or appended. The arguments come from the
 * groups after `:::` (every combination of one word from each), or else one per line of stdin,
 * as xargs reads its words. With no command, each job's arguments are the command line. An
 * argument only the shell knows (`::: $(cat list)`, `::: "$DIRS"`) stands in the command as
 * written, so that the rules read it as they read it typed there (`rm -rf $(cat list)`).
 */

/** A word of parallel's command line: its value (quotes removed), and its text as written. */
export interface LineWord {
  value: string;
  raw: string;
}

/** A parallel command line: the command's words, and the argument groups after `:::` (null: read from stdin). */
export interface ParallelLine {
  command: string[];
  /** the words of each `:::` group; null when there is none and parallel reads stdin */
  groups: LineWord[][] | null;
  /** `-q`: each word of the command is quoted, not handed to the shell as it is */
  quoted: boolean;
  /** `--dry-run`: the commands are printed, not run */
  dryRun: boolean;
  /** `--wd DIR`: the folder the commands run in (`...`, a new temporary folder, is none) */
  workdir: string | null;
}

/** Options of GNU parallel that take the next word as their value. */
const VALUED = new Set([
  '-j',
  '--jobs',
  '-P',
  '--max-procs',
  '-S',
  '--sshlogin',
  '--sshloginfile',
  '--slf',
  '-a',
  '--arg-file',
  '-d',
  '--delimiter',
  '-E',
  '--eof',
  '-I',
  '--replace',
  '-n',
  '--max-args',
  '-N',
  '-L',
  '--max-lines',
  '-s',
  '--max-chars',
  '-C',
  '--colsep',
  '--joblog',
  '--results',
  '--res',
  '--tmpdir',
  '--tempdir',
  '--timeout',
  '--delay',
  '--retries',
  '--memfree',
  '--load',
  '--env',
  '--workdir',
  '--wd',
  '--basefile',
  '--bf',
  '--return',
  '--transferfile',
  '--tf',
  '--tagstring',
  '--tag-string',
  '--header',
  '--limit',
  '--block',
  '--block-size',
  '--halt',
  '--termseq',
  '--nice',
  '--ssh',
  '--rpl',
  '--parens',
  '--id',
  '--sshdelay',
  '--trim',
  '--ctagstring',
  '--shebang-wrap',
]);

/** Where the argument groups start: `:::` (words), `:::+` (linked), `::::` and `::::+` (files). */
const SEPARATOR = /^::::?\+?$/;

/** At most this many jobs are read from one command line (each is checked as a command of its own). */
const MAX_JOBS = 64;

/** The command and argument groups of `parallel ARGS`. */
export function parallelLine(words: readonly LineWord[]): ParallelLine {
  const args = words.map((w) => w.value);
  let i = 0;
  let quoted = false;
  let dryRun = false;
  let workdir: string | null = null;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      i++;
      break;
    }
    if (!a.startsWith('-') || a === '-' || SEPARATOR.test(a)) break;
    if (a === '-q' || a === '--quote') quoted = true;
    if (a === '--dry-run') dryRun = true;
    const wd = a === '--wd' || a === '--workdir' ? (args[i + 1] ?? null) : /^--(?:wd|workdir)=/.test(a) ? a.slice(a.indexOf('=') + 1) : undefined;
    if (wd !== undefined) workdir = wd === '...' ? null : wd;
    if (VALUED.has(a)) i++;
  }
  const rest = args.slice(i);
  const sep = rest.findIndex((a) => SEPARATOR.test(a));
  if (sep < 0) return { command: rest, groups: null, quoted, dryRun, workdir };
  const groups: LineWord[][] = [];
  let files = false;
  for (const w of words.slice(i + sep)) {
    if (SEPARATOR.test(w.value)) {
      // `:::: FILE`: arguments read from a file only the running command knows
      files = w.value.startsWith('::::');
      groups.push([]);
    } else if (!files) groups.at(-1)!.push(w);
  }
  return { command: rest.slice(0, sep), groups: groups.filter((g) => g.length), quoted, dryRun, workdir };
}

/** A replacement string: `{}`, `{.}`, `{/}`, `{//}`, `{/.}`, and the same for one group (`{2}`, `{2.}`). */
const REPLACEMENT = /\{(\d*)(\/\/|\/\.|\/|\.)?\}/g;

function replaced(arg: string, how: string | undefined): string {
  if (how === '.') return arg.replace(/\.[^./]*$/, '');
  if (how === '/') return posix.basename(arg);
  if (how === '//') return posix.dirname(arg);
  if (how === '/.') return posix.basename(arg).replace(/\.[^./]*$/, '');
  return arg;
}

/**
 * The command lines parallel runs: for each job, the command with the job's arguments in place of
 * the replacement strings (or appended). `input`: the lines it reads on stdin, when no `:::` gave
 * it arguments. No arguments at all: the command alone.
 */
export function parallelScripts(line: ParallelLine, input: readonly string[] | null): string[] {
  if (line.dryRun) return [];
  const text = line.quoted ? line.command.map(shellQuote).join(' ') : line.command.join(' ');
  const groups = line.groups ?? (input ? [input.slice(0, MAX_JOBS).map((value) => ({ value, raw: shellQuote(value) }))] : []);
  const jobs = combinations(groups);
  const replaces = text.search(REPLACEMENT) >= 0;
  const scripts = !jobs.length
    ? text.trim()
      ? [text]
      : []
    : jobs.map((job) => {
        if (!text.trim()) return job.map((a) => (known(a) ? a.value : a.raw)).join(' ');
        if (!replaces) return `${text} ${job.map((a) => inserted(a)).join(' ')}`;
        return text.replace(REPLACEMENT, (_, n: string, how: string | undefined) => {
          const args = n ? [job[Number(n) - 1] ?? { value: '', raw: "''" }] : job;
          return args.map((a) => inserted(a, how)).join(' ');
        });
      });
  return line.workdir === null ? scripts : scripts.map((s) => `cd ${shellQuote(line.workdir!)} && ${s}`);
}

/** Whether the command line tells an argument's value (not `$(cat list)`, `"$DIRS"`). */
function known(a: LineWord): boolean {
  return !a.value.includes(UNKNOWN);
}

/** An argument as it stands in a job's command: its value quoted (`{.}`, `{/}`… applied), or one only the shell knows as written. */
function inserted(a: LineWord, how?: string): string {
  return known(a) ? shellQuote(replaced(a.value, how)) : a.raw;
}

/** Every combination of one word from each group, as parallel makes its jobs (at most MAX_JOBS). */
function combinations(groups: readonly LineWord[][]): LineWord[][] {
  let jobs: LineWord[][] = groups.length ? [[]] : [];
  for (const g of groups) {
    const next: LineWord[][] = [];
    for (const job of jobs) for (const a of g) if (next.length < MAX_JOBS) next.push([...job, a]);
    jobs = next;
  }
  return jobs;
}
