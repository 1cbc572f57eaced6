/**
 * A command line run in-process: `run` (src/cli/main.ts), the function the binary's entry calls,
 * with the folder, a clean environment, stdin and the launcher's path passed in as the binary
 * would pass them. The answer is the binary's: the same parser, the same command, the same exit
 * code (0, 1 failure, 2 usage) and the same text on stdout and stderr, without a node process
 * started and the bundle loaded for each command. What only a real process shows (the launcher,
 * signals, a hook's process exit, a server's pipes) keeps running through `axme` (test/helpers.ts).
 */
import { Readable, Writable } from 'node:stream';
import { commandWords } from '../src/cli/command-line.ts';
import { run } from '../src/cli/main.ts';
import { CLI, type CliResult, cleanEnv } from './helpers.ts';

/** Commands that end or take over their process (hooks exit it, servers keep it): the binary's only. */
const PROCESS_COMMANDS = new Set(['hook', 'git-hook', 'serve', 'ui']);

/** `axme <args>` in `cwd`, in-process: its exit code and what it printed. */
export async function axmeIn(cwd: string, args: string[], opts: { env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<CliResult> {
  const [word = ''] = commandWords(args);
  // `sync --auto` is the background sync the hooks start: it may end its process
  if (PROCESS_COMMANDS.has(word) || (word === 'sync' && args.some((a) => a.startsWith('--auto'))))
    throw new Error(`axme ${args.join(' ')} runs as its own process: use axme() (test/helpers.ts)`);
  let stdout = '';
  let stderr = '';
  const sink = (add: (s: string) => void) =>
    new Writable({
      write: (chunk, _encoding, done) => {
        add(String(chunk));
        done();
      },
    });
  const code = await run(args, {
    cwd,
    env: cleanEnv(opts.env),
    stdin: Readable.from(opts.input === undefined ? [] : [Buffer.from(opts.input)]),
    stdout: sink((s) => (stdout += s)),
    stderr: sink((s) => (stderr += s)),
    // as the launcher starts it: hook commands and the MCP entries init writes name this build
    self: { execPath: process.execPath, script: CLI },
  });
  return { code, stdout, stderr };
}

/** Like axmeIn() but fails unless the command exits 0; parsed JSON with --json, else stdout. */
export async function axmeInOk(cwd: string, args: string[], opts: { env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<any> {
  const r = await axmeIn(cwd, args, opts);
  if (r.code !== 0) throw new Error(`axme ${args.join(' ')} exited ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return args.includes('--json') ? JSON.parse(r.stdout) : r.stdout;
}
