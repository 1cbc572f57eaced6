import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { axmeInOk } from '../cli-in-process.ts';
import { CLI, git } from '../helpers.ts';
import { anthropicFormat } from './anthropic.ts';
import { AUDIT_EXTRACTION, assertAuditRead, auditDone, isAuditRequest } from './audit-wait.ts';
import { type CodexLab, type CodexRun, closeCodexLab, codexLab, patch, readRollout, runCodex, writeRolloutFixture } from './codex.ts';
import { type ScriptedModel, type SeenRequest, type Step, startModel } from './model-server.ts';
import { messages, resultOf } from './openai.ts';
import { worldQuiet } from './project.ts';
import { count, POOL_PROMPT, RECALL_TITLE, type RecallSeed, seedRecall } from './recall-seed.ts';
import { assertFramedAsData, assertNamedAsAnothers, type TeammateHandoff, teammateHandoff } from './trust-boundary.ts';

/**
 * The real Codex CLI 0.169.0 (`codex exec`) after `axme init --agent codex`, against a scripted
 * model: what the model was handed, what changed on disk, in the remote and on refs/memory/main,
 * what axme recorded of the session, and what the next session starts with.
 *
 * The auditor after a Codex session rides on the same world: its first session runs with an
 * auditor chosen (a scripted Anthropic server), so axme's session-end worker reads Codex's own
 * transcript (its rollout) and asks that model, with no tools; its decision and handoff land in
 * one commit, and the next session's start keeps that handoff and hands it to the model. Claude
 * Code's case is in claude-code.test.ts, Gemini CLI's in gemini.test.ts. Recall's checks
 * (recall-seed.ts) ride on the first two sessions: the first prompt is about the anchored
 * decision's subject; the second is about nothing in the store, and its model patches the
 * anchored file twice. The first session also starts from a handoff a teammate's clone pushed
 * (trust-boundary.ts): this clone ran no session yet.
 */

const HOOK = { timeout: 600_000 };
const FIXTURE = resolve(import.meta.dirname, '../fixtures/transcripts/codex-0.169.0.jsonl');
/** Codex offers MCP tools behind `tool_search` (gpt-5.5): the model looks them up first. */
const FIND_AXME: Step = { tool: 'tool_search', args: { query: 'axme', limit: 50 } };
/** What the audited session echoes: the auditor's transcript must show the call and its output. */
const MARKER = 'TRANSCRIPT-MARKER-cache-wired';
/** What a request handed the model, as one text (the request body as sent). */
const bodyText = (req: SeenRequest) => JSON.stringify(req.body);
/** The decision id after `id` (`D-017` → `D-018`). */
const nextDecision = (id: string) => `D-${String(Number(id.slice(2)) + 1).padStart(3, '0')}`;
/** Known bug, being fixed elsewhere: Codex hands the model an MCP result's structuredContent when the tool declares an outputSchema. */

/** One `codex exec` session with `steps`; returns the run and the turns the model answered in it. */
async function session(l: CodexLab, prompt: string, steps: Step[], env: NodeJS.ProcessEnv = {}): Promise<{ run: CodexRun; turns: SeenRequest[] }> {
  l.model.script(steps);
  const from = l.model.turns.length;
  const run = await runCodex(l.world, l.home, prompt, { env });
  assert.equal(run.code, 0, `codex exec failed\n${run.stderr}`);
  assert.equal(l.model.remaining(), 0, `the script was not played to its end\n${run.stderr}`);
  const turns = l.model.turns.slice(from);
  assert.doesNotMatch(turns.map((t) => t.raw).join('\n'), /unsupported call: /, 'Codex did not offer a tool the script calls');
  // what Codex started (the MCP server, hooks and what they left running) has ended and written its records
  assert.ok(await worldQuiet(l.world), 'processes of the session were still running a minute after codex exec exited');
  return { run, turns };
}

/** The session-start context axme handed the model: the developer message Codex made of it, in the session's first request. */
const developer = (turns: SeenRequest[]) =>
  messages(turns[0]!, 'developer')
    .filter((t) => t.includes('# Project knowledge (axme'))
    .join('\n');
const sessions = async (l: CodexLab): Promise<Array<Record<string, any>>> =>
  (await axmeInOk(l.world.project, ['session', 'list', '--json'], { env: { HOME: l.world.home } })).filter((s: any) => s.harness === 'codex');
const show = (l: CodexLab, id: string) => axmeInOk(l.world.project, ['session', 'show', id, '--json'], { env: { HOME: l.world.home } });
/** `apply_patch` run through the shell tool: Codex recognises the heredoc and applies the patch itself. */
const shellPatch = (body: string): Step => ({ tool: 'exec_command', args: { cmd: `apply_patch <<'EOF'\n${patch(body)}EOF` } });

/** A script `<name>.sh` that commits `<name>.txt` without the marker: the harness hook sees `sh <name>.sh`, only the git hook sees the commit. */
const commitScript = (name: string): Step => ({
  tool: 'apply_patch',
  args: { input: patch(`*** Add File: ${name}.sh\n+git add ${name}.txt && git commit -q -m "Add ${name}"\n*** Add File: ${name}.txt\n+${name}`) },
});
/** The subjects of the project's commits after `since`, newest first. */
const log = (l: CodexLab, since: string) =>
  git(l.world.project, ['log', '--format=%s', `${since}..HEAD`])
    .trim()
    .split('\n');
/** The thread id of a `codex exec` run (its Codex session). */
const threadOf = (run: CodexRun) => run.events.find((e) => e.type === 'thread.started')?.thread_id;

// one world, four sessions: the first is audited after it ends; the second starts from the
// auditor's handoff, works and ends without a close; the third closes itself; the fourth starts
// from that handoff and then meets the guard and the git hooks — with axme on PATH only through
// the user's own shell setup (no devDependency, no AXME_BIN), which the guard, the MCP server and
// the git hooks under `bash -lc` must find all the same
describe('Codex: session-start context, MCP tools, patches, the end of a session, the guard, git hooks on commits through the shell (bash -lc)', {
  timeout: 900_000,
}, () => {
  let l: CodexLab;
  let auditor: ScriptedModel;
  let recall: RecallSeed;
  let teammate: TeammateHandoff;
  let s0: { run: CodexRun; turns: SeenRequest[] };
  let audited: Record<string, any>;
  let audit: any;
  let auditShown: any;
  let auditHandoff: string;
  let auditHandoffAfterNext: string;
  /** the id the decision saved in the second session gets: the one after the auditor's */
  let saved: string;
  let hooksBefore: string;
  let memoryBefore: string;
  let rulesBefore: string;
  let s1: { run: CodexRun; turns: SeenRequest[] };
  let s2: { run: CodexRun; turns: SeenRequest[] };
  let s3: { run: CodexRun; turns: SeenRequest[] };
  let first: Record<string, any>;
  let sessionsBefore: number;

  before(async () => {
    l = await codexLab();
    auditor = await startModel(anthropicFormat({ sideAnswer: (r) => (isAuditRequest(r) ? JSON.stringify(AUDIT_EXTRACTION) : null) }));
    recall = await seedRecall(l.world);
    saved = nextDecision(recall.nextId);
    teammate = await teammateHandoff(l.world);
    // the user's own choice of auditor, on this machine, for this session: the variables the client passes to its hooks
    s0 = await session(l, POOL_PROMPT, [{ tool: 'exec_command', args: { cmd: `echo ${MARKER}` } }, { text: 'Through the shared pool.' }], {
      AXME_AUDITOR_PROVIDER: 'anthropic',
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: auditor.url,
    });
    audited = (await sessions(l)).find((s) => s.harness_session === threadOf(s0.run))!;
    assert.ok(audited, JSON.stringify(await sessions(l)));
    audit = await auditDone(l.world, audited.id);
    auditShown = await show(l, audited.id);
    auditHandoff = git(l.world.project, ['show', `refs/memory/main:handoffs/${audited.id}.md`]);
    // a prompt about nothing in the store, and two patches of the anchored file first (recall), then the work
    s1 = await session(l, 'Record the storage decision and write the notes.', [
      { tool: 'apply_patch', args: { input: patch('*** Update File: src/db.ts\n@@\n-export const pool = null;\n+export const pool = undefined;') } },
      { tool: 'apply_patch', args: { input: patch('*** Update File: src/db.ts\n@@\n-export const pool = undefined;\n+export const pool = 0;') } },
      FIND_AXME,
      { tool: 'axme_context', args: {} },
      {
        tool: 'axme_save_decision',
        args: { title: 'Use Postgres for storage', decision: 'Orders are stored in Postgres 16.', reasoning: 'The team runs it already.' },
      },
      { tool: 'axme_search_kb', args: { query: 'Postgres storage' } },
      shellPatch('*** Add File: docs/notes.md\n+# Notes\n+Orders go to Postgres.'),
      { tool: 'apply_patch', args: { input: patch('*** Add File: src/plan.md\n+1. migrate orders') } },
      { text: 'Saved the decision and wrote the notes.' },
    ]);
    auditHandoffAfterNext = git(l.world.project, ['show', `refs/memory/main:handoffs/${audited.id}.md`]);
    first = (await sessions(l)).find((s) => s.harness_session === threadOf(s1.run))!;
    assert.ok(first, JSON.stringify(await sessions(l)));
    // the next session: the one before is recovered (it ended without a close); this one closes itself
    s2 = await session(l, 'Close the session.', [
      FIND_AXME,
      { tool: 'axme_begin_close', args: {} },
      {
        tool: 'axme_finalize_close',
        args: {
          summary: 'Planned the orders migration.',
          stopped_at: 'src/plan.md step 1',
          next_steps: 'Migrate the orders table.',
          startup_text: 'The orders migration plan is in src/plan.md; step 1 is next.',
          worklog_entry: 'Planned the migration of orders to Postgres.',
        },
      },
      { text: 'Closed.' },
    ]);
    mkdirSync(join(l.world.home, '.ssh'), { recursive: true });
    writeFileSync(join(l.world.home, '.ssh', 'id_rsa'), 'CANARY-7f3a9c-private-key\n');
    hooksBefore = readFileSync(join(l.world.project, '.codex/hooks.json'), 'utf8');
    memoryBefore = git(l.world.project, ['rev-parse', 'refs/memory/main']).trim();
    rulesBefore = git(l.world.project, ['show', 'refs/memory/main:safety/rules.yaml']);
    sessionsBefore = (await sessions(l)).length;
    // no devDependency, no AXME_BIN: axme is a global install in a folder the user's ~/.bashrc puts on
    // PATH (as nvm does), so Codex inherits it from the terminal; a login shell starts from /etc/profile
    rmSync(join(l.world.project, 'node_modules'), { recursive: true, force: true });
    const bin = join(l.world.home, '.local/share/node-global/bin');
    mkdirSync(bin, { recursive: true });
    symlinkSync(CLI, join(bin, 'axme'));
    writeFileSync(join(l.world.home, '.bashrc'), `case $- in *i*) ;; *) return;; esac\nexport PATH="${bin}:$PATH"\n`);
    // the guard's denials first, then commits through the shell
    s3 = await session(
      l,
      'Where were we? Then ship it, and commit the feature.',
      [
        { tool: 'exec_command', args: { cmd: 'git push origin main' } },
        { tool: 'exec_command', args: { cmd: 'cat ~/.ssh/id_rsa' } },
        { tool: 'exec_command', args: { cmd: "printf '{}' > .codex/hooks.json" } },
        { tool: 'apply_patch', args: { input: patch('*** Update File: .codex/hooks.json\n@@\n-{\n+{"hooks": {},') } },
        shellPatch('*** Delete File: .codex/hooks.json'),
        { tool: 'apply_patch', args: { input: patch('*** Update File: .git/HEAD\n@@\n-ref: refs/heads/main\n+ref: refs/heads/nowhere') } },
        FIND_AXME,
        { tool: 'axme_update_safety', args: { rule_type: 'bash_deny', value: 'rm -rf /', action: 'remove' } },
        commitScript('feature'),
        { tool: 'exec_command', args: { cmd: 'sh feature.sh' } },
        { tool: 'exec_command', args: { cmd: 'git add feature.txt && git commit -q -m "Add feature #!axme pr=none repo=acme/demo"' } },
        { text: 'At step 1 of the plan; refused what it had to, committed the feature.' },
      ],
      { AXME_BIN: undefined, AXME_NODE: undefined, PATH: `${bin}:${process.env.PATH}` },
    );
  }, HOOK);
  after(async () => {
    await auditor?.close();
    await closeCodexLab(l);
  });

  it('a teammate\'s handoff, synced from their clone: the model reads it as their session\'s, not as "Say this to the user first"', () => {
    const dev = developer(s0.turns);
    assertFramedAsData(dev);
    assertNamedAsAnothers(dev, teammate);
  });

  it('recall: a prompt about the subject gets the anchored decision', () => {
    const text = bodyText(s0.turns[0]!);
    assert.equal(count(text, recall.line), 1, `the model received the decision once with the prompt\n${text.slice(-3000)}`);
  });

  it("the auditor: the audit read the client's transcript: the prompt, the shell call and its output", () => {
    assertAuditRead(auditor, audit, auditShown.transcript, { prompt: POOL_PROMPT, tool: 'exec_command', marker: MARKER });
  });

  it('the auditor was offered no tools', () => {
    const asked = auditor.requests.filter(isAuditRequest);
    assert.ok(asked.length >= 1, 'no audit request reached the model');
    for (const r of asked) assert.deepEqual((r.body as { tools?: unknown[] }).tools ?? [], []);
  });

  it('the auditor: one commit, the decision and the handoff', () => {
    const msg = git(l.world.project, ['log', '--format=%B', `--grep=^audit: session ${audited.id}`, 'refs/memory/main']);
    assert.match(msg, new RegExp(`^audit: session ${audited.id} - 1 decision`), `the audit: ${JSON.stringify(audit)}`);
    assert.match(msg, /Axme-Actor: auditor/);
    assert.match(git(l.world.project, ['show', 'refs/memory/main:decisions/cache-api-responses-in-valkey.md']), /source: auditor/);
    assert.match(auditHandoff, /^source: auditor$/m);
    assert.match(auditHandoff, /AUDITOR-HANDOFF/);
  });

  it("the auditor: the next session's start keeps its handoff and hands it to the model", () => {
    assert.equal(auditHandoffAfterNext, auditHandoff, 'not replaced by a recovered handoff');
    assert.match(messages(s1.turns[0]!, 'developer').join('\n'), /AUDITOR-HANDOFF: the cache is wired, metrics are next/);
  });

  it('recall: an unrelated prompt gets nothing; an apply_patch of the anchored file gets the decision once', () => {
    const turns = s1.turns.slice(0, 3).map(bodyText);
    assert.ok(!turns[0]!.includes(`${recall.id} ${RECALL_TITLE}`), 'nothing for an unrelated prompt (and the start did not list it)');
    assert.equal(count(turns[1]!, recall.line), 1, `the first patch of src/db.ts carries the decision\n${turns[1]!.slice(-3000)}`);
    assert.equal(count(turns[2]!, recall.line), 1, 'the second does not repeat it');
    assert.equal(readFileSync(join(l.world.project, 'src', 'db.ts'), 'utf8'), 'export const pool = 0;\n', 'both patches ran');
  });

  it('hands the model the session-start context as a developer message', () => {
    const dev = developer(s1.turns);
    assert.match(dev, /^# Project knowledge \(axme, refs\/memory\/main @ [0-9a-f]{12}\)$/m);
    assertFramedAsData(dev);
    assert.match(dev, /^- Protected branches: main, master/m);
    assert.match(dev, /#!axme pr=<N\|none> repo=<owner>\/<name>/);
  });

  it('axme_save_decision stores the decision, with the next id, on refs/memory/main', () => {
    const files = git(l.world.project, ['ls-tree', '--name-only', 'refs/memory/main', 'decisions/']).trim().split('\n');
    const texts = files.map((f) => git(l.world.project, ['show', `refs/memory/main:${f}`]));
    const stored = texts.find((t) => t.includes('Use Postgres for storage'));
    assert.ok(stored, `no decision file holds it: ${files.join(', ')}`);
    assert.ok(stored.includes(saved), `${saved}: ${stored}`);
    assert.match(stored, /Orders are stored in Postgres 16\./);
  });

  it("the model reads axme_context's text: the rules and what to do next, line by line", () => {
    const out = resultOf(s1.turns, 'axme_context');
    assert.ok(out, 'the axme_context call was never answered');
    assert.match(out, /^## Safety rules \(enforced by hooks/m, out);
    assert.match(out, /^- Protected branches: main, master/m);
  });

  it('the model reads "Decision saved: <id> …" as text, not a JSON object', () => {
    const out = resultOf(s1.turns, 'Use Postgres for storage');
    assert.ok(out, 'the axme_save_decision call was never answered');
    assert.match(out, new RegExp(`^Decision saved: ${saved} - Use Postgres for storage`, 'm'), out);
    assert.doesNotMatch(out, /"structuredContent"|^\{"text":/m);
  });

  it('axme_search_kb: the model reads the hit in words', () => {
    const out = resultOf(s1.turns, 'Postgres storage');
    assert.ok(out, 'the axme_search_kb call was never answered');
    assert.ok(out.includes(saved), out);
    assert.match(out, /^.*Use Postgres for storage/m);
    assert.doesNotMatch(out, /^\{"text":/m, out);
  });

  it('a file added with the apply_patch tool is recorded in the session', async () => {
    assert.equal(readFileSync(join(l.world.project, 'src/plan.md'), 'utf8'), '1. migrate orders\n');
    const rec = await show(l, first.id);
    assert.ok(rec.file_list.includes('src/plan.md'), JSON.stringify(rec.file_list));
  });

  // Codex sends no PostToolUse for `apply_patch <<EOF` run through the shell (its PreToolUse names the tool Bash)
  it('a file added by apply_patch through the shell is recorded in the session', async () => {
    assert.equal(readFileSync(join(l.world.project, 'docs/notes.md'), 'utf8'), '# Notes\nOrders go to Postgres.\n');
    const rec = await show(l, first.id);
    assert.ok(rec.file_list.includes('docs/notes.md'), `files: ${JSON.stringify(rec.file_list)}`);
  });

  // Codex 0.169 sends SessionEnd with reason "other" when `codex exec` ends
  it("when codex exec exits, its session is recorded as ended, with Codex's reason", () => {
    assert.ok(first.ended, `session ${first.id}: status ${first.status}, ended ${first.ended}, end_reason ${first.end_reason}`);
    assert.equal(first.end_reason, 'other');
  });

  it('the next session starts with the handoff of the one before (recovered: it never closed)', async () => {
    const dev = developer(s2.turns);
    assert.match(dev, new RegExp(`^## Say this to the user first\\nThe previous session \\(${first.id}, [^)]*\\) ended without a handoff`, 'm'), dev);
    assert.match(dev, new RegExp(`^## Latest handoff\\nSession ${first.id} \\(recovered`, 'm'));
    assert.match(dev, /^Files changed \(\d+\): .*src\/plan\.md/m);
    const rec = (await sessions(l)).find((s) => s.id === first.id);
    assert.equal(rec?.status, 'recovered');
  });

  it('the recovered handoff says what the Codex session was asked (its rollout is read)', () => {
    assert.match(developer(s2.turns), /Record the storage decision and write the notes\./);
  });

  it("a session that closes itself opens the next one with its handoff's startup text", async () => {
    assert.match(developer(s3.turns), /The orders migration plan is in src\/plan\.md; step 1 is next\./);
    const closed = (await sessions(l)).find((s) => s.harness_session === s2.run.events.find((e) => e.type === 'thread.started')?.thread_id);
    assert.equal(closed?.status, 'closed');
  });

  it('the transcript fixture holds every kind of line Codex writes in a rollout', async () => {
    const path = (await show(l, first.id)).transcript as string;
    assert.ok(path && existsSync(path), `the session records its transcript: ${path}`);
    const lines = readRollout(path);
    if (process.env.AXME_UPDATE_FIXTURES === '1')
      writeRolloutFixture(FIXTURE, lines, [
        [l.home.dir, '/work/codex-home'],
        [l.world.project, '/work/project'],
        [l.world.home, '/work/home'],
        [l.world.remote, '/work/remote.git'],
        [l.world.root, '/work'],
        [l.model.url, 'http://127.0.0.1:8080'],
        [CLI, '/usr/lib/node_modules/axme/dist/axme.cjs'],
      ]);
    const kinds = (ls: Array<Record<string, any>>) =>
      new Set(ls.map((x) => `${x.type}:${x.payload?.type ?? ''}${x.payload?.role ? `:${x.payload.role}` : ''}`));
    const real = kinds(lines);
    const fixture = kinds(readRollout(FIXTURE));
    for (const k of ['response_item:function_call', 'response_item:function_call_output', 'response_item:custom_tool_call', 'response_item:message:assistant'])
      assert.ok(real.has(k), k);
    const missing = [...real].filter((k) => !fixture.has(k) && !k.startsWith('event_msg:'));
    assert.deepEqual(missing, [], `lines the fixture lacks (AXME_UPDATE_FIXTURES=1 rewrites it)`);
  });

  it("the harness hooks find axme on Codex's PATH: the session is recorded", async () => {
    assert.match(developer(s3.turns), /^# Project knowledge \(axme/m);
    const list = await sessions(l);
    assert.equal(list.length, sessionsBefore + 1, JSON.stringify(list));
    assert.ok(
      list.some((x) => x.harness_session === threadOf(s3.run)),
      JSON.stringify(list),
    );
  });

  it('the guard, git push origin main: denied with the reason, the remote stays empty', () => {
    assert.match(resultOf(s3.turns, 'git push origin main') ?? '', /axme safety: pushing to the protected branch main is not allowed/);
    assert.equal(git(l.world.remote, ['for-each-ref']).trim(), '');
  });

  it('the guard, cat ~/.ssh/id_rsa: denied, and the key never reaches the model', () => {
    assert.match(resultOf(s3.turns, 'cat ~/.ssh/id_rsa') ?? '', /holds credentials \(~\/\.ssh\/\*\)/);
    assert.ok(l.model.requests.length > 0);
    assert.ok(!l.model.requests.some((r) => r.raw.includes('CANARY-7f3a9c')), 'the key was handed to the model');
  });

  it('the guard, .codex/hooks.json: the shell, the apply_patch tool and apply_patch through the shell are all denied; the file is unchanged', () => {
    for (const needle of ["printf '{}' > .codex/hooks.json", 'Update File: .codex/hooks.json', 'Delete File: .codex/hooks.json']) {
      assert.match(resultOf(s3.turns, needle) ?? '', /\.codex\/hooks\.json is axme's own state/, needle);
    }
    assert.equal(readFileSync(join(l.world.project, '.codex/hooks.json'), 'utf8'), hooksBefore);
  });

  it("the guard, apply_patch of .git/HEAD (a file of the history): denied as the shell's write to it is; HEAD unchanged", () => {
    assert.match(resultOf(s3.turns, 'Update File: .git/HEAD') ?? '', /project's history \(\.git\/HEAD\)/);
    assert.equal(git(l.world.project, ['symbolic-ref', 'HEAD']).trim(), 'refs/heads/main');
  });

  it('the guard, axme_update_safety removing a rule: denied, the rules and refs/memory/main unchanged', () => {
    assert.match(resultOf(s3.turns, 'axme_update_safety') ?? '', /removing a \w+ rule .*is for the user/);
    assert.equal(git(l.world.project, ['rev-parse', 'refs/memory/main']).trim(), memoryBefore);
    assert.equal(git(l.world.project, ['show', 'refs/memory/main:safety/rules.yaml']), rulesBefore);
  });

  // under `bash -lc` PATH comes from /etc/profile: the git hooks must find axme some other way
  it('git hooks: a commit without the #!axme marker is refused, and the model reads why', () => {
    assert.match(resultOf(s3.turns, 'sh feature.sh') ?? '', /this commit needs its PR metadata/);
    assert.deepEqual(log(l, recall.head), ['Add feature'], 'only the marked commit was made');
  });

  it('git hooks, with the marker: Axme trailers, a note tying it to the session, the session records the commit', async () => {
    const body = git(l.world.project, ['log', '-1', '--format=%B']);
    assert.match(body, /^Axme-PR: none$/m);
    assert.match(body, /^Axme-Repo: acme\/demo$/m);
    const head = git(l.world.project, ['rev-parse', 'HEAD']).trim();
    const rec = (await sessions(l)).find((x) => x.harness_session === threadOf(s3.run));
    assert.match(git(l.world.project, ['notes', '--ref=axme', 'show', head]), new RegExp(`^session: ${rec!.id}$`, 'm'));
    assert.deepEqual((await show(l, rec!.id)).commit_list, [head]);
  });
});
