import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { requestText } from './anthropic.ts';
import type { ScriptedModel, SeenRequest, Step } from './model-server.ts';
import { BIN, type ClientRun, type ClientWorld, jsonLines, runClient, type StdinFeed } from './project.ts';

/**
 * Runs the real Claude Code (the pinned devDependency) headless in a client world, against the
 * scripted model: `claude -p <prompt> --output-format stream-json --verbose
 * --dangerously-skip-permissions`, its HOME the world's (whose settings approve the project's
 * `.mcp.json`), its API the scripted model's URL.
 */

/** One line of Claude Code's stream-json output (system/init, hook_started, assistant, user, result, …). */
export type StreamEvent = { type: string; subtype?: string; [key: string]: unknown };

export interface ClaudeRun extends ClientRun {
  /** the parsed stream-json lines, in order */
  events: StreamEvent[];
  /** Claude Code's session id (from its init line), or null when it never started */
  sessionId: string | null;
  /** the final `result` event, or null */
  result: StreamEvent | null;
  /** every `result` event: one a prompt */
  results: StreamEvent[];
}

export interface ClaudeOptions {
  /** the session's script: set on the model before the client starts */
  steps?: Step[];
  /** more environment for the client (and so for its hooks, MCP server and commands) */
  env?: NodeJS.ProcessEnv;
  /** killed after this long (default 180 s) */
  timeoutMs?: number;
  /** more arguments (`--resume <session>`) */
  args?: string[];
  /**
   * further prompts of the same process (`--input-format stream-json`), each sent once the one
   * before has its result, as a user goes on typing in one session
   */
  then?: string[];
  /** called just before prompt `i` of `then` (1-based in the session's prompts) is sent: what happens meanwhile (a sync) */
  between?: (i: number) => void;
}

/** The user settings of the world's HOME: project MCP servers approved, nothing else. */
export function claudeHome(home: string): void {
  const dir = join(home, '.claude');
  mkdirSync(dir, { recursive: true });
  const settings = join(dir, 'settings.json');
  if (!existsSync(settings)) writeFileSync(settings, JSON.stringify({ enableAllProjectMcpServers: true }, null, 2) + '\n');
}

/** The environment that points Claude Code at the scripted model and keeps it offline. */
export function claudeEnv(world: ClientWorld, model: ScriptedModel, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    HOME: world.home,
    ANTHROPIC_BASE_URL: model.url,
    ANTHROPIC_API_KEY: 'dummy',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    // we run as root: Claude Code refuses --dangerously-skip-permissions as root outside a sandbox
    IS_SANDBOX: '1',
    ...extra,
  };
}

/** Parses stream-json output: one JSON object a line; other lines are skipped. */
export function parseStream(stdout: string): StreamEvent[] {
  return jsonLines<StreamEvent>(stdout);
}

/** Runs one headless Claude Code session to its end. */
export async function runClaude(world: ClientWorld, model: ScriptedModel, prompt: string, opts: ClaudeOptions = {}): Promise<ClaudeRun> {
  claudeHome(world.home);
  if (opts.steps) model.script(opts.steps);
  const prompts = [prompt, ...(opts.then ?? [])];
  const args = [
    '-p',
    ...(opts.then ? ['--input-format', 'stream-json'] : [prompt]),
    '--output-format',
    'stream-json',
    '--verbose',
    '--dangerously-skip-permissions',
    ...(opts.args ?? []),
  ];
  let sent = 0;
  /** The next prompt as a stream-json user message, once every prompt sent has its result. */
  const feed: StdinFeed = (stdout) => {
    if (sent === prompts.length || parseStream(stdout).filter((e) => e.type === 'result').length < sent) return null;
    if (sent > 0) opts.between?.(sent);
    const text = prompts[sent++]!;
    return { write: `${JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'text', text }] } })}\n`, end: sent === prompts.length };
  };
  const run = await runClient(BIN.claude, args, {
    cwd: world.project,
    env: claudeEnv(world, model, opts.env),
    timeoutMs: opts.timeoutMs ?? 180_000,
    feed: opts.then ? feed : undefined,
  });
  const events = parseStream(run.stdout);
  const init = events.find((e) => e.type === 'system' && e.subtype === 'init');
  const results = events.filter((e) => e.type === 'result');
  return { ...run, events, sessionId: typeof init?.session_id === 'string' ? init.session_id : null, result: results.at(-1) ?? null, results };
}

/**
 * The session-start context as Claude Code hands it to the model: the text after "SessionStart
 * hook additional context: " (in the first request's system message), up to Claude Code's own
 * "# Environment" section; '' when there is none.
 */
export function sessionStartContext(requestText: string): string {
  const mark = 'SessionStart hook additional context: ';
  const at = requestText.indexOf(mark);
  if (at < 0) return '';
  const rest = requestText.slice(at + mark.length);
  const end = rest.indexOf('\n# Environment\n');
  return end < 0 ? rest : rest.slice(0, end);
}

/**
 * How each hook of the run ended, as Claude Code reports it in its stream (`hook_response`: the
 * hook's name, outcome, exit code and the end of its stderr), so a missing context says whether
 * the hook failed, timed out or answered.
 */
export function hookOutcomes(run: ClaudeRun): string {
  const answers = run.events.filter((e) => e.type === 'system' && e.subtype === 'hook_response');
  if (answers.length === 0) return '(none reported)';
  return answers.map((e) => `${e.hook_name} ${e.outcome} exit ${e.exit_code}${e.stderr ? ` stderr: ${String(e.stderr).slice(-300)}` : ''}`).join('; ');
}

/** What a run printed, for a failed assertion's message. */
export function describeRun(run: ClaudeRun): string {
  return `exit ${run.code}\nstderr: ${run.stderr.slice(-2000)}\nhooks: ${hookOutcomes(run)}\nlast events: ${run.events
    .slice(-3)
    .map((e) => JSON.stringify(e).slice(0, 600))
    .join('\n')}`;
}

/**
 * The conversation turns a session sent, for a failed assertion's message: how many, and for each
 * whether it carries a session-start context and how its text ends (which prompt it answers).
 */
export function describeTurns(turns: SeenRequest[]): string {
  return `${turns.length} turn(s): ${turns
    .map(
      (t, i) => `#${i} ${sessionStartContext(requestText(t)) ? 'with' : 'without'} session-start context, ends ${JSON.stringify(requestText(t).slice(-160))}`,
    )
    .join('; ')}`;
}
