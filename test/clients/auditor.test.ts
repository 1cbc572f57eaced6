/**
 * The auditor after a session of the real Codex CLI (0.169.0) and the real Gemini CLI (0.61.0):
 * the client ends its session, axme's session-end worker reads that client's own transcript (a
 * Codex rollout, a Gemini chat file) and asks a model — a scripted Anthropic server here, the
 * auditor's provider — with no tools; its decision and handoff land in one commit, the next
 * session's start keeps that handoff (no recovered one replaces it) and hands it to the model.
 * Claude Code's case is in claude-code.test.ts.
 */
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { describe, test } from 'node:test';
import { axmeOk, git } from '../helpers.ts';
import { anthropicFormat, requestText, systemText } from './anthropic.ts';
import { AUDIT_EXTRACTION, auditDone, isAuditRequest } from './audit-wait.ts';
import { codexHome, runCodex } from './codex.ts';
import { runGemini } from './gemini.ts';
import { contentsText, geminiWire } from './gemini-wire.ts';
import { type ScriptedModel, type SeenRequest, type Step, startModel } from './model-server.ts';
import { messages, openai } from './openai.ts';
import { axmeAsDevDependency, type ClientWorld, cleanupWorld, clientWorld, worldQuiet } from './project.ts';

const TEST = { timeout: 900_000 };
const PROMPT = 'Wire the cache: we use Valkey, not Redis.';
const MARKER = 'TRANSCRIPT-MARKER-cache-wired';

/** One client's way of running a session in a world: the shell tool's name and call, and the session-start text of a turn. */
interface Client {
  name: 'codex' | 'gemini';
  /** the client's scripted model (its wire format) */
  start: () => Promise<ScriptedModel>;
  /** prepares the world (trust, install) once; returns a runner of one session */
  prepare: (w: ClientWorld, m: ScriptedModel) => Promise<(prompt: string, steps: Step[], env: NodeJS.ProcessEnv) => Promise<void>>;
  /** the shell call that prints the marker */
  shell: Step;
  /** the name the transcript gives the shell tool */
  shellName: string;
  /** what the model was handed at the start of a session (its first turn), as text */
  startText: (turn: SeenRequest) => string;
}

const CLIENTS: Client[] = [
  {
    name: 'codex',
    start: () => startModel(openai),
    prepare: async (w, m) => {
      axmeAsDevDependency(w);
      const home = await codexHome(w, m);
      return async (prompt, steps, env) => {
        m.script(steps);
        const run = await runCodex(w, home, prompt, { env });
        assert.equal(run.code, 0, `codex exec failed\n${run.stderr}`);
        assert.equal(m.remaining(), 0, `the script was not played to its end\n${run.stderr}`);
        assert.ok(await worldQuiet(w), 'processes of the session were still running a minute after codex exec exited');
      };
    },
    shell: { tool: 'exec_command', args: { cmd: `echo ${MARKER}` } },
    shellName: 'exec_command',
    startText: (turn) => messages(turn, 'developer').join('\n'),
  },
  {
    name: 'gemini',
    start: () => startModel(geminiWire),
    prepare: async (w, m) => async (prompt, steps, env) => {
      m.script(steps);
      const run = await runGemini(w, m, prompt, { env });
      assert.equal(run.code, 0, `gemini failed\n${run.stderr.slice(-4000)}`);
      assert.equal(m.remaining(), 0, `the script was not played to its end\n${run.stderr.slice(-4000)}`);
    },
    shell: { tool: 'run_shell_command', args: { command: `echo ${MARKER}` } },
    shellName: 'run_shell_command',
    startText: (turn) => contentsText(turn).join('\n'),
  },
];

for (const client of CLIENTS) {
  describe(`the auditor after a real ${client.name} session`, () => {
    test("reads the client's transcript with no tools; its decision and handoff are kept and read next", TEST, async (t) => {
      const world = await clientWorld(client.name);
      const model = await client.start();
      const auditor = await startModel(anthropicFormat({ sideAnswer: (r) => (isAuditRequest(r) ? JSON.stringify(AUDIT_EXTRACTION) : null) }));
      try {
        // the user's own choice of auditor, on this machine: the variables the client passes to its hooks
        const env = { AXME_AUDITOR_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: auditor.url };
        const session = await client.prepare(world, model);
        await session(PROMPT, [client.shell, { text: 'The cache is wired.' }], env);

        const list: any[] = await axmeOk(world.project, ['session', 'list', '--json'], { env: { HOME: world.home } });
        const mine = list.filter((s) => s.harness === client.name);
        assert.equal(mine.length, 1, JSON.stringify(list));
        const id = mine[0].id as string;
        const log = await auditDone(world, id);
        const shown = await axmeOk(world.project, ['session', 'show', id, '--json'], { env: { HOME: world.home } });
        const asked = auditor.requests.filter(isAuditRequest);

        await t.test("the audit read the client's transcript: the prompt, the shell call and its output", () => {
          assert.equal(log.ok, true, JSON.stringify(log));
          assert.ok(asked.length >= 1, `no audit request reached the model; log: ${JSON.stringify(log)}`);
          const user = asked.map((r) => requestText(r)).join('\n');
          assert.match(user, new RegExp(`<user>${PROMPT.replace(/\./g, '\\.')}</user>`), user.slice(0, 3000));
          assert.match(user, new RegExp(`<tool name="${client.shellName}">[^<]*echo ${MARKER}`), user.slice(0, 3000));
          assert.match(user, new RegExp(`<tool_result name="${client.shellName}">[^<]*${MARKER}`), user.slice(0, 3000));
          assert.equal(log.mode, 'full');
          assert.ok(log.chunks >= 1 && asked.length >= log.chunks, `${asked.length} requests for ${log.chunks} chunks`);
          assert.equal(log.to_offset, statSync(shown.transcript).size, 'the whole transcript was read');
        });

        await t.test('the auditor was offered no tools', () => {
          for (const r of asked) assert.deepEqual((r.body as { tools?: unknown[] }).tools ?? [], []);
        });

        const path = `refs/memory/main:handoffs/${id}.md`;
        const handoff = git(world.project, ['show', path]);
        await t.test('one commit by the auditor: the decision and the handoff', () => {
          const msg = git(world.project, ['log', '--format=%B', `--grep=^audit: session ${id}`, 'refs/memory/main']);
          assert.match(msg, new RegExp(`^audit: session ${id} - 1 decision`));
          assert.match(msg, /Axme-Actor: auditor/);
          assert.match(git(world.project, ['show', 'refs/memory/main:decisions/cache-api-responses-in-valkey.md']), /source: auditor/);
          assert.match(handoff, /^source: auditor$/m);
          assert.match(handoff, /AUDITOR-HANDOFF/);
        });

        const from = model.turns.length;
        await session('Go on.', [{ text: 'Going on.' }], env);
        await t.test("the next session's start keeps the auditor's handoff and hands it to the model", () => {
          assert.equal(git(world.project, ['show', path]), handoff, 'not replaced by a recovered handoff');
          assert.match(client.startText(model.turns[from]!), /AUDITOR-HANDOFF: the cache is wired, metrics are next/);
        });
      } finally {
        await auditor.close();
        await model.close();
        await cleanupWorld(world);
      }
    });
  });
}
