import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cleanEnv } from '../helpers.ts';
import { type ScriptedModel, startModel } from './model-server.ts';
import { openai } from './openai.ts';
import { axmeAsDevDependency, BIN, type ClientRun, type ClientWorld, cleanupWorld, clientWorld, jsonLines, runClient } from './project.ts';

/**
 * Runs the real Codex CLI (`codex exec --json`) in a client world against the scripted model:
 * a CODEX_HOME of the test's own whose config.toml names the scripted model as the provider,
 * never asks for approval, runs commands outside the sandbox, trusts the project, and trusts
 * the project's hooks (`.codex/hooks.json`) one by one the way `/hooks` in Codex does — by the
 * key and hash Codex itself reports (`codex app-server`, `hooks/list`).
 */

export interface CodexHome {
  dir: string;
  /** the hooks Codex lists for the project after trusting them: key (`<file>:<event>:<group>:<handler>`) → trust status */
  hooks: Record<string, string>;
}

export interface CodexRun extends ClientRun {
  /** the `codex exec --json` events (one JSON object a line on stdout) */
  events: Array<Record<string, any>>;
}

/** The environment Codex runs under in a world (cleanEnv is added by runClient). */
export function codexEnv(world: ClientWorld, home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { HOME: world.home, CODEX_HOME: home, FAKE_API_KEY: 'dummy', NO_COLOR: '1', ...extra };
}

interface HookListEntry {
  key: string;
  eventName: string;
  currentHash: string;
  trustStatus: string;
}

/**
 * Asks `codex app-server` (JSON-RPC over stdio, one message a line) for the hooks of `cwd`:
 * `initialize`, `initialized`, then `hooks/list`; the server is ended when the answer arrives.
 */
export function listHooks(home: string, cwd: string, env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<HookListEntry[]> {
  return new Promise((done, fail) => {
    const child = spawn(BIN.codex, ['app-server'], { cwd, env: cleanEnv({ ...env, CODEX_HOME: home }), stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    let buf = '';
    let stderr = '';
    let answer: HookListEntry[] | null = null;
    const timer = setTimeout(() => {
      stderr += `\n[test] codex app-server killed after ${timeoutMs} ms`;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, timeoutMs);
    const send = (m: unknown) => child.stdin.write(JSON.stringify(m) + '\n');
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      buf += d;
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        let msg: any;
        try {
          msg = JSON.parse(line);
        } catch {
          continue;
        }
        if (msg.id === 1) {
          send({ jsonrpc: '2.0', method: 'initialized' });
          send({ jsonrpc: '2.0', id: 2, method: 'hooks/list', params: { cwds: [cwd] } });
        } else if (msg.id === 2) {
          answer = ((msg.result?.data ?? []) as Array<{ hooks: HookListEntry[] }>).flatMap((d) => d.hooks);
          // stdin closed: the server ends itself
          child.stdin.end();
        }
      }
    });
    child.stdin.on('error', () => {});
    child.on('error', (e) => {
      clearTimeout(timer);
      fail(e);
    });
    child.on('close', () => {
      clearTimeout(timer);
      if (answer) done(answer);
      else fail(new Error(`codex app-server gave no hooks/list answer\n${stderr}`));
    });
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { clientInfo: { name: 'axme-test', version: '0' } } });
  });
}

const tomlString = (s: string) => JSON.stringify(s);

/** A model Codex 0.169.0 knows (its bundled catalogue), so it offers that model's real tools. */
/** An `apply_patch` patch (Codex's own format) of `body`. */
export const patch = (body: string) => `*** Begin Patch\n${body}\n*** End Patch\n`;

export const CODEX_MODEL = 'gpt-5.5';

/**
 * Makes a CODEX_HOME for `world` talking to `model`; the project and (unless `trustHooks` is
 * false) each of its hooks are trusted. Lives in the world's root (removed with it).
 */
export async function codexHome(world: ClientWorld, model: ScriptedModel, opts: { trustHooks?: boolean; model?: string } = {}): Promise<CodexHome> {
  const dir = join(world.root, 'codex-home');
  mkdirSync(dir, { recursive: true });
  const toml = [
    `model = ${tomlString(opts.model ?? CODEX_MODEL)}`,
    'model_provider = "fake"',
    'approval_policy = "never"',
    'sandbox_mode = "danger-full-access"',
    // nothing reaches the network but the scripted model: no update check, no analytics, no plugin sync
    'check_for_update_on_startup = false',
    '',
    '[analytics]',
    'enabled = false',
    '',
    '[features]',
    'plugins = false',
    '',
    '[model_providers.fake]',
    'name = "fake"',
    `base_url = ${tomlString(`${model.url}/v1`)}`,
    'wire_api = "responses"',
    'env_key = "FAKE_API_KEY"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '',
    // merged into the project's [mcp_servers.axme]: the scripted model searches for axme's tools at
    // once, and Codex lists a server's tools for tool_search only once it is up — a required server
    // is waited for before the first turn (without it, a search under load finds nothing)
    '[mcp_servers.axme]',
    'required = true',
    'startup_timeout_sec = 120',
    '',
    `[projects.${tomlString(world.project)}]`,
    'trust_level = "trusted"',
    '',
  ].join('\n');
  writeFileSync(join(dir, 'config.toml'), toml);
  const env = codexEnv(world, dir);
  let listed = await listHooks(dir, world.project, env);
  if (opts.trustHooks !== false) {
    const state = listed
      .filter((h) => h.trustStatus !== 'trusted' && h.trustStatus !== 'managed')
      .map((h) => `\n[hooks.state.${tomlString(h.key)}]\ntrusted_hash = ${tomlString(h.currentHash)}\n`)
      .join('');
    appendFileSync(join(dir, 'config.toml'), state);
    listed = await listHooks(dir, world.project, env);
  }
  return { dir, hooks: Object.fromEntries(listed.map((h) => [h.key, h.trustStatus])) };
}

/** Runs `codex exec --json <prompt>` in the project (stdin /dev/null); the events are parsed from stdout. */
export async function runCodex(
  world: ClientWorld,
  home: CodexHome,
  prompt: string,
  opts: { env?: NodeJS.ProcessEnv; args?: string[]; timeoutMs?: number } = {},
): Promise<CodexRun> {
  const run = await runClient(BIN.codex, ['exec', '--json', ...(opts.args ?? []), prompt], {
    cwd: world.project,
    env: codexEnv(world, home.dir, opts.env),
    timeoutMs: opts.timeoutMs ?? 180_000,
  });
  const events = jsonLines<Record<string, any>>(run.stdout);
  return { ...run, events };
}

/** The lines of a rollout, parsed. */
export function readRollout(path: string): Array<Record<string, any>> {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

/** Writes a rollout's lines into the fixture at `path`, with each `[from, to]` of `replace` (this machine's paths) replaced. */
export function writeRolloutFixture(path: string, lines: Array<Record<string, any>>, replace: Array<[string, string]>): void {
  let text = lines.map((x) => JSON.stringify(x)).join('\n') + '\n';
  for (const [from, to] of replace) text = text.split(from).join(to);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** A Codex world: the world, its scripted model (the OpenAI wire), and a CODEX_HOME that trusts the project and each of its hooks. */
export interface CodexLab {
  world: ClientWorld;
  model: ScriptedModel;
  home: CodexHome;
}

/** Makes a CodexLab, axme a devDependency of the project; checks that Codex reports each of the project's hooks trusted. */
export async function codexLab(): Promise<CodexLab> {
  const world = await clientWorld('codex');
  const model = await startModel(openai);
  try {
    // Codex starts MCP servers with a short list of variables (not AXME_BIN): axme is found as a devDependency
    axmeAsDevDependency(world);
    const home = await codexHome(world, model);
    // trusted one by one, by the key and hash Codex reports: a hook Codex does not trust never runs
    const project = Object.entries(home.hooks).filter(([key]) => key.startsWith(join(world.project, '.codex/hooks.json:')));
    assert.ok(project.length >= 3 && project.every(([, trust]) => trust === 'trusted'), JSON.stringify(home.hooks));
    return { world, model, home };
  } catch (err) {
    await model.close();
    await cleanupWorld(world);
    throw err;
  }
}

/** Stops a CodexLab's model and removes its world once nothing runs in it. */
export async function closeCodexLab(l: CodexLab | undefined): Promise<void> {
  if (!l) return;
  await l.model.close();
  await cleanupWorld(l.world);
}
