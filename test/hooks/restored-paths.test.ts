/**
 * A checkout or restore of a folder throws away the uncommitted work under it (P2, as `git
 * checkout -- .`), while one of a file does not. The engine tells them apart by the name when it
 * cannot look (`src/` or `*.ts` many files, a name with an extension one); the pre-tool-use hook
 * looks at the disk, so a file with no extension (`bin/setup`) is a file and a folder named like
 * one (`docs.v2`, `Sources`) is a folder. A real repository through the built hook.
 */
import assert from 'node:assert/strict';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { git, tempRepo } from '../helpers.ts';
import { hookInProcess } from './hook-in-process.ts';

describe('pre-tool-use: a checkout or restore of a folder, told from one of a file by the disk', () => {
  let dir: string;
  let cleanup: () => void;
  before(() => {
    ({ dir, cleanup } = tempRepo({ commit: true }));
    dir = realpathSync(dir);
    for (const f of ['bin/setup', 'scripts/release', 'Sources/App/main.swift', 'docs.v2/index.md', 'src/cli/main.ts', 'Makefile']) {
      mkdirSync(join(dir, f, '..'), { recursive: true });
      writeFileSync(join(dir, f), 'x\n');
    }
    git(dir, ['add', '-A']);
    git(dir, ['commit', '-qm', 'files']);
  });
  after(() => cleanup());

  const decision = async (command: string) => {
    const input = JSON.stringify({
      session_id: 's1',
      transcript_path: join(dir, 't.jsonl'),
      cwd: dir,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command },
    });
    const r = await hookInProcess('pre-tool-use', { cwd: dir, input });
    assert.equal(r.code, 0, r.stderr);
    return r.stdout.trim() === '' ? 'allow' : (JSON.parse(r.stdout).hookSpecificOutput.permissionDecision as string);
  };
  const reason = async (command: string): Promise<string> => {
    const input = JSON.stringify({ session_id: 's1', cwd: dir, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } });
    const r = await hookInProcess('pre-tool-use', { cwd: dir, input });
    return JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason as string;
  };

  for (const command of [
    'git checkout -- bin/setup',
    'git restore scripts/release',
    'git checkout HEAD~1 -- bin/setup',
    'git checkout -- Makefile',
    'git restore src/cli/main.ts',
  ])
    test(`a file: ${command} passes`, async () => assert.equal(await decision(command), 'allow'));

  for (const command of ['git checkout -- Sources', 'git restore docs.v2', 'git checkout HEAD -- src/cli', 'git restore src', 'git checkout -- src/'])
    test(`a folder: ${command} is denied`, async () => assert.equal(await decision(command), 'deny'));

  test('the reason says what decided: the disk for a folder it holds, the spelling for a name it does not', async () => {
    assert.match(await reason('git restore docs.v2'), /docs\.v2 \(a folder on disk\)/);
    assert.match(await reason('git restore gone'), /gone \(a name without an extension, which the disk does not hold here, is taken for a folder\)/);
  });
});
