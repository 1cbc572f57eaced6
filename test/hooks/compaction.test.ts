import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { axme, axmeOk } from '../helpers.ts';
import { hookBinary, hookInProcess, loadBuiltHook } from './hook-in-process.ts';
import { DB_TITLE, recallWorld } from './recall-world.ts';

/**
 * A compaction (issue 32): the pre-compact hook (Claude Code's and Codex's PreCompact, Gemini
 * CLI's PreCompress) writes the session's checkpoint; the next context start (Claude Code's
 * SessionStart with source "compact") or, in Gemini CLI, the next prompt hands it to the model
 * once; what was given before the compaction may be given again.
 */

const FIRST = 'Make the checkout page load faster for returning customers';

describe('compaction: the checkpoint and what the session was given', () => {
  let dir: string;
  let home: string;
  let env: NodeJS.ProcessEnv;
  let cleanup: () => void;
  let dbId: string;
  let transcript: string;
  before(async () => {
    ({ dir, home, env, dbId, cleanup } = await recallWorld([
      ['Feature flags live in LaunchDarkly', 'No homegrown flag tables.'],
      ['Logs are structured JSON', 'Use the pino logger.'],
      ['Images are served from the CDN', 'Upload to the bucket.'],
    ]));
    // a Claude Code transcript holding the session's first request
    transcript = join(home, 'session.jsonl');
    writeFileSync(
      transcript,
      `${JSON.stringify({ type: 'user', uuid: 'u1', parentUuid: null, sessionId: 'x', timestamp: '2026-11-28T10:00:00.000Z', cwd: dir, message: { role: 'user', content: FIRST } })}\n`,
    );
    await loadBuiltHook();
  });
  after(() => cleanup());

  // each call is answered by the built hook in this process (test/hooks/hook-in-process.ts), or
  // with `binary` by the binary, as the client runs it: the compaction's own hook and the start
  // after it; the calls of one session build on each other's record, whichever answered them
  const hook = (event: string, payload: Record<string, unknown>, client?: 'gemini', binary = false) =>
    (binary ? hookBinary : hookInProcess)(event, { cwd: dir, env, client, input: JSON.stringify({ transcript_path: transcript, cwd: dir, ...payload }) });
  const contextOf = (stdout: string): string | null => {
    if (stdout.trim() === '') return null;
    return (JSON.parse(stdout) as { hookSpecificOutput?: { additionalContext?: string } }).hookSpecificOutput?.additionalContext ?? null;
  };
  const POOL = 'The postgres connection pool leaks clients under load, can you fix the pooling?';

  test('Claude Code: PreCompact writes the checkpoint; SessionStart "compact" leads with it; items come back once', async () => {
    const s = 'cc-1';
    const given = await hook('user-prompt-submit', { session_id: s, hook_event_name: 'UserPromptSubmit', prompt: POOL });
    assert.ok(contextOf(given.stdout)?.includes(dbId), given.stdout);
    const edited = await hook('post-tool-use', {
      session_id: s,
      hook_event_name: 'PostToolUse',
      tool_name: 'Edit',
      tool_input: { file_path: join(dir, 'src', 'db.ts'), old_string: '1', new_string: '2' },
      tool_response: { success: true },
    });
    assert.equal(edited.code, 0, edited.stderr);

    const pre = await hook('pre-compact', { session_id: s, hook_event_name: 'PreCompact', trigger: 'manual', custom_instructions: null }, undefined, true);
    assert.equal(pre.code, 0, pre.stderr);
    assert.equal(pre.stdout, '', 'no objection: the compaction goes ahead');

    const start = await hook('session-start', { session_id: s, hook_event_name: 'SessionStart', source: 'compact' }, undefined, true);
    assert.equal(start.code, 0, start.stderr);
    const ctx = contextOf(start.stdout)!;
    assert.ok(ctx.startsWith('## Checkpoint'), ctx.slice(0, 300));
    assert.ok(ctx.includes(FIRST), 'the checkpoint names the first request');
    assert.ok(ctx.includes('src/db.ts'), 'the checkpoint names the file changed');
    assert.ok(ctx.length <= 6_000, `${ctx.length} characters`);

    // what the prompt gave before the compaction is gone from the model's context: it may come again, once
    const again = await hook('user-prompt-submit', { session_id: s, hook_event_name: 'UserPromptSubmit', prompt: POOL });
    const after1 = contextOf(again.stdout) ?? '';
    assert.ok(after1.includes(dbId) || ctx.includes(dbId), `given again after the compaction, by the start or the prompt\n${again.stdout}`);
    assert.ok(!after1.includes('## Checkpoint'), 'the start gave the checkpoint: the prompt does not repeat it');
    const third = await hook('user-prompt-submit', { session_id: s, hook_event_name: 'UserPromptSubmit', prompt: POOL });
    assert.equal(contextOf(third.stdout), null, 'once per context');
  });

  /** A Gemini CLI session file (ChatRecordingService's records) whose last model answer says its prompt was `tokens` long. */
  const geminiSession = (name: string, tokens: number, model = 'gemini-2.5-pro'): string => {
    const file = join(home, `${name}.jsonl`);
    const t = '2026-11-28T10:00:00.000Z';
    const records = [
      { sessionId: name, projectHash: 'p', startTime: t, lastUpdated: t, kind: 'main' },
      { id: 'm1', timestamp: t, type: 'user', content: [{ text: FIRST }] },
      { id: 'm2', timestamp: t, type: 'gemini', content: 'Looking at the pool.', tokens: { input: 10, output: 5, total: 15 }, model },
      { id: 'm3', timestamp: t, type: 'user', content: [{ text: POOL }] },
      { id: 'm4', timestamp: t, type: 'gemini', content: 'Reading db.ts.', tokens: null, model },
      // the answer's tokens come after it, in a copy of the message appended whole
      { id: 'm4', timestamp: t, type: 'gemini', content: 'Reading db.ts.', tokens: { input: tokens, output: 9, total: tokens + 9 }, model },
    ];
    writeFileSync(file, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
    return file;
  };

  test('Gemini CLI: PreCompress, then the next prompt carries the checkpoint once, with the items again', async () => {
    const s = 'gm-1';
    // past half of gemini-2.5-pro's 1,048,576 tokens: Gemini compresses
    const session = geminiSession(s, 600_000);
    const first = await hook('user-prompt-submit', { session_id: s, hook_event_name: 'BeforeAgent', prompt: POOL, transcript_path: session }, 'gemini');
    assert.ok(contextOf(first.stdout)?.includes(dbId), first.stdout);
    const pre = await hook('pre-compact', { session_id: s, hook_event_name: 'PreCompress', trigger: 'auto', transcript_path: session }, 'gemini', true);
    assert.equal(pre.code, 0, pre.stderr);
    assert.deepEqual(JSON.parse(pre.stdout), {}, 'Gemini: no objection');
    const next = await hook('user-prompt-submit', { session_id: s, hook_event_name: 'BeforeAgent', prompt: POOL }, 'gemini', true);
    const ctx = contextOf(next.stdout)!;
    assert.ok(ctx.startsWith('## Checkpoint'), ctx);
    assert.ok(ctx.includes(dbId), 'the decision is given again after the compaction');
    assert.doesNotMatch(ctx, /[<>]/, 'Gemini escapes < and >: none is sent');
    const later = await hook(
      'user-prompt-submit',
      { session_id: s, hook_event_name: 'BeforeAgent', prompt: 'Please write a haiku about autumn leaves' },
      'gemini',
    );
    assert.deepEqual(JSON.parse(later.stdout), {}, 'the checkpoint is given once');
  });

  test('Gemini CLI: a PreCompress before a model call that compresses nothing leaves no checkpoint and gives nothing again', async () => {
    // Gemini CLI 0.61 fires PreCompress before every model call, then compares the last prompt with its threshold
    const small = async (s: string, trigger: string, session: string) => {
      const first = await hook('user-prompt-submit', { session_id: s, hook_event_name: 'BeforeAgent', prompt: POOL, transcript_path: session }, 'gemini');
      assert.ok(contextOf(first.stdout)?.includes(dbId), first.stdout);
      const pre = await hook('pre-compact', { session_id: s, hook_event_name: 'PreCompress', trigger, transcript_path: session }, 'gemini');
      assert.equal(pre.code, 0, pre.stderr);
      assert.deepEqual(JSON.parse(pre.stdout), {}, 'Gemini: no objection');
      const next = await hook('user-prompt-submit', { session_id: s, hook_event_name: 'BeforeAgent', prompt: POOL, transcript_path: session }, 'gemini');
      return contextOf(next.stdout);
    };
    assert.equal(await small('gm-small', 'auto', geminiSession('gm-small', 4_000)), null, 'a prompt of 4,000 tokens is not compressed: nothing is given again');
    // a gemma-4 model's window is 256,000 tokens: 200,000 is past half of it
    assert.ok((await small('gm-gemma', 'auto', geminiSession('gm-gemma', 200_000, 'gemma-4-31b-it')))?.startsWith('## Checkpoint'), 'gemma-4: compressed');
    // the first call of a session: no model answer yet, nothing to compress
    const fresh = join(home, 'gm-fresh.jsonl');
    writeFileSync(fresh, `${JSON.stringify({ sessionId: 'gm-fresh', projectHash: 'p', startTime: 't', lastUpdated: 't', kind: 'main' })}\n`);
    assert.equal(await small('gm-fresh', 'auto', fresh), null, 'no model answer yet: nothing compressed');
    // /compress compresses whatever the size
    assert.ok((await small('gm-manual', 'manual', geminiSession('gm-manual', 4_000)))?.startsWith('## Checkpoint'), '/compress: compressed');
    // a user who compresses early (model.compressionThreshold in ~/.gemini/settings.json, comments allowed)
    const settings = join(env.HOME!, '.gemini', 'settings.json');
    assert.ok(!existsSync(settings), settings);
    mkdirSync(join(env.HOME!, '.gemini'), { recursive: true });
    writeFileSync(settings, '{\n  // compress early\n  "model": { "compressionThreshold": 0.001 }\n}\n');
    try {
      assert.ok((await small('gm-early', 'auto', geminiSession('gm-early', 4_000)))?.startsWith('## Checkpoint'), 'threshold 0.001: compressed');
      // one who compresses late: 600,000 tokens is past 0.5 of the window but not past 0.7
      writeFileSync(settings, '{ "model": { "compressionThreshold": 0.7 } }\n');
      assert.equal(await small('gm-late', 'auto', geminiSession('gm-late', 600_000)), null, 'threshold 0.7: not compressed');
    } finally {
      rmSync(settings);
    }
    // Gemini's home is $GEMINI_CLI_HOME when it is set
    const geminiHome = join(home, 'gemini-home');
    mkdirSync(join(geminiHome, '.gemini'), { recursive: true });
    writeFileSync(join(geminiHome, '.gemini', 'settings.json'), '{ "model": { "compressionThreshold": 0.001 } }\n');
    const s = 'gm-home';
    const session = geminiSession(s, 4_000);
    const withHome = (event: string, payload: Record<string, unknown>) =>
      hookInProcess(event, {
        cwd: dir,
        env: { ...env, GEMINI_CLI_HOME: geminiHome },
        client: 'gemini',
        input: JSON.stringify({ transcript_path: session, cwd: dir, session_id: s, ...payload }),
      });
    await withHome('user-prompt-submit', { hook_event_name: 'BeforeAgent', prompt: POOL });
    await withHome('pre-compact', { hook_event_name: 'PreCompress', trigger: 'auto' });
    const next = await withHome('user-prompt-submit', { hook_event_name: 'BeforeAgent', prompt: POOL });
    assert.ok(contextOf(next.stdout)?.startsWith('## Checkpoint'), `GEMINI_CLI_HOME's threshold 0.001: compressed\n${next.stdout}`);
  });

  test('a compaction outside any session, or with a broken payload, never blocks', async () => {
    const none = await hook('pre-compact', { hook_event_name: 'PreCompact', trigger: 'auto' });
    assert.equal(none.code, 0, none.stderr);
    assert.equal(none.stdout, '');
    const bad = await axme(dir, ['hook', 'pre-compact'], { env, input: 'not json' });
    assert.notEqual(bad.code, 2, 'non-blocking');
    assert.match(bad.stderr, /axme hook pre-compact/);
  });

  test('axme init registers the compaction hook: PreCompact (Claude Code, Codex), PreCompress (Gemini CLI)', async () => {
    await axmeOk(dir, ['init', '--agent', 'claude-code,codex,gemini'], { env });
    const claude = JSON.parse(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8'));
    assert.ok(claude.hooks.PreCompact[0].hooks[0].command.endsWith('hook pre-compact'), JSON.stringify(claude.hooks.PreCompact));
    const codex = JSON.parse(readFileSync(join(dir, '.codex', 'hooks.json'), 'utf8'));
    assert.match(codex.hooks.PreCompact[0].hooks[0].command, /hook pre-compact --client codex$/);
    const gemini = JSON.parse(readFileSync(join(dir, '.gemini', 'settings.json'), 'utf8'));
    assert.match(gemini.hooks.PreCompress[0].hooks[0].command, /hook pre-compact --client gemini$/);
  });
});
