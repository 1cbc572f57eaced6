/**
 * The auditor after a session of the real Codex CLI (0.169.0): Codex ends its session, axme's
 * session-end worker reads Codex's own transcript (its rollout) and asks a model — a scripted
 * Anthropic server here, the auditor's provider — with no tools; its decision and handoff land in
 * one commit, the next session's start keeps that handoff (no recovered one replaces it) and hands
 * it to the model. Claude Code's case is in claude-code.test.ts, Gemini CLI's in gemini.test.ts.
 *
 * Recall's checks in Codex (recall-seed.ts) ride on the same two sessions: the first prompt is
 * about the anchored decision's subject; the second is about nothing in the store, and the model
 * patches the anchored file twice.
 */
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { axmeInOk } from '../cli-in-process.ts';
import { git } from '../helpers.ts';
import { anthropicFormat, requestText } from './anthropic.ts';
import { AUDIT_EXTRACTION, auditDone, isAuditRequest } from './audit-wait.ts';
import { codexHome, patch, runCodex } from './codex.ts';
import { type SeenRequest, type Step, startModel } from './model-server.ts';
import { messages, openai } from './openai.ts';
import { axmeAsDevDependency, cleanupWorld, clientWorld, worldQuiet } from './project.ts';
import { count, HAIKU_PROMPT, POOL_PROMPT, RECALL_TITLE, seedRecall } from './recall-seed.ts';

const TEST = { timeout: 900_000 };
const MARKER = 'TRANSCRIPT-MARKER-cache-wired';

/** What a request handed the model, as one text (the request body as sent). */
const bodyText = (req: SeenRequest) => JSON.stringify(req.body);

describe('the auditor after a real codex session', () => {
  test("reads the client's transcript with no tools; its decision and handoff are kept and read next", TEST, async (t) => {
    const world = await clientWorld('codex');
    const model = await startModel(openai);
    const auditor = await startModel(anthropicFormat({ sideAnswer: (r) => (isAuditRequest(r) ? JSON.stringify(AUDIT_EXTRACTION) : null) }));
    try {
      const recall = await seedRecall(world);
      // Codex starts MCP servers with a short list of variables: axme is found as a devDependency
      axmeAsDevDependency(world);
      const home = await codexHome(world, model);
      // the user's own choice of auditor, on this machine: the variables the client passes to its hooks
      const env = { AXME_AUDITOR_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: auditor.url };
      /** One `codex exec` session with `steps`; returns the turns the model answered in it. */
      const session = async (prompt: string, steps: Step[]): Promise<SeenRequest[]> => {
        model.script(steps);
        const from = model.turns.length;
        const run = await runCodex(world, home, prompt, { env });
        assert.equal(run.code, 0, `codex exec failed\n${run.stderr}`);
        assert.equal(model.remaining(), 0, `the script was not played to its end\n${run.stderr}`);
        assert.ok(await worldQuiet(world), 'processes of the session were still running a minute after codex exec exited');
        return model.turns.slice(from);
      };
      const first = await session(POOL_PROMPT, [{ tool: 'exec_command', args: { cmd: `echo ${MARKER}` } }, { text: 'Through the shared pool.' }]);

      await t.test('recall: a prompt about the subject gets the anchored decision', () => {
        const text = bodyText(first[0]!);
        assert.equal(count(text, recall.line), 1, `the model received the decision once with the prompt\n${text.slice(-3000)}`);
      });

      const list: any[] = await axmeInOk(world.project, ['session', 'list', '--json'], { env: { HOME: world.home } });
      const mine = list.filter((s) => s.harness === 'codex');
      assert.equal(mine.length, 1, JSON.stringify(list));
      const id = mine[0].id as string;
      const log = await auditDone(world, id);
      const shown = await axmeInOk(world.project, ['session', 'show', id, '--json'], { env: { HOME: world.home } });
      const asked = auditor.requests.filter(isAuditRequest);

      await t.test("the audit read the client's transcript: the prompt, the shell call and its output", () => {
        assert.equal(log.ok, true, JSON.stringify(log));
        assert.ok(asked.length >= 1, `no audit request reached the model; log: ${JSON.stringify(log)}`);
        const user = asked.map((r) => requestText(r)).join('\n');
        assert.ok(user.includes(`<user>${POOL_PROMPT}</user>`), user.slice(0, 3000));
        assert.match(user, new RegExp(`<tool name="exec_command">[^<]*echo ${MARKER}`), user.slice(0, 3000));
        assert.match(user, new RegExp(`<tool_result name="exec_command">[^<]*${MARKER}`), user.slice(0, 3000));
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
        assert.match(msg, new RegExp(`^audit: session ${id} - 1 decision`), `the audit: ${JSON.stringify(log)}`);
        assert.match(msg, /Axme-Actor: auditor/);
        assert.match(git(world.project, ['show', 'refs/memory/main:decisions/cache-api-responses-in-valkey.md']), /source: auditor/);
        assert.match(handoff, /^source: auditor$/m);
        assert.match(handoff, /AUDITOR-HANDOFF/);
      });

      // the next session starts from the auditor's handoff, which does not name the anchored decision's subject
      const second = await session(HAIKU_PROMPT, [
        { tool: 'apply_patch', args: { input: patch('*** Update File: src/db.ts\n@@\n-export const pool = null;\n+export const pool = undefined;') } },
        { tool: 'apply_patch', args: { input: patch('*** Update File: src/db.ts\n@@\n-export const pool = undefined;\n+export const pool = 0;') } },
        { text: 'Leaves fall.' },
      ]);
      await t.test("the next session's start keeps the auditor's handoff and hands it to the model", () => {
        assert.equal(git(world.project, ['show', path]), handoff, 'not replaced by a recovered handoff');
        assert.match(messages(second[0]!, 'developer').join('\n'), /AUDITOR-HANDOFF: the cache is wired, metrics are next/);
      });

      await t.test('recall: an unrelated prompt gets nothing; an apply_patch of the anchored file gets the decision once', () => {
        const turns = second.map(bodyText);
        assert.equal(turns.length, 3);
        assert.ok(!turns[0]!.includes(`${recall.id} ${RECALL_TITLE}`), 'nothing for an unrelated prompt (and the start did not list it)');
        assert.equal(count(turns[1]!, recall.line), 1, `the first patch of src/db.ts carries the decision\n${turns[1]!.slice(-3000)}`);
        assert.equal(count(turns[2]!, recall.line), 1, 'the second does not repeat it');
        assert.equal(readFileSync(join(world.project, 'src', 'db.ts'), 'utf8'), 'export const pool = 0;\n', 'both patches ran');
      });
    } finally {
      await auditor.close();
      await model.close();
      await cleanupWorld(world);
    }
  });
});
