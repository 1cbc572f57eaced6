import { argvLine } from './argv-line.ts';
import { type LaunchStep, lines } from './launcher-shapes.ts';
import type { Word } from './shell.ts';

/**
 * Programs that hand their operands to a shell as command lines, each read as `sh -c` is
 * (docs/safety.md, "Shell commands are parsed, not grepped"): a benchmark's commands and its
 * setup, prepare, cleanup and conclude lines (`hyperfine 'cmd'`, `--prepare 'cmd'`), the commands
 * `concurrently` starts together, `chokidar -c 'cmd'`, the lines `pee` hands its input to, what `pm2 start` keeps running (`pm2 start
 * 'cmd line'`, `pm2 start bash -- -c 'cmd'`), and `sops exec-env FILE 'cmd'` / `exec-file FILE
 * 'cmd'`, which run a command with the file's secrets in its environment or in a file `{}` names
 * (read as `sops -d FILE > F; cmd` with `{}` as F, so a line that sends F sends the secrets).
 */

/** A program's options that take a value, and those whose value is a command line. */
interface ExecLineSpec {
  valued: readonly string[];
  lineOptions: readonly string[];
  /** its operands are command lines too (hyperfine's, concurrently's) */
  operandLines: boolean;
}

const SPECS: Record<string, ExecLineSpec> = {
  // moreutils' `pee 'cmd1' 'cmd2'`: its stdin handed to each command line, run by a shell
  pee: { valued: [], lineOptions: [], operandLines: true },
  hyperfine: {
    valued: [
      '-w',
      '--warmup',
      '-m',
      '--min-runs',
      '-M',
      '--max-runs',
      '-r',
      '--runs',
      '-S',
      '--shell',
      '-u',
      '--time-unit',
      '--style',
      '--sort',
      '-n',
      '--command-name',
      '-o',
      '--output',
      '--input',
      '--export-asciidoc',
      '--export-csv',
      '--export-json',
      '--export-markdown',
      '--export-orgmode',
      '-D',
      '--parameter-step-size',
      '--min-benchmarking-time',
      '--reference',
    ],
    lineOptions: ['-p', '--prepare', '-s', '--setup', '-c', '--cleanup', '--conclude', '--reference'],
    operandLines: true,
  },
  concurrently: {
    valued: [
      '-n',
      '--names',
      '--name-separator',
      '-c',
      '--prefix-colors',
      '-p',
      '--prefix',
      '-l',
      '--prefix-length',
      '-t',
      '--timestamp-format',
      '-s',
      '--success',
      '--restart-tries',
      '--restart-after',
      '-m',
      '--max-processes',
      '--default-input-target',
      '--passthrough-arguments',
      '--teardown',
    ],
    lineOptions: ['--teardown'],
    operandLines: true,
  },
  chokidar: {
    valued: ['-d', '--debounce', '-t', '--throttle', '--polling-interval', '--poll-interval-binary', '-i', '--ignore'],
    lineOptions: ['-c', '--command'],
    operandLines: false,
  },
};

/** hyperfine's options that take more than one value: the parameter scan (name, min, max) and list (name, values). */
const MULTI: Record<string, number> = { '-P': 3, '--parameter-scan': 3, '-L': 2, '--parameter-list': 2 };

/** The command lines such a program hands a shell, or null where `program` is none of these. */
export function execLines(program: string, args: Word[]): LaunchStep | null {
  if (program === 'pm2') return pm2Start(args);
  if (program === 'sops') return sopsExec(args);
  const spec = SPECS[program];
  if (!spec) return null;
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    const eq = v.startsWith('--') ? v.indexOf('=') : -1;
    const name = eq > 0 ? v.slice(0, eq) : v;
    if (spec.lineOptions.includes(name)) {
      const line = eq > 0 ? v.slice(eq + 1) : args[++i]?.value;
      if (line) out.push(line);
    } else if (MULTI[v] && program === 'hyperfine') i += MULTI[v]!;
    else if (v.startsWith('-')) {
      if (eq < 0 && spec.valued.includes(v)) i++;
    } else if (spec.operandLines) out.push(v);
  }
  return out.length ? lines(out, true) : null;
}

/** pm2's `start` options that take a value. */
const PM2_VALUED = new Set([
  '-n',
  '--name',
  '-i',
  '--instances',
  '--interpreter',
  '--interpreter-args',
  '--node-args',
  '--cwd',
  '-o',
  '--output',
  '-e',
  '--error',
  '-l',
  '--log',
  '--log-date-format',
  '--max-memory-restart',
  '--cron',
  '--cron-restart',
  '--namespace',
  '--env',
  '--restart-delay',
  '--exp-backoff-restart-delay',
  '--max-restarts',
  '--kill-timeout',
  '--listen-timeout',
  '-u',
  '--uid',
  '-g',
  '--gid',
  '--watch-delay',
  '--ignore-watch',
  '--merge-logs',
]);

/** `pm2 start 'cmd line'` (a shell line), `pm2 start PROGRAM [opts] -- ARGS` (the program with its arguments). */
function pm2Start(args: Word[]): LaunchStep | null {
  const start = args.findIndex((w) => w.value === 'start' || w.value === 'restart');
  if (start < 0) return null;
  let target: string | null = null;
  const rest: string[] = [];
  for (let i = start + 1; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === '--') {
      rest.push(...args.slice(i + 1).map((w) => w.value));
      break;
    }
    if (v.startsWith('-')) {
      if (!v.includes('=') && PM2_VALUED.has(v)) i++;
    } else if (target === null) target = v;
  }
  if (target === null) return null;
  return lines([/\s/.test(target) ? target : argvLine([target, ...rest])], true);
}

/** `sops exec-env FILE 'cmd'`, `sops exec-file FILE 'cmd'` (its options before and between). */
function sopsExec(args: Word[]): LaunchStep | null {
  const at = args.findIndex((w) => w.value === 'exec-env' || w.value === 'exec-file');
  if (at < 0) return null;
  const ops: string[] = [];
  for (let i = at + 1; i < args.length; i++) {
    const v = args[i]!.value;
    if (v.startsWith('-')) {
      if (!v.includes('=') && (v === '--user' || v === '--filename' || v === '--output-type' || v === '--input-type')) i++;
    } else ops.push(v);
  }
  const [file, line] = ops;
  if (!file || !line) return null;
  if (args[at]!.value === 'exec-env') return lines([line], true);
  const decrypted = '/tmp/axme-sops-exec-file';
  return lines([`sops -d ${argvLine([file])} > ${decrypted}; ${line.replaceAll('{}', decrypted)}`], true);
}
