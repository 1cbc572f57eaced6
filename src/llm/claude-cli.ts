import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AxmeError } from '../model/errors.ts';
import { findOnPath } from '../model/on-path.ts';
import { DEFAULT_TIMEOUT_MS } from './defaults.ts';
import { costOf } from './prices.ts';
import type { LlmAnswer, LlmProvider, LlmRequest, ProviderConfig } from './types.ts';

/** Longer system prompts go on stdin before the message: one argument may hold 128 KiB on Linux. */
const MAX_ARG = 64 * 1024;
/** How long `claude` has to stop after SIGTERM before SIGKILL. */
const KILL_GRACE_MS = 2_000;
/** More output than this is not an answer: it is cut and the run fails to parse. */
const MAX_STDOUT = 64 * 1024 * 1024;

/**
 * What makes `claude -p` a plain model call rather than an agent: it reads an untrusted transcript,
 * so it gets no tools (`--tools ""`), no MCP server (`--strict-mcp-config` with an empty
 * `--mcp-config`), none of the user's or the project's settings files (`--setting-sources ""`:
 * their hooks, permissions, MCP servers, CLAUDE.md), no hooks at all (`disableAllHooks`), no slash
 * commands or skills, and it leaves no session of its own on disk.
 */
const CLAUDE_ISOLATION = [
  '--tools',
  '',
  '--strict-mcp-config',
  '--mcp-config',
  '{"mcpServers":{}}',
  '--setting-sources',
  '',
  '--settings',
  '{"disableAllHooks":true}',
  '--disable-slash-commands',
  '--no-session-persistence',
] as const;

/**
 * The user's own Claude Code: `claude -p --output-format json`, the message on stdin, the system
 * prompt in `--system-prompt` (it replaces Claude Code's agent prompt), isolated by
 * CLAUDE_ISOLATION. No network code of ours: its login, subscription or key is used. Runs in an
 * empty temporary folder, in its own process group, which a timeout stops as a whole.
 */
export function claudeCliProvider(cfg: ProviderConfig, env: NodeJS.ProcessEnv): LlmProvider {
  const path = findOnPath(cfg.claudePath || 'claude', env);
  if (!path) {
    throw new AxmeError(
      'CONFIG',
      cfg.claudePath
        ? `auditor.claude_path (${cfg.claudePath}) is not an executable file: point it at Claude Code's \`claude\``
        : '`claude` is not on PATH: install Claude Code, set auditor.claude_path, or choose another auditor.provider',
      { provider: 'claude-cli' },
    );
  }
  const model = cfg.model ?? 'default';
  const timeout = cfg.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return {
    name: 'claude-cli',
    model,
    complete: (req) => runClaude(path, cfg.model, req, req.timeoutMs ?? timeout, env),
  };
}

async function runClaude(path: string, model: string | undefined, req: LlmRequest, timeoutMs: number, env: NodeJS.ProcessEnv): Promise<LlmAnswer> {
  const started = Date.now();
  const args = ['-p', '--output-format', 'json', ...CLAUDE_ISOLATION];
  // one word with its flag (commander reads `--model=X` as the value whatever X is): the model may come from
  // the shared axme.yaml, and a value like `--dangerously-skip-permissions` must not be read as an option
  if (model) args.push(`--model=${model}`);
  let stdin = req.user;
  if (req.system && req.system.length <= MAX_ARG) args.push('--system-prompt', req.system);
  else if (req.system) stdin = `${req.system}\n\n${req.user}`;
  const cwd = mkdtempSync(join(tmpdir(), 'axme-claude-'));
  try {
    const run = await spawnClaude(path, args, stdin, { cwd, env: childEnv(env, req.maxTokens), timeoutMs, signal: req.signal });
    return answerOf(run, model, Date.now() - started);
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

/** The environment `claude` runs in: the caller's, with the output limit, outside any Claude Code session. */
function childEnv(env: NodeJS.ProcessEnv, maxTokens: number): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env, CLAUDE_CODE_MAX_OUTPUT_TOKENS: String(maxTokens) };
  // set for the commands a Claude Code session runs; `claude` refuses to start nested under it
  delete out.CLAUDECODE;
  return out;
}

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function spawnClaude(
  path: string,
  args: string[],
  stdin: string,
  o: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number; signal?: AbortSignal },
): Promise<Run> {
  return new Promise((resolve, reject) => {
    if (o.signal?.aborted) return reject(cancelled());
    const group = process.platform !== 'win32';
    const child = spawn(path, args, { cwd: o.cwd, env: o.env, stdio: ['pipe', 'pipe', 'pipe'], detached: group, windowsHide: true });
    const out: Buffer[] = [];
    let outBytes = 0;
    const err: Buffer[] = [];
    let stopped: 'timeout' | 'aborted' | null = null;
    let killer: NodeJS.Timeout | undefined;
    const stop = (why: 'timeout' | 'aborted') => {
      if (stopped) return;
      stopped = why;
      kill(child.pid, group, 'SIGTERM');
      killer = setTimeout(() => kill(child.pid, group, 'SIGKILL'), KILL_GRACE_MS);
      killer.unref();
    };
    const timer = setTimeout(() => stop('timeout'), o.timeoutMs);
    const onAbort = () => stop('aborted');
    o.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (b: Buffer) => {
      if (outBytes < MAX_STDOUT) out.push(b);
      outBytes += b.length;
    });
    child.stderr.on('data', (b: Buffer) => {
      err.push(b);
      if (err.length > 64) err.splice(0, err.length - 64);
    });
    // `claude` may exit before reading all of stdin: its exit says why, not EPIPE
    child.stdin.on('error', () => {});
    child.stdin.end(stdin);
    child.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
      reject(new AxmeError('CONFIG', `could not run ${path} (${e.code ?? e.message}): check auditor.claude_path or PATH`, { provider: 'claude-cli' }));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      clearTimeout(killer);
      // whatever it started and left running goes with it
      if (stopped) kill(child.pid, group, 'SIGKILL');
      o.signal?.removeEventListener('abort', onAbort);
      if (stopped === 'timeout') {
        return reject(
          new AxmeError('UNAVAILABLE', `claude did not answer within ${o.timeoutMs} ms and was stopped: try later, or raise auditor.timeout_ms`, {
            provider: 'claude-cli',
            retryable: true,
          }),
        );
      }
      if (stopped === 'aborted') return reject(cancelled());
      resolve({ code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

function cancelled(): AxmeError {
  return new AxmeError('UNAVAILABLE', 'the claude-cli request was cancelled', { provider: 'claude-cli', retryable: true });
}

/** Signals the process group (POSIX: `claude` and whatever it started), or the process alone. */
function kill(pid: number | undefined, group: boolean, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(group ? -pid : pid, signal);
  } catch {
    // already gone
  }
}

/** The `result` object `claude -p --output-format json` prints (fields it may omit are optional). */
interface ClaudeResult {
  type?: string;
  subtype?: string;
  is_error?: boolean;
  result?: string;
  stop_reason?: string | null;
  total_cost_usd?: number;
  usage?: { input_tokens?: number; output_tokens?: number; cache_creation_input_tokens?: number; cache_read_input_tokens?: number };
  modelUsage?: Record<string, unknown>;
}

function answerOf(run: Run, model: string | undefined, durationMs: number): LlmAnswer {
  const result = parseResult(run.stdout);
  if (result?.is_error) {
    const why = [result.subtype, result.result].filter(Boolean).join(': ') || 'no reason given';
    throw new AxmeError('UNAVAILABLE', `claude reported an error (${why}): check that \`claude -p\` works in a terminal (login, model, quota)`, {
      provider: 'claude-cli',
      subtype: result.subtype ?? null,
      exit_code: run.code,
      retryable: true,
    });
  }
  if (run.code !== 0 || !result) {
    const how = run.code !== 0 ? (run.signal ? `was killed by ${run.signal}` : `exited with ${run.code}`) : 'printed no JSON result';
    const tail = lastLines(run.stderr || run.stdout, 5);
    throw new AxmeError('UNAVAILABLE', `claude ${how}${tail ? `:\n${tail}` : ''}\ncheck that \`claude -p --output-format json\` works in a terminal`, {
      provider: 'claude-cli',
      exit_code: run.code,
      retryable: true,
    });
  }
  const u = result.usage ?? {};
  const inputTokens = (u.input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
  const outputTokens = u.output_tokens ?? 0;
  // the model that answered, when this version of claude reports it
  const answered = Object.keys(result.modelUsage ?? {})[0] ?? model ?? 'default';
  return {
    text: result.result ?? '',
    provider: 'claude-cli',
    model: answered,
    inputTokens,
    outputTokens,
    stop:
      result.stop_reason === 'max_tokens'
        ? 'max_tokens'
        : !result.stop_reason || result.stop_reason === 'end_turn' || result.stop_reason === 'stop_sequence'
          ? 'end'
          : 'other',
    durationMs,
    costUsd: typeof result.total_cost_usd === 'number' ? result.total_cost_usd : costOf('claude-cli', answered, inputTokens, outputTokens),
  };
}

/** The result object in `claude`'s stdout: the whole of it, or else its last line that is one. */
function parseResult(stdout: string): ClaudeResult | null {
  const candidates = [stdout.trim(), ...stdout.trim().split('\n').reverse()];
  for (const text of candidates) {
    if (!text.startsWith('{')) continue;
    try {
      const value = JSON.parse(text) as unknown;
      if (value && typeof value === 'object' && !Array.isArray(value) && ('result' in value || 'is_error' in value)) return value as ClaudeResult;
    } catch {
      // not this one
    }
  }
  return null;
}

function lastLines(text: string, n: number): string {
  return text.trimEnd().split('\n').slice(-n).join('\n');
}
