import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ScriptedModel } from './model-server.ts';
import { BIN, type ClientWorld, jsonLines, runClient, worldQuiet } from './project.ts';

/**
 * Runs the real Gemini CLI (0.61.0, the devDependency) headless in a client world, against the
 * scripted model: `gemini -p <prompt> --yolo --output-format stream-json` in the project, with
 * `GOOGLE_GEMINI_BASE_URL` pointing at the model and an API key that is never checked.
 */

/** One line of Gemini CLI's `stream-json` output (`init`, `message`, `tool_use`, `tool_result`, `error`, `result`). */
export interface GeminiEvent {
  type: string;
  [k: string]: unknown;
}

export interface GeminiRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** the stdout lines that parsed as JSON events, in order */
  events: GeminiEvent[];
}

/** The user settings Gemini CLI needs to run headless: an API key sign-in, no usage statistics sent anywhere. */
export function geminiHome(home: string, extra: Record<string, unknown> = {}): void {
  mkdirSync(join(home, '.gemini'), { recursive: true });
  const settings = {
    security: { auth: { selectedType: 'gemini-api-key' } },
    privacy: { usageStatisticsEnabled: false },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    ...extra,
  };
  writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify(settings, null, 2) + '\n');
}

/** The environment Gemini CLI runs in: the world's HOME, the scripted model, a trusted workspace. */
export function geminiEnv(world: ClientWorld, model: ScriptedModel, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    HOME: world.home,
    GOOGLE_GEMINI_BASE_URL: model.url,
    GEMINI_API_KEY: 'dummy',
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
    // the session in the process started: Gemini CLI's launcher otherwise starts a second Node with
    // heap flags and this variable set (about 1.2 CPU s), and that child runs the session, its hooks
    // and its MCP servers, with this environment
    GEMINI_CLI_NO_RELAUNCH: 'true',
    // no proxy between the client and 127.0.0.1
    NO_PROXY: '127.0.0.1,localhost',
    no_proxy: '127.0.0.1,localhost',
    // a terminal the client does not try to draw in
    TERM: 'dumb',
    NO_COLOR: '1',
    ...extra,
  };
}

/** Parses the `stream-json` lines of stdout (anything else — a warning line — is skipped). */
export function parseEvents(stdout: string): GeminiEvent[] {
  return jsonLines<GeminiEvent>(stdout).filter((e) => e && typeof e.type === 'string');
}

/** Runs one headless Gemini CLI session with `prompt` in the world's project. */
export async function runGemini(
  world: ClientWorld,
  model: ScriptedModel,
  prompt: string,
  opts: { env?: NodeJS.ProcessEnv; timeoutMs?: number; args?: string[]; settings?: Record<string, unknown> } = {},
): Promise<GeminiRun> {
  geminiHome(world.home, opts.settings);
  const args = ['-p', prompt, '--yolo', '--output-format', 'stream-json', ...(opts.args ?? [])];
  const run = await runClient(BIN.gemini, args, { cwd: world.project, env: geminiEnv(world, model, opts.env), timeoutMs: opts.timeoutMs ?? 180_000 });
  // the session is over when its MCP server has stopped too (it records its end as it goes)
  if (!(await worldQuiet(world, 60_000))) run.stderr += '\n[test] processes of the world still running 60 s after the client exited\n';
  return { ...run, events: parseEvents(run.stdout) };
}

/** What a failed run printed, for an assertion's message. */
export function explain(run: GeminiRun): string {
  return `exit ${run.code}\n--- stdout\n${run.stdout.slice(-4000)}\n--- stderr\n${run.stderr.slice(-4000)}`;
}

/** Gemini CLI's recorded chats under the fake HOME (`~/.gemini/tmp/<project>/chats/session-*.jsonl`), oldest first. */
export function geminiTranscripts(home: string): string[] {
  const root = join(home, '.gemini', 'tmp');
  const out: string[] = [];
  const walk = (dir: string, depth: number): void => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const n of names) {
      const p = join(dir, n);
      const st = statSync(p, { throwIfNoEntry: false });
      if (!st) continue;
      if (st.isDirectory() && depth < 4) walk(p, depth + 1);
      else if (st.isFile() && /^session-.*\.jsonl?$/.test(n) && dir.endsWith('chats')) out.push(p);
    }
  };
  walk(root, 0);
  return out.sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs);
}

/** The lines of a JSONL transcript, parsed. */
export function readJsonl(path: string): Record<string, unknown>[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** A transcript with the world's temporary paths replaced by stable ones (`/work/project`, `/home/user`), for a fixture. */
export function stableTranscript(text: string, world: ClientWorld): string {
  return text.split(world.project).join('/work/project').split(world.home).join('/home/user').split(world.root).join('/work');
}
