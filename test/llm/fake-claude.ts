// A fake `claude` executable for the claude-cli provider's tests: a small node script written into
// a temp folder that the tests put first on PATH. What it does is chosen by FAKE_CLAUDE_MODE; each
// run records its arguments, stdin, folder and environment in FAKE_CLAUDE_LOG (one JSON a line).
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

const SCRIPT = `
const fs = require('node:fs');
const { spawn } = require('node:child_process');
if (process.env.FAKE_CLAUDE_MODE === 'hang') {
  // stubborn from its first line (only SIGKILL stops it), its pids known before a timeout can come
  process.on('SIGTERM', () => {});
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  fs.writeFileSync(process.env.FAKE_CLAUDE_PIDS, JSON.stringify({ claude: process.pid, grandchild: child.pid }));
}
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (c) => (input += c));
process.stdin.on('end', () => {
  const env = process.env;
  fs.appendFileSync(env.FAKE_CLAUDE_LOG, JSON.stringify({
    argv: process.argv.slice(2), stdin: input, cwd: process.cwd(),
    max_output_tokens: env.CLAUDE_CODE_MAX_OUTPUT_TOKENS ?? null, claudecode: env.CLAUDECODE ?? null,
  }) + '\\n');
  const mode = env.FAKE_CLAUDE_MODE || 'ok';
  const result = (extra) => JSON.stringify({
    type: 'result', subtype: 'success', is_error: false, duration_ms: 1200, num_turns: 1,
    result: env.FAKE_CLAUDE_RESULT ?? '{"ok":true}', stop_reason: 'end_turn', session_id: 'fake-session',
    total_cost_usd: 0.0123, usage: { input_tokens: 7, cache_read_input_tokens: 1000, output_tokens: 42 },
    modelUsage: { 'claude-sonnet-4-6': { inputTokens: 7, outputTokens: 42 } }, ...extra,
  });
  if (mode === 'ok') return void process.stdout.write(result({}) + '\\n');
  if (mode === 'noisy') return void process.stdout.write('some warning first\\n' + result({ total_cost_usd: undefined, modelUsage: undefined }) + '\\n');
  if (mode === 'truncated') return void process.stdout.write(result({ stop_reason: 'max_tokens' }));
  if (mode === 'is_error') {
    process.stdout.write(JSON.stringify({ type: 'result', subtype: 'error_during_execution', is_error: true, result: 'Invalid API key - Please run /login' }) + '\\n');
    process.exit(1);
  }
  if (mode === 'crash') {
    process.stderr.write('line 1\\nline 2\\nline 3\\nline 4\\nline 5\\nline 6\\nError: something broke\\n');
    process.exit(3);
  }
  if (mode === 'hang') setInterval(() => {}, 1000);
});
`;

export interface FakeClaude {
  /** the folder holding `claude` */
  dir: string;
  /** `claude`'s path */
  path: string;
  /** an environment with `dir` first on PATH and the fake's mode set */
  env(mode?: 'ok' | 'noisy' | 'truncated' | 'is_error' | 'crash' | 'hang', more?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
  /** the runs so far */
  runs(): Array<{ argv: string[]; stdin: string; cwd: string; max_output_tokens: string | null; claudecode: string | null }>;
  /** the pids the last `hang` run wrote once it ignored SIGTERM and started its child; null before (or when it was stopped first) */
  pids(): { claude: number; grandchild: number } | null;
  /** forgets the pids a `hang` run wrote (before the next one) */
  forgetPids(): void;
  remove(): void;
}

/** Writes the fake `claude` into a new temp folder. */
export function fakeClaude(): FakeClaude {
  const dir = mkdtempSync(join(tmpdir(), 'axme-fake-claude-'));
  const path = join(dir, 'claude');
  writeFileSync(path, `#!${process.execPath}\n${SCRIPT}`);
  chmodSync(path, 0o755);
  const log = join(dir, 'runs.jsonl');
  const pidsFile = join(dir, 'pids.json');
  writeFileSync(log, '');
  return {
    dir,
    path,
    env: (mode = 'ok', more = {}) => ({
      PATH: `${dir}${delimiter}${process.env.PATH ?? ''}`,
      HOME: process.env.HOME,
      FAKE_CLAUDE_MODE: mode,
      FAKE_CLAUDE_LOG: log,
      FAKE_CLAUDE_PIDS: pidsFile,
      ...more,
    }),
    runs: () =>
      readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
    pids: () => (existsSync(pidsFile) ? JSON.parse(readFileSync(pidsFile, 'utf8')) : null),
    forgetPids: () => rmSync(pidsFile, { force: true }),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
