/**
 * The guard's two readers of the disk inside the real clients: the pre-tool-use hook judges `git
 * restore <name>` / `git checkout -- <name>` by what the disk holds at the name (a folder's
 * uncommitted edits would all go; a file is one the model names), and `git remote set-url origin
 * <url>` by the host of the URL the repository's config holds now (another host is denied, the
 * same host another way passes). Each name and URL is chosen so that its spelling alone would
 * give the other answer: `docs.v2` reads as a file but is a folder, `bin/setup` reads as a folder
 * but is a file, and a remote whose URL is not read is never "moved".
 *
 * One session a client, its model asking for the four commands in turn; each check reads what the
 * disk and git hold afterwards and what the client handed back to the model for its step.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, type TestContext, test } from 'node:test';
import { git } from '../helpers.ts';
import { anthropic, resultOfStep as claudeResult } from './anthropic.ts';
import { describeRun, runClaude } from './claude-code.ts';
import { closeCodexLab, codexLab, runCodex } from './codex.ts';
import { explain, runGemini } from './gemini.ts';
import { resultOfStep as geminiResult, geminiWire } from './gemini-wire.ts';
import { type ScriptedModel, type Step, startModel, type WireFormat } from './model-server.ts';
import { type ClientWorld, inClientWorld } from './project.ts';
import { claudeShellResults, codexShellResults, geminiShellResults } from './shell-calls.ts';

const TEST = { timeout: 600_000 };
const ORIGIN = 'https://github.com/acme/demo.git';
const SAME_HOST = 'git@github.com:acme/demo.git';
const DOCS = 'docs.v2/index.md';
const SETUP = 'bin/setup';
const COMMITTED = { [DOCS]: '# Docs, version 2\n', [SETUP]: '#!/bin/sh\nnpm ci\n' } as const;
const EDITED = { [DOCS]: '# Docs, version 2\nUNSAVED-DOCS-EDIT\n', [SETUP]: '#!/bin/sh\nnpm ci\nSCRATCH-LINE\n' } as const;

/** What the model asks for, in this order, and what each must come to. */
const CASES = [
  { command: 'git restore docs.v2', denied: /`git restore` of docs\.v2 \(a folder on disk\) throws away every uncommitted change/ },
  { command: `git checkout -- ${SETUP}`, denied: null },
  { command: 'git remote set-url origin https://other.example/x.git', denied: /moves the remote origin from github\.com to other\.example/ },
  { command: `git remote set-url origin ${SAME_HOST}`, denied: null },
] as const;

/** The world's project as the checks need it: a folder and a file committed, both edited since, `origin` on a host. */
function plant(w: ClientWorld): void {
  for (const [path, text] of Object.entries(COMMITTED)) {
    mkdirSync(join(w.project, path, '..'), { recursive: true });
    writeFileSync(join(w.project, path), text);
  }
  git(w.project, ['add', '-A']);
  git(w.project, ['commit', '-q', '-m', 'Docs v2 and the setup script']);
  // the tests' environment turns the sync at a session's start off (cleanEnv): nothing goes to this host
  git(w.project, ['remote', 'set-url', 'origin', ORIGIN]);
  for (const [path, text] of Object.entries(EDITED)) writeFileSync(join(w.project, path), text);
}

/** How a client tells its model of a call: denied by the hook (the reason inside), or run with no output. */
interface Shapes {
  denied: RegExp;
  ran: RegExp;
}

/**
 * The checks, one subtest a case: what the model was handed for its step (`results`, as text, in
 * the order of CASES) in the client's `shapes`, and what the disk and git hold after the session.
 */
async function check(t: TestContext, w: ClientWorld, results: string[], shapes: Shapes): Promise<void> {
  const read = (path: string) => readFileSync(join(w.project, path), 'utf8');
  const url = () => git(w.project, ['remote', 'get-url', 'origin']).trim();
  await t.test('git restore docs.v2, a folder named like a file: denied, its edits still on disk', () => {
    assert.match(results[0]!, CASES[0].denied, results[0]);
    assert.match(results[0]!, shapes.denied, results[0]);
    assert.equal(read(DOCS), EDITED[DOCS]);
  });
  await t.test('git checkout -- bin/setup, a file named like a folder: runs, the file is back as committed', () => {
    assert.match(results[1]!, shapes.ran, results[1]);
    assert.equal(read(SETUP), COMMITTED[SETUP]);
  });
  await t.test("git remote set-url origin to another host: denied, origin's URL unchanged", () => {
    assert.match(results[2]!, CASES[2].denied, results[2]);
    assert.match(results[2]!, shapes.denied, results[2]);
    // the last case moved it to ssh on the same host: never to other.example
    assert.doesNotMatch(git(w.project, ['config', '--get-all', 'remote.origin.url']), /other\.example/);
  });
  await t.test("git remote set-url origin, https to ssh on the same host: runs, origin's URL is the ssh one", () => {
    assert.match(results[3]!, shapes.ran, results[3]);
    assert.equal(url(), SAME_HOST);
  });
}

/** Runs `fn` in a fresh world for `agents` (planted) with a scripted model of `format`; both removed afterwards. */
const inWorld = (agents: string, format: WireFormat, fn: (w: ClientWorld, m: ScriptedModel) => Promise<void>) =>
  inClientWorld(agents, format, (w, m) => {
    plant(w);
    return fn(w, m);
  });

const PROMPT = 'Tidy the working tree and the remote.';

describe("the guard's readers of the disk in the real clients", () => {
  test('Claude Code: a restore judged by the disk, a remote move by git config', TEST, (t) =>
    inWorld('claude-code', anthropic, async (w, m) => {
      const results = await claudeShellResults(w, m, PROMPT, CASES);
      await check(t, w, results, { denied: /^PreToolUse:Bash hook error: axme safety: /, ran: /^\(Bash completed with no output\)$/ });
    }),
  );

  test('Codex: a restore judged by the disk, a remote move by git config', TEST, async (t) => {
    const l = await codexLab();
    try {
      plant(l.world);
      const results = await codexShellResults(l, PROMPT, CASES);
      await check(t, l.world, results, { denied: /^Command blocked by PreToolUse hook: axme safety: /, ran: /Process exited with code 0\n/ });
    } finally {
      await closeCodexLab(l);
    }
  });

  test('Gemini CLI: a restore judged by the disk, a remote move by git config', TEST, (t) =>
    inWorld('gemini', geminiWire, async (w, m) => {
      const results = await geminiShellResults(w, m, PROMPT, CASES);
      // a command Gemini CLI ran: its output inside <untrusted_context> (for the checkout, which runs git hooks, the hook put git's hooks path back in the command, and Gemini says so after it)
      await check(t, w, results, { denied: /^Tool execution blocked: axme safety: /, ran: /^<untrusted_context>\nOutput: \(empty\)\n/ });
    }),
  );
});
