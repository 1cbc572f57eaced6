/**
 * The file tools (Write, Edit, MultiEdit, NotebookEdit, and Codex's apply_patch, which the Codex
 * adapter turns into Writes) on a file of the project's history — `.git/HEAD`, `packed-refs`, the
 * objects, the branches and tags — are judged as the shell's write to it is (docs/safety.md,
 * removal: "a write, edit or removal of one of those files by any program or redirection"): `>
 * .git/packed-refs` was denied while a Write of empty content to it passed. Git's other files
 * (the index lock, a rebase's state, `info/exclude`, a remote's refs) stay the agent's.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { evaluate } from '../../src/safety/evaluate.ts';
import { defaultPolicy } from '../../src/safety/policy.ts';
import { ROOT, safetyContext } from './context.ts';

const verdict = async (tool: string, file: string) =>
  (await evaluate({ tool, input: { file_path: `${ROOT}/${file}`, content: '', old_string: 'a', new_string: 'b' } }, defaultPolicy(), safetyContext())).decision;

describe("the file tools on the project's history", () => {
  for (const file of ['.git/HEAD', '.git/packed-refs', '.git/refs/heads/main', '.git/objects/pack/pack-1.pack', '.git/refs/tags/v1']) {
    for (const tool of ['Write', 'Edit']) test(`${tool} ${file} is denied`, async () => assert.equal(await verdict(tool, file), 'deny'));
  }
  for (const file of [
    '.git/info/exclude',
    '.git/index.lock',
    '.git/rebase-merge/done',
    '.git/refs/remotes/origin/main',
    '.git/COMMIT_EDITMSG',
    'src/a.ts',
    'git/HEAD',
  ]) {
    test(`Write ${file} passes`, async () => assert.equal(await verdict('Write', file), 'allow'));
  }
});
