/**
 * Recall in the real Claude Code (issue 32), against a scripted model: a decision anchored to
 * src/db.ts reaches the model when a prompt is about its subject (UserPromptSubmit) and when the
 * agent edits src/db.ts (PreToolUse additionalContext) — once per session; an unrelated prompt
 * gets nothing. What is checked is what the scripted model received.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { decisionAdd } from '../../src/operations/decision/add.ts';
import { git } from '../helpers.ts';
import { cliJson, cliText } from '../store-fixture.ts';
import { anthropic, requestText } from './anthropic.ts';
import { type ClaudeRun, describeRun, runClaude, sessionStartContext } from './claude-code.ts';
import { codexHome, runCodex } from './codex.ts';
import { explain, runGemini } from './gemini.ts';
import { contentsText, geminiWire } from './gemini-wire.ts';
import { type ScriptedModel, type SeenRequest, startModel } from './model-server.ts';
import { openai } from './openai.ts';
import { axmeAsDevDependency, cleanupWorld, clientWorld } from './project.ts';

const TEST = { timeout: 600_000 };
const TITLE = 'Use connection pooling for Postgres';
const TEXT = 'Every query goes through the shared pg Pool in src/db.ts; never open a client per request.';

function ranOk(run: ClaudeRun, m: ScriptedModel): void {
  assert.equal(run.code, 0, describeRun(run));
  assert.equal(run.result?.is_error, false, describeRun(run));
  assert.equal(m.remaining(), 0, `the client stopped with ${m.remaining()} steps left\n${describeRun(run)}`);
}

const count = (text: string, s: string) => text.split(s).length - 1;

/**
 * A world for `client` with 16 decisions, then one anchored to src/db.ts, which the session start
 * does not list; returns the world and the decision's line as recall writes it.
 */
async function seeded(client: string) {
  const w = await clientWorld(client);
  // the store is seeded in-process (the operation `axme decision add` runs, printed as it prints):
  // what is under test is the client's hooks, not 17 spawns of the CLI
  const env = { HOME: w.home };
  mkdirSync(join(w.project, 'src'));
  writeFileSync(join(w.project, 'src', 'db.ts'), 'export const pool = null;\n');
  git(w.project, ['add', 'src/db.ts']);
  git(w.project, ['commit', '-q', '-m', 'db']);
  // the start's context lists what the branch and the last commits touch: push src/db.ts out of them
  for (let i = 0; i < 5; i++) git(w.project, ['commit', '-q', '--allow-empty', '-m', `later ${i}`]);
  // more decisions than the start's context lists by title (15): the anchored one is not among them
  for (let i = 0; i < 16; i++)
    await cliText(
      w.project,
      decisionAdd,
      { title: `Filler rule ${i} about the ${['billing', 'cdn', 'logging', 'flags'][i % 4]} module`, decision: `Keep module ${i} as it is.` },
      { env },
    );
  const added = await cliJson(w.project, decisionAdd, { title: TITLE, decision: TEXT, anchors: ['src/db.ts'] }, { env });
  const id: string = added.id ?? added.item?.id ?? added.decision?.id;
  assert.match(id, /^D-\d+$/);
  return { w, id, line: `decision ${id} ${TITLE}` };
}

const POOL_PROMPT = 'The postgres connection pool leaks clients under load. How should the pooling work?';
const HAIKU_PROMPT = 'Please write a haiku about autumn leaves.';

describe('recall in the real Claude Code', () => {
  async function world() {
    const m = await startModel(anthropic);
    return { m, ...(await seeded('claude-code')) };
  }

  // a world of its own: the next session's start would list the decision (the recovered handoff of the first names its subject)
  test('an unrelated prompt gets nothing; an edit of the anchored file gets the decision once', TEST, async () => {
    const { w, m, id, line } = await world();
    try {
      const before = m.turns.length;
      const db = join(w.project, 'src', 'db.ts');
      const b = await runClaude(w, m, HAIKU_PROMPT, {
        steps: [
          { tool: 'Read', args: { file_path: db } },
          { tool: 'Edit', args: { file_path: db, old_string: 'null', new_string: 'undefined' } },
          { tool: 'Edit', args: { file_path: db, old_string: 'undefined', new_string: '0' } },
          { text: 'Leaves fall.' },
        ],
      });
      ranOk(b, m);
      const turns = m.turns.slice(before).map(requestText);
      assert.equal(turns.length, 4);
      assert.equal(
        count(turns[0]!, line),
        0,
        `nothing injected for an unrelated prompt\n${turns[0]!.slice(Math.max(0, turns[0]!.indexOf(id) - 1500), turns[0]!.indexOf(id) + 500)}`,
      );
      assert.equal(count(turns[1]!, line), 0, 'a read carries nothing');
      assert.equal(count(turns[2]!, line), 1, `the first edit of src/db.ts carries the decision\n${turns[2]!.slice(-2000)}`);
      assert.equal(count(turns[3]!, line), 1, 'the second edit does not repeat it');
      assert.equal(readFileSync(db, 'utf8'), 'export const pool = 0;\n', 'both edits ran');
    } finally {
      await m.close();
      w.cleanup();
    }
  });

  // a world of its own: three runs of one session (the prompt, `/compact`, the next prompt); the
  // first run is also the check of a prompt about the subject
  test('a prompt about the subject, then a compaction of its session', TEST, async (t) => {
    const { w, m, id, line } = await world();
    try {
      const a = await runClaude(w, m, POOL_PROMPT, { steps: [{ text: 'Through the shared pool.' }] });
      ranOk(a, m);
      await t.test('a prompt about the subject gets the anchored decision', () => {
        const first = requestText(m.turns[0]!);
        assert.ok(!sessionStartContext(first).includes(id), 'the session start did not list it');
        assert.equal(count(first, line), 1, `the model received the decision once with the prompt\n${first.slice(-3000)}`);
      });
      // headless Claude Code runs `/compact` on a resumed session: PreCompact, the summary request, SessionStart "compact"
      const b = await runClaude(w, m, '/compact', {
        args: ['--resume', a.sessionId!],
        steps: [{ text: 'Summary: the user asked how the postgres pooling should work.' }],
      });
      ranOk(b, m);
      const c = await runClaude(w, m, 'Go on with that, please.', { args: ['--resume', a.sessionId!], steps: [{ text: 'Going on.' }] });
      ranOk(c, m);
      await t.test('a compaction: PreCompact writes the checkpoint, the context after it starts from it, the decision comes back once', () => {
        const after = requestText(m.turns.at(-1)!);
        assert.equal(count(after, '## Checkpoint: where this session stood'), 1, `the model starts from the checkpoint, once\n${after.slice(-4000)}`);
        assert.ok(after.includes('How should the pooling work?'), 'the checkpoint names the request');
        // each `claude -p --resume` is a process of its own, so a new axme session with its own start's
        // context: the decision may be listed by both starts; "once per context" is the hooks' test
        assert.ok(count(after, line) >= 1, `the decision is given again after the compaction\n${after.slice(-4000)}`);
      });
    } finally {
      await m.close();
      w.cleanup();
    }
  });
});

/** What a request handed the model, as one text (the request body as sent). */
const bodyText = (req: SeenRequest) => JSON.stringify(req.body);

describe('recall in the real Codex', () => {
  const patch = (body: string) => `*** Begin Patch\n${body}\n*** End Patch\n`;

  async function lab() {
    const { w, id, line } = await seeded('codex');
    const m = await startModel(openai);
    // Codex starts MCP servers with a short list of variables: axme is found as a devDependency
    axmeAsDevDependency(w);
    return { w, m, id, line, home: await codexHome(w, m) };
  }

  test('a prompt about the subject gets the anchored decision', TEST, async () => {
    const { w, m, line, home } = await lab();
    try {
      m.script([{ text: 'Through the shared pool.' }]);
      const a = await runCodex(w, home, POOL_PROMPT);
      assert.equal(a.code, 0, a.stderr);
      assert.equal(m.remaining(), 0, a.stderr);
      const first = bodyText(m.turns.at(-1)!);
      assert.equal(count(first, line), 1, `the model received the decision once with the prompt\n${first.slice(-3000)}`);
    } finally {
      await m.close();
      await cleanupWorld(w);
    }
  });

  // a world of its own: the next session's start would list the decision (the recovered handoff of the first names its subject)
  test('an unrelated prompt gets nothing; an apply_patch of the anchored file gets the decision once', TEST, async () => {
    const { w, m, id, line, home } = await lab();
    try {
      m.script([
        { tool: 'apply_patch', args: { input: patch('*** Update File: src/db.ts\n@@\n-export const pool = null;\n+export const pool = undefined;') } },
        { tool: 'apply_patch', args: { input: patch('*** Update File: src/db.ts\n@@\n-export const pool = undefined;\n+export const pool = 0;') } },
        { text: 'Leaves fall.' },
      ]);
      const b = await runCodex(w, home, HAIKU_PROMPT);
      assert.equal(b.code, 0, b.stderr);
      assert.equal(m.remaining(), 0, b.stderr);
      const turns = m.turns.map(bodyText);
      assert.equal(turns.length, 3);
      assert.ok(!turns[0]!.includes(`${id} ${TITLE}`), 'nothing for an unrelated prompt (and the start did not list it)');
      assert.equal(count(turns[1]!, line), 1, `the first patch of src/db.ts carries the decision\n${turns[1]!.slice(-3000)}`);
      assert.equal(count(turns[2]!, line), 1, 'the second does not repeat it');
      assert.equal(readFileSync(join(w.project, 'src', 'db.ts'), 'utf8'), 'export const pool = 0;\n', 'both patches ran');
    } finally {
      await m.close();
      await cleanupWorld(w);
    }
  });
});

describe('recall in the real Gemini CLI', () => {
  async function lab() {
    return { m: await startModel(geminiWire), ...(await seeded('gemini')) };
  }

  test('a prompt about the subject gets the anchored decision (BeforeAgent)', TEST, async () => {
    const { w, m, line } = await lab();
    try {
      m.script([{ text: 'Through the shared pool.' }]);
      const a = await runGemini(w, m, POOL_PROMPT);
      assert.equal(a.code, 0, explain(a));
      assert.equal(m.remaining(), 0, explain(a));
      const first = contentsText(m.turns.at(-1)!).join('\n');
      assert.equal(count(first, line), 1, `the model received the decision once with the prompt\n${first.slice(-3000)}`);
    } finally {
      await m.close();
      await cleanupWorld(w);
    }
  });

  // a world of its own (see Codex's); Gemini CLI's BeforeTool shows the model no context: no pre-edit recall there
  test('an unrelated prompt gets nothing', TEST, async () => {
    const { w, m, id } = await lab();
    try {
      m.script([{ text: 'Leaves fall.' }]);
      const b = await runGemini(w, m, HAIKU_PROMPT);
      assert.equal(b.code, 0, explain(b));
      assert.equal(m.remaining(), 0, explain(b));
      const text = contentsText(m.turns.at(-1)!).join('\n');
      assert.ok(
        !text.includes(`${id} ${TITLE}`),
        `nothing for an unrelated prompt\n${text.slice(Math.max(0, text.indexOf(id) - 2500), text.indexOf(id) + 300)}`,
      );
    } finally {
      await m.close();
      await cleanupWorld(w);
    }
  });
});
