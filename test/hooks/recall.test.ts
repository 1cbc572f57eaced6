import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { initCore } from '../core.ts';
import { axme } from '../helpers.ts';
import { hookBinary, hookInProcess, loadBuiltHook } from './hook-in-process.ts';
import { DB_TITLE, recallWorld } from './recall-world.ts';

/**
 * Recall (issue 32): the prompt hook injects the items a prompt is about, the pre-edit recall the
 * items anchored to the file an edit touches, and a session is never given one item twice.
 */

describe('recall: prompt hook and pre-edit recall', () => {
  let dir: string;
  let home: string;
  let env: NodeJS.ProcessEnv;
  let cleanup: () => void;
  let dbId: string;
  before(async () => {
    // unrelated items first, so the store has a score distribution to clear
    ({ dir, home, env, dbId, cleanup } = await recallWorld(
      [
        ['Render dates in UTC on the billing page', 'Invoices show dates in UTC with the zone named.'],
        ['Feature flags live in LaunchDarkly', 'No homegrown flag tables.'],
        ['Logs are structured JSON', 'Use the pino logger; no console.log in services.'],
        ['Release notes are written by hand', 'Each release gets a human summary in CHANGELOG.md.'],
        ['Images are served from the CDN', 'Upload to the bucket; the CDN serves them.'],
        ['Use pnpm workspaces for the monorepo', 'One lockfile at the top.'],
      ],
      [{ title: 'TLS certificates rotate yearly', decision: 'Certificates are replaced every year.', anchors: ['certs/'] }],
    ));
    assert.match(dbId, /^D-\d+$/);
    await loadBuiltHook();
  });
  after(() => cleanup());

  // each call is answered by the built hook in this process (test/hooks/hook-in-process.ts), or
  // with `binary` by the binary, as the client runs it: a sample per client and event; the
  // calls of one session build on each other's record, whichever answered them
  const prompt = (session: string, text: string, client?: 'gemini', binary = false) =>
    (binary ? hookBinary : hookInProcess)('user-prompt-submit', {
      cwd: dir,
      env,
      client,
      input: JSON.stringify({
        session_id: session,
        transcript_path: '/tmp/t.jsonl',
        cwd: dir,
        hook_event_name: client === 'gemini' ? 'BeforeAgent' : 'UserPromptSubmit',
        prompt: text,
      }),
    });
  const contextOf = (stdout: string): string | null =>
    stdout.trim() === ''
      ? null
      : ((JSON.parse(stdout) as { hookSpecificOutput?: { additionalContext?: string } }).hookSpecificOutput?.additionalContext ?? null);

  test('a prompt about an item gets it, one line with id, kind and title; the same session never gets it twice', async () => {
    const r = await prompt('p-1', 'The postgres connection pool leaks clients under load, can you fix the pooling?', undefined, true);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    assert.equal(out.hookSpecificOutput.hookEventName, 'UserPromptSubmit');
    const ctx = out.hookSpecificOutput.additionalContext;
    assert.ok(ctx.includes(`decision ${dbId} ${DB_TITLE}`), ctx);
    assert.ok(ctx.length <= 2_000, `${ctx.length} characters`);
    assert.doesNotMatch(ctx, /LaunchDarkly|CDN|pino/, 'unrelated items stay out');
    const again = await prompt('p-1', 'Still about the postgres pool: does the pooling work now?');
    assert.equal(again.code, 0, again.stderr);
    assert.equal(contextOf(again.stdout), null, 'already given in this session');
    // another session gets it again
    const other = await prompt('p-2', 'How does the postgres connection pool work?');
    assert.ok(contextOf(other.stdout)?.includes(dbId), other.stdout);
  });

  test('an unrelated prompt injects nothing', async () => {
    for (const text of ['Please write a haiku about autumn leaves falling in the garden.', 'What is the capital of France?', 'fix the tests']) {
      const r = await prompt('p-3', text);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(contextOf(r.stdout), null, `${text} → ${r.stdout}`);
    }
  });

  test('Gemini CLI gets BeforeAgent context without < or >', async () => {
    const r = await prompt('g-1', 'The postgres connection pool <Pool> leaks clients, fix the pooling', 'gemini', true);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    assert.equal(out.hookSpecificOutput.hookEventName, 'BeforeAgent');
    assert.ok(out.hookSpecificOutput.additionalContext.includes(dbId));
    assert.doesNotMatch(out.hookSpecificOutput.additionalContext, /[<>]/);
    const none = await prompt('g-2', 'Please write a haiku about autumn leaves', 'gemini');
    assert.deepEqual(JSON.parse(none.stdout), {}, 'Gemini: no objection, no context');
  });

  test("Gemini CLI: the session start's context it prepends to the first prompt is not searched, only the user's words", async () => {
    // headless Gemini CLI hands BeforeAgent the prompt with the start's context in front, in <hook_context>
    const start = `<hook_context># Project knowledge (axme)\n## Relevant\n- decision ${dbId} ${DB_TITLE}: the postgres connection pool in src/db.ts</hook_context>\n\n`;
    const r = await prompt('g-3', `${start}Please write a haiku about autumn leaves`, 'gemini');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), {}, r.stdout);
    const about = await prompt('g-4', `${start}The postgres connection pool leaks clients, fix the pooling`, 'gemini');
    assert.ok(contextOf(about.stdout)?.includes(dbId), about.stdout);
  });

  test('items the session start listed are not injected again', async () => {
    const start = await hookInProcess('session-start', {
      cwd: dir,
      env,
      input: JSON.stringify({ session_id: 's-1', cwd: dir, hook_event_name: 'SessionStart', source: 'startup' }),
    });
    assert.equal(start.code, 0, start.stderr);
    assert.ok(contextOf(start.stdout)?.includes(dbId), 'the start lists the decision');
    const r = await prompt('s-1', 'The postgres connection pool leaks clients, fix the pooling');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(contextOf(r.stdout), null, r.stdout);
  });

  test('a prompt hook that fails exits 0 with nothing injected and a line on stderr', async () => {
    const r = await axme(dir, ['hook', 'user-prompt-submit'], { env, input: 'not json' });
    assert.equal(r.code, 0);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /axme hook user-prompt-submit/);
  });

  const edit = (session: string, tool: string, input: Record<string, unknown>, client?: 'codex', binary = false) =>
    (binary ? hookBinary : hookInProcess)('pre-tool-use', {
      cwd: dir,
      env,
      client,
      input: JSON.stringify({
        session_id: session,
        transcript_path: '/tmp/t.jsonl',
        cwd: dir,
        hook_event_name: 'PreToolUse',
        tool_name: tool,
        tool_input: input,
      }),
    });

  test('an edit of an anchored file carries its items once per file per session; the decision is unchanged', async () => {
    const first = await edit('e-1', 'Edit', { file_path: join(dir, 'src', 'db.ts'), old_string: 'a', new_string: 'b' }, undefined, true);
    assert.equal(first.code, 0, first.stderr);
    const out = JSON.parse(first.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string; permissionDecision?: string } };
    assert.equal(out.hookSpecificOutput.hookEventName, 'PreToolUse');
    assert.equal(out.hookSpecificOutput.permissionDecision, undefined, 'no allow: the client still asks as it would');
    assert.ok(out.hookSpecificOutput.additionalContext.includes(`${dbId} ${DB_TITLE}`), out.hookSpecificOutput.additionalContext);
    const second = await edit('e-1', 'Write', { file_path: 'src/db.ts', content: 'x' });
    assert.equal(second.code, 0, second.stderr);
    assert.equal(second.stdout, '', 'once per file per session');
    // a file no anchor covers: nothing
    const plain = await edit('e-2', 'Edit', { file_path: join(dir, 'src', 'app.ts'), old_string: 'a', new_string: 'b' });
    assert.equal(plain.stdout, '');
    // a prompt later in the session does not repeat what the edit gave
    const p = await prompt('e-1', 'The postgres connection pool leaks clients, fix the pooling');
    assert.equal(contextOf(p.stdout), null, p.stdout);
  });

  test('a denied edit of an anchored file stays a plain deny', async () => {
    // an edit of a *.pem reads it, which the built-in rules deny (secrets.paths); a decision is anchored to the folder
    const r = await edit('e-3', 'Edit', { file_path: join(dir, 'certs', 'server.pem'), old_string: 'a', new_string: 'b' });
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { hookSpecificOutput: { permissionDecision: string; additionalContext?: string } };
    assert.equal(out.hookSpecificOutput.permissionDecision, 'deny');
    assert.equal(out.hookSpecificOutput.additionalContext, undefined);
  });

  test('Codex: an apply_patch of an anchored file carries the items', async () => {
    const patch = '*** Begin Patch\n*** Update File: src/db.ts\n@@\n-a\n+b\n*** End Patch\n';
    const r = await edit('c-1', 'apply_patch', { input: patch }, 'codex', true);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } };
    assert.ok(out.hookSpecificOutput.additionalContext.includes(dbId));
  });

  test('the session record lists what each source gave', () => {
    const sessions = join(dir, '.git', 'axme', 'sessions');
    const id = readFileSync(join(sessions, 'harness', 'claude-code-e-1'), 'utf8').trim();
    const given = readFileSync(join(sessions, id, 'given.jsonl'), 'utf8');
    assert.match(given, /"decision use-connection-pooling-for-postgres"/, 'an item by its file name, which no renumbering changes');
    assert.match(given, /"file src\/db.ts"/);
    assert.match(given, /"pre-edit"/);
  });

  test('axme init registers UserPromptSubmit for Claude Code', async () => {
    await initCore(dir, { claude: true, gitHooks: true, scan: 'if-new' }, { env });
    const settings = JSON.parse(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8'));
    assert.ok(settings.hooks.UserPromptSubmit[0].hooks[0].command.endsWith('hook user-prompt-submit'));
  });
});
