import { Writable } from 'node:stream';
import { run } from '../../src/cli/main.ts';
import { CLI, type CliResult, cleanEnv } from '../helpers.ts';

/**
 * `axme <argv>` in `cwd`, run in-process by the CLI's own entry (src/cli/main.ts `run`): the same
 * parsing of the command line, the same handler, the text it prints and the exit code it returns,
 * without starting a process. What only the built binary shows (the process's own exit status and
 * streams, stdin, the launcher and its bundles) stays with `axme()` (test/helpers.ts).
 */
export async function runCli(cwd: string, argv: string[], opts: { env?: NodeJS.ProcessEnv } = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const sink = (add: (s: string) => void) => new Writable({ write: (c, _e, cb) => (add(String(c)), cb()) });
  const code = await run(argv, {
    cwd,
    env: cleanEnv(opts.env),
    stdin: process.stdin,
    stdout: sink((s) => (stdout += s)),
    stderr: sink((s) => (stderr += s)),
    self: { execPath: process.execPath, script: CLI },
  });
  return { code, stdout, stderr };
}

/** Like runCli but fails unless the command exits 0; parsed JSON when `--json` is given, else its stdout. */
export async function runCliOk(cwd: string, argv: string[], opts: { env?: NodeJS.ProcessEnv } = {}): Promise<any> {
  const r = await runCli(cwd, argv, opts);
  if (r.code !== 0) throw new Error(`axme ${argv.join(' ')} exited ${r.code} (in-process)\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return argv.includes('--json') ? JSON.parse(r.stdout) : r.stdout;
}
