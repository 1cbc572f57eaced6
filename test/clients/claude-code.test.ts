/**
 * The real Claude Code (2.1.332) against a scripted model: each test runs `claude -p` sessions in
 * a project where axme is installed as a user would (`axme init --agent claude-code`) and checks
 * outcomes — what the model was handed (the session-start context, tool results, denials), what
 * changed on disk, in the remote and in refs/memory/main, what the session record and the next
 * session hold.
 *
 * Recall's checks in Claude Code (recall-seed.ts) ride on these sessions: the first session's
 * prompt is about nothing in the store and its model reads then edits the anchored file twice; the
 * session after the auditor's asks about the anchored decision's subject and is then compacted.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { OPERATIONS } from '../../src/operations/index.ts';
import { axmeInOk } from '../cli-in-process.ts';
import { git } from '../helpers.ts';
import { anthropic, anthropicFormat, requestText, resultOfStep, systemText } from './anthropic.ts';
import { AUDIT_EXTRACTION, auditDone, isAuditRequest } from './audit-wait.ts';
import { type ClaudeRun, describeRun, describeTurns, runClaude, sessionStartContext } from './claude-code.ts';
import { type ScriptedModel, type SeenRequest, type Step, startModel, type WireFormat } from './model-server.ts';
import { type ClientWorld, cleanupWorld, clientWorld, inClientWorld } from './project.ts';
import { count, POOL_PROMPT, seedRecall } from './recall-seed.ts';
import { assertFramedAsData, assertNamedAsAnothers, teammateHandoff } from './trust-boundary.ts';

const TEST = { timeout: 600_000 };
const REPO = 'repo=acme/demo';
/** A required decision the context must carry. */
const ADD_REQUIRED = [
  'decision',
  'add',
  '--title',
  'Deploy only through the release pipeline',
  '--decision',
  'Nobody deploys by hand.',
  '--enforce',
  'required',
];

/** Runs `fn` with a fresh world and scripted model; both are removed afterwards (the world once its processes have ended). */
const inWorld = (fn: (w: ClientWorld, m: ScriptedModel) => Promise<void>, format: WireFormat = anthropic) => inClientWorld('claude-code', format, fn);

/** `axme …` in the project, as the user (the world's HOME), in this process; `--json` output parsed. */
const cli = (w: ClientWorld, args: string[], input?: string, env: NodeJS.ProcessEnv = {}) =>
  axmeInOk(w.project, args, { env: { HOME: w.home, ...env }, input });

/** Fails with what the client printed unless the run ended well. */
function ranOk(run: ClaudeRun, m: ScriptedModel): void {
  assert.equal(run.code, 0, describeRun(run));
  assert.equal(run.result?.is_error, false, describeRun(run));
  for (const r of run.results) assert.equal(r.is_error, false, describeRun(run));
  assert.equal(m.remaining(), 0, `the client stopped with ${m.remaining()} steps left\n${describeRun(run)}`);
}

/** The axme session the run's Claude Code session maps to. */
async function axmeSession(w: ClientWorld, run: ClaudeRun): Promise<any> {
  const list: any[] = await cli(w, ['session', 'list', '--json']);
  const s = list.find((x) => x.harness_session === run.sessionId);
  assert.ok(s, `no axme session for Claude Code session ${run.sessionId}: ${JSON.stringify(list)}`);
  return s;
}

describe('the real Claude Code', () => {
  // one session carries the checks that need a fresh world and a single session: its script does
  // the steps of each in turn (STEP names them), and each check reads its own steps' results; it
  // ends without a close, so the next session starts from its recovered handoff, closes itself, and
  // the one after starts from that handoff
  test(
    "three sessions: the session-start context, the MCP tools, the guard, the git hooks; session end and record, the handoffs (recovered, then the agent's)",
    TEST,
    (t) =>
      inWorld(async (w, m) => {
        await cli(w, ADD_REQUIRED);
        const recall = await seedRecall(w);
        const db = join(w.project, 'src', 'db.ts');
        const handoff = {
          summary: 'Release notes drafted.',
          stopped_at: 'Stopped at the release notes for 1.2',
          next_steps: 'Publish the notes through the pipeline.',
          worklog_entry: 'Drafted the notes.',
        };
        await cli(w, ['session', 'finalize'], JSON.stringify(handoff), { AXME_SESSION: 'earlier-session' });
        const key = 'CANARY-SSH-KEY-d41d8cd98f00';
        const envSecret = 'CANARY-ENV-VALUE-9e107d9d372b';
        mkdirSync(join(w.home, '.ssh'), { recursive: true });
        writeFileSync(join(w.home, '.ssh', 'id_rsa'), `${key}\n`);
        writeFileSync(join(w.project, '.env'), `SERVICE_URL=${envSecret}\n`);
        const settings = join(w.project, '.claude', 'settings.json');
        const settingsBefore = readFileSync(settings, 'utf8');
        const rulesBefore = await cli(w, ['safety', 'show', '--json']);
        const tipBefore = git(w.project, ['rev-parse', 'refs/memory/main']).trim();
        const head = git(w.project, ['rev-parse', 'HEAD']).trim();
        const STEP = { context: 3, saved: 4, found: 5, push: 6, ssh: 7, env: 8, write: 9, rule: 10, scriptCommit: 13, markedCommit: 14 } as const;
        const steps: Step[] = [
          // recall: a read of the anchored file, then two edits of it
          { tool: 'Read', args: { file_path: db } },
          { tool: 'Edit', args: { file_path: db, old_string: 'null', new_string: 'undefined' } },
          { tool: 'Edit', args: { file_path: db, old_string: 'undefined', new_string: '0' } },
          { tool: 'mcp__axme__axme_context', args: {} },
          {
            tool: 'mcp__axme__axme_save_decision',
            args: { title: 'Log as JSON lines', decision: 'Every service logs one JSON object a line.', reasoning: 'The collector parses JSON lines.' },
          },
          { tool: 'mcp__axme__axme_search_kb', args: { query: 'JSON lines logging' } },
          { tool: 'Bash', args: { command: 'git push origin main', description: 'Push main' } },
          { tool: 'Bash', args: { command: 'cat ~/.ssh/id_rsa', description: 'Show the key' } },
          { tool: 'Read', args: { file_path: join(w.project, '.env') } },
          { tool: 'Write', args: { file_path: settings, content: '{}\n' } },
          { tool: 'mcp__axme__axme_update_safety', args: { rule_type: 'bash_deny', value: 'npm publish', action: 'remove' } },
          { tool: 'Bash', args: { command: 'echo "More about the demo." >> README.md', description: 'Edit the README' } },
          { tool: 'Write', args: { file_path: join(w.project, 'commit.sh'), content: '#!/bin/sh\ngit commit -am "Update the README without a marker"\n' } },
          { tool: 'Bash', args: { command: 'sh commit.sh', description: 'Commit through a script' } },
          // the shape Claude Code's own instructions give its model for a commit: the message from a heredoc, the marker its last line
          {
            tool: 'Bash',
            args: {
              command: `git commit -am "$(cat <<'EOF'\nUpdate the README\n\nMore about the demo.\n\n#!axme pr=none ${REPO}\nEOF\n)"`,
              description: 'Commit',
            },
          },
          { text: 'Done.' },
        ];
        const run = await runClaude(w, m, 'What must I know before I start? Then record that logs are JSON lines, try a few things, and commit the README.', {
          steps,
        });
        ranOk(run, m);
        const session = await axmeSession(w, run);
        const result = (i: number) => resultOfStep(m.turns, i);
        const everything = m.requests.map((r) => r.raw).join('\n');

        await t.test('the model starts with the session-start context: safety rules and a required decision added before', () => {
          assert.equal(m.turns.length, steps.length, 'one turn a step');
          const first = requestText(m.turns[0]!);
          const context = sessionStartContext(first);
          assert.notEqual(context, '', `no session-start context reached the model\n${describeRun(run)}`);
          assert.match(context, /^# Project knowledge \(axme, refs\/memory\/main @ [0-9a-f]{12}\)/);
          assertFramedAsData(context);
          assert.match(context, /^- Protected branches: main, master/m);
          assert.match(context, /Deploy only through the release pipeline/);
          assert.match(context, new RegExp(`\\(axme session ${session.id}\\)`));
          assert.ok(first.includes('What must I know before I start?'), 'the prompt');
        });

        await t.test('recall: an unrelated prompt gets nothing; a read carries nothing; an edit of the anchored file gets the decision once', () => {
          const turns = m.turns.slice(0, 4).map(requestText);
          const { id, line } = recall;
          assert.equal(
            count(turns[0]!, line),
            0,
            `nothing injected for an unrelated prompt\n${turns[0]!.slice(Math.max(0, turns[0]!.indexOf(id) - 1500), turns[0]!.indexOf(id) + 500)}`,
          );
          assert.equal(count(turns[1]!, line), 0, 'a read carries nothing');
          assert.equal(count(turns[2]!, line), 1, `the first edit of src/db.ts carries the decision\n${turns[2]!.slice(-2000)}`);
          assert.equal(count(turns[3]!, line), 1, 'the second edit does not repeat it');
          assert.equal(readFileSync(db, 'utf8'), 'export const pool = 0;\n', 'both edits ran');
        });

        await t.test("MCP: the session's own tools reach the model whole, up front; every other axme tool is named for its ToolSearch", () => {
          type Body = { tools?: Array<{ name?: string; input_schema?: Record<string, any> }> };
          const offered = new Map(((m.turns[0]!.body as Body).tools ?? []).map((x) => [x.name, x]));
          const upFront = OPERATIONS.flatMap((op) => (op.mcp?.upFront ? [`mcp__axme__${op.mcp.tool}`] : []));
          const deferred = OPERATIONS.flatMap((op) => (op.mcp && !op.mcp.upFront ? [`mcp__axme__${op.mcp.tool}`] : []));
          assert.ok(upFront.includes('mcp__axme__axme_finalize_close') && deferred.length > 0);
          assert.deepEqual(
            upFront.filter((name) => !offered.get(name)?.input_schema),
            [],
            `loaded up front: ${[...offered.keys()].join(', ')}`,
          );
          // a nested object's "no other field" reaches the model as axme declared it
          const close = offered.get('mcp__axme__axme_finalize_close')!.input_schema;
          assert.equal(close?.properties?.decisions?.items?.additionalProperties, false, JSON.stringify(close?.properties?.decisions));
          const text = requestText(m.turns[0]!);
          assert.deepEqual(
            deferred.filter((name) => offered.has(name) || !text.includes(`\n${name}\n`)),
            [],
            'the other tools are deferred, each named in the list the model searches',
          );
        });

        await t.test('MCP axme_context: the handoff, the rules and the required decisions, as text', () => {
          const context = result(STEP.context);
          assert.equal(context.isError, false, context.text);
          assert.match(context.text, /Stopped at the release notes for 1\.2/, context.text);
          assert.match(context.text, /Protected branches: main, master/);
          assert.match(context.text, /Deploy only through the release pipeline/);
        });
        await t.test('MCP axme_save_decision: "Decision saved: <id> …", and the decision is in the store', () => {
          const saved = result(STEP.saved);
          assert.equal(saved.isError, false, saved.text);
          assert.ok(saved.text.includes(`Decision saved: ${recall.nextId} - Log as JSON lines`), saved.text);
          const msg = git(w.project, ['log', '-1', '--format=%B', 'refs/memory/main']);
          assert.ok(msg.includes(`${recall.nextId} Log as JSON lines`), msg);
          assert.match(msg, new RegExp(`Axme-Session: ${session.id}`));
        });
        await t.test("MCP axme_search_kb: the found item's id and title", () => {
          const found = result(STEP.found);
          assert.equal(found.isError, false, found.text);
          assert.ok(found.text.includes(`${recall.nextId} Log as JSON lines`), found.text);
        });

        await t.test('the guard, git push origin main: denied (protected branch), the remote stays empty', () => {
          const push = result(STEP.push);
          assert.equal(push.isError, true, push.text);
          assert.match(push.text, /axme safety: pushing to the protected branch main is not allowed/);
          assert.equal(git(w.remote, ['for-each-ref']).trim(), '', 'the remote has no refs');
        });
        await t.test('the guard, cat ~/.ssh/id_rsa: denied, the key never reaches the model', () => {
          const ssh = result(STEP.ssh);
          assert.equal(ssh.isError, true, ssh.text);
          assert.match(ssh.text, /\.ssh\/id_rsa holds credentials \(~\/\.ssh\/\*\)/);
          assert.ok(!everything.includes(key), 'the key is in a request');
        });
        await t.test('the guard, Read .env: denied, its content never reaches the model', () => {
          const env = result(STEP.env);
          assert.equal(env.isError, true, env.text);
          assert.match(env.text, /\.env holds credentials \(\.env\); agents never read it/);
          assert.ok(!everything.includes(envSecret), 'the .env value is in a request');
        });
        await t.test('the guard, Write .claude/settings.json: denied, the file is unchanged', () => {
          const write = result(STEP.write);
          assert.equal(write.isError, true, write.text);
          assert.match(write.text, /settings\.json is axme's own state/);
          assert.equal(readFileSync(settings, 'utf8'), settingsBefore);
        });
        await t.test('the guard, axme_update_safety remove: denied, the rules unchanged, the store changed only by the saved decision', async () => {
          const rule = result(STEP.rule);
          assert.equal(rule.isError, true, rule.text);
          assert.match(rule.text, /for the user: ask them to run `axme safety remove/);
          assert.deepEqual(await cli(w, ['safety', 'show', '--json']), rulesBefore);
          const since = git(w.project, ['log', '--format=%s', `${tipBefore}..refs/memory/main`])
            .trim()
            .split('\n');
          assert.equal(since.length, 1, `commits on refs/memory/main during the session: ${JSON.stringify(since)}`);
          assert.ok(since[0]!.includes(`${recall.nextId} Log as JSON lines`), since[0]);
        });

        await t.test('git hooks, through a script, without the marker: refused by commit-msg, the reason reaches the model', () => {
          const r = result(STEP.scriptCommit);
          assert.equal(r.isError, true, r.text);
          assert.match(r.text, /this commit needs its PR metadata/);
          assert.match(r.text, /#!axme pr=<N\|none> repo=<owner>\/<name>/);
        });
        await t.test('git hooks, with the marker: one commit lands, with Axme- trailers and a note on refs/notes/axme', () => {
          const r = result(STEP.markedCommit);
          assert.equal(r.isError, false, r.text);
          assert.deepEqual(
            git(w.project, ['log', '--format=%s', `${head}..HEAD`])
              .trim()
              .split('\n'),
            ['Update the README'],
            'only the commit with the marker',
          );
          const msg = git(w.project, ['log', '-1', '--format=%B']);
          assert.match(msg, /^Axme-PR: none$/m);
          assert.match(msg, /^Axme-Repo: acme\/demo$/m);
          assert.match(msg, new RegExp(`^Axme-Session: ${session.id}$`, 'm'));
          assert.doesNotMatch(msg, /#!axme/);
          const note = git(w.project, ['notes', '--ref=axme', 'show', 'HEAD']);
          assert.match(note, /^pr: none$/m);
          assert.match(note, /^repo: acme\/demo$/m);
          assert.match(note, new RegExp(`^session: ${session.id}$`, 'm'));
        });

        const commit = git(w.project, ['rev-parse', 'HEAD']).trim();
        await t.test('after claude -p exits, the session is recorded as ended, with the files its tools edited and its commit', async () => {
          assert.ok(session.ended, JSON.stringify(session));
          assert.equal(session.harness, 'claude-code');
          const shown = await cli(w, ['session', 'show', session.id, '--json']);
          assert.deepEqual(shown.commit_list, [commit]);
          // in the order the tools edited them; the denied write of .claude/settings.json edited nothing
          assert.deepEqual(shown.file_list, ['src/db.ts', 'commit.sh']);
          assert.equal(shown.transcript.endsWith(`${run.sessionId}.jsonl`), true, shown.transcript);
        });
        let from = m.turns.length;
        const two = await runClaude(w, m, 'Go on.', {
          steps: [
            { tool: 'mcp__axme__axme_begin_close', args: {} },
            {
              tool: 'mcp__axme__axme_finalize_close',
              args: {
                summary: 'Read the handoff.',
                stopped_at: 'Stopped before the 1.2 section of the changelog',
                next_steps: 'Write the 1.2 section.',
                worklog_entry: 'Checked the changelog.',
                startup_text: 'Say: the 1.2 section is next.',
              },
            },
            { text: 'Closed.' },
          ],
        });
        ranOk(two, m);
        const turnsTwo = m.turns.slice(from);
        await t.test("the second session starts with the first one's recovered handoff: its request and its commit", () => {
          const context = sessionStartContext(requestText(turnsTwo[0]!));
          assert.notEqual(context, '', `no session-start context reached the model\n${describeRun(two)}\n${describeTurns(m.turns.slice(from))}`);
          assert.match(context, /What must I know before I start\?/, "the first session's request");
          assert.match(context, /Update the README/, 'its commit');
          const handoff = git(w.project, ['show', `refs/memory/main:handoffs/${session.id}.md`]);
          assert.match(handoff, /^source: recovered$/m);
        });
        await t.test('the close: the model reads what was stored, and the session is closed', async () => {
          const closed = resultOfStep(turnsTwo, 1);
          assert.equal(closed.isError, false, closed.text);
          const second = await axmeSession(w, two);
          assert.equal(second.status, 'closed', JSON.stringify(second));
          assert.match(git(w.project, ['show', `refs/memory/main:handoffs/${second.id}.md`]), /^source: agent$/m);
        });
        from = m.turns.length;
        const three = await runClaude(w, m, 'Continue.', { steps: [{ text: 'Continuing.' }] });
        ranOk(three, m);
        await t.test("the third session starts with the second one's own handoff and startup text", () => {
          const context = sessionStartContext(requestText(m.turns[from]!));
          assert.notEqual(context, '', `no session-start context reached the model\n${describeRun(three)}\n${describeTurns(m.turns.slice(from))}`);
          assert.match(context, /Stopped before the 1\.2 section of the changelog/);
          assert.match(context, /the 1\.2 section is next/);
        });
      }),
  );

  // the first session starts from a handoff a teammate's clone pushed (this clone ran no session yet);
  // the session after the auditor's asks about the anchored decision's subject (recall), then is compacted
  test(
    "a teammate's handoff taken by a sync; the auditor: the session-end worker audits the real transcript; its handoff is the one kept and read next; recall and compaction in the next session",
    TEST,
    (t) => {
      const format = anthropicFormat({ sideAnswer: (r) => (isAuditRequest(r) ? JSON.stringify(AUDIT_EXTRACTION) : null) });
      return inWorld(async (w, m) => {
        const recall = await seedRecall(w);
        const teammate = await teammateHandoff(w);
        const env = { AXME_AUDITOR_PROVIDER: 'anthropic' };
        const one = await runClaude(w, m, 'Wire the cache: we use Valkey, not Redis.', {
          env,
          steps: [{ tool: 'Bash', args: { command: 'echo TRANSCRIPT-MARKER-cache-wired', description: 'Wire the cache' } }, { text: 'The cache is wired.' }],
        });
        ranOk(one, m);
        await t.test('a teammate\'s handoff, synced from their clone: the model reads it as their session\'s, not as "Say this to the user first"', () => {
          const context = sessionStartContext(requestText(m.turns[0]!));
          assert.notEqual(context, '', `no session-start context reached the model\n${describeRun(one)}`);
          assertFramedAsData(context);
          assertNamedAsAnothers(context, teammate);
        });
        const session = await axmeSession(w, one);
        const log = await auditDone(w, session.id);
        const shown = await cli(w, ['session', 'show', session.id, '--json']);
        const asked = m.requests.filter(isAuditRequest);
        await t.test('the audit read the transcript in chunks: the prompt, the tool call and its result', () => {
          assert.ok(asked.length >= 1, 'no audit request reached the model');
          const user = asked.map((r) => requestText(r)).join('\n');
          assert.match(user, /<user>Wire the cache: we use Valkey, not Redis\.<\/user>/);
          assert.match(user, /<tool name="Bash">command: echo TRANSCRIPT-MARKER-cache-wired/);
          assert.match(user, /<tool_result name="Bash">TRANSCRIPT-MARKER-cache-wired<\/tool_result>/);
          assert.equal(log.ok, true, JSON.stringify(log));
          assert.equal(log.mode, 'full');
          assert.ok(log.chunks >= 1 && asked.length >= log.chunks, `${asked.length} requests for ${log.chunks} chunks`);
          assert.equal(log.to_offset, statSync(shown.transcript).size, 'the whole transcript was read');
        });
        const path = `refs/memory/main:handoffs/${session.id}.md`;
        const handoff = git(w.project, ['show', path]);
        await t.test('one commit by the auditor: the decision and the handoff', () => {
          const msg = git(w.project, ['log', '--format=%B', `--grep=^audit: session ${session.id}`, 'refs/memory/main']);
          assert.match(msg, new RegExp(`^audit: session ${session.id} - 1 decision`));
          assert.match(git(w.project, ['show', 'refs/memory/main:decisions/cache-api-responses-in-valkey.md']), /source: auditor/);
          assert.match(msg, /Axme-Actor: auditor/);
          assert.match(handoff, /^source: auditor$/m);
          assert.match(handoff, /AUDITOR-HANDOFF/);
        });
        const from = m.turns.length;
        const two = await runClaude(w, m, POOL_PROMPT, { steps: [{ text: 'Through the shared pool.' }] });
        ranOk(two, m);
        await t.test("the store keeps the auditor's handoff after the next session start (not replaced by a recovered one)", () => {
          assert.equal(git(w.project, ['show', path]), handoff);
        });
        await t.test("the next session starts with the auditor's handoff", () => {
          const context = sessionStartContext(requestText(m.turns[from]!));
          assert.notEqual(context, '', `no session-start context reached the model\n${describeRun(two)}\n${describeTurns(m.turns.slice(from))}`);
          assert.match(context, /AUDITOR-HANDOFF: the cache is wired, metrics are next/);
        });
        await t.test('recall: a prompt about the subject gets the anchored decision', () => {
          const first = requestText(m.turns[from]!);
          assert.ok(!sessionStartContext(first).includes(recall.id), 'the session start did not list it');
          assert.equal(count(first, recall.line), 1, `the model received the decision once with the prompt\n${first.slice(-3000)}`);
        });
        // headless Claude Code runs `/compact` on a resumed session: PreCompact, the summary request,
        // SessionStart "compact"; the user's next prompt in the same process goes on from there
        const compacted = await runClaude(w, m, '/compact', {
          args: ['--resume', two.sessionId!],
          then: ['Go on with that, please.'],
          steps: [{ text: 'Summary: the user asked how the postgres pooling should work.' }, { text: 'Going on.' }],
        });
        ranOk(compacted, m);
        assert.equal(compacted.results.length, 2, `a result for each prompt\n${describeRun(compacted)}`);
        await t.test('a compaction: PreCompact writes the checkpoint, the context after it starts from it, the decision comes back once', () => {
          const after = requestText(m.turns.at(-1)!);
          assert.equal(count(after, '## Checkpoint: where this session stood'), 1, `the model starts from the checkpoint, once\n${after.slice(-4000)}`);
          assert.ok(after.includes('How should the pooling work?'), 'the checkpoint names the request');
          // the `claude -p --resume` process is an axme session of its own, with its own start's context:
          // the decision may be listed by both starts; "once per context" is the hooks' test
          assert.ok(count(after, recall.line) >= 1, `the decision is given again after the compaction\n${after.slice(-4000)}`);
        });
      }, format);
    },
  );
});
