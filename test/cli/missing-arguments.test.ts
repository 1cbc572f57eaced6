import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { usageOf } from '../../src/cli/operation-command.ts';
import { OPERATIONS } from '../../src/operations/index.ts';
import { axmeIn } from '../cli-in-process.ts';
import { axme, tempRepo } from '../helpers.ts';

// A command line that leaves out a positional argument is told which one and the whole usage
// (exit 2), by one path in src/cli/main.ts for every command: run in-process through that path
// (axmeIn), and through the built binary for what the process itself shows (its exit status and
// stderr, as text and as --json).

describe('a missing positional argument is a usage error that says what to give', () => {
  let repo: ReturnType<typeof tempRepo>;
  before(() => {
    repo = tempRepo({ commit: true });
  });
  after(() => repo.cleanup());

  // the first through the built binary (the process's exit status and stderr), the others in-process
  const cases: Array<[args: string[], message: string, binary?: 'binary']> = [
    [['question', 'answer'], 'give <question_id> and <answer>: axme question answer <question_id> <answer>', 'binary'],
    [['audit'], 'give <transcript>: axme audit <transcript>'],
    [['decision', 'show'], 'give <id>: axme decision show <id>'],
    [['memory', 'remove'], 'give <slug>: axme memory remove <slug>'],
    [['question', 'answer', 'Q-001'], 'give <answer>: axme question answer <question_id> <answer>'],
    [['import', 'adr'], 'give <dir>: axme import adr <dir>'],
  ];
  for (const [args, message, binary] of cases) {
    test(`axme ${args.join(' ')}${binary ? ' (the built binary)' : ''}`, async () => {
      const r = binary ? await axme(repo.dir, args) : await axmeIn(repo.dir, args);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stdout, '');
      assert.equal(r.stderr, `axme: ${message} (see axme --help, or axme <command> --help)\n`);
    });
  }

  test('with --json the same message is the error object on stderr', async () => {
    const r = await axme(repo.dir, ['decision', 'revoke', '--json']);
    assert.equal(r.code, 2);
    assert.deepEqual(JSON.parse(r.stderr), {
      error: { code: 'USAGE', message: 'give <id>: axme decision revoke <id> (see axme --help, or axme <command> --help)' },
    });
  });

  test('every command with a required positional, run without its positionals, names them and its usage', async () => {
    const required = OPERATIONS.filter((op) => op.cli && usageOf(op).includes('<'));
    assert.ok(required.length >= 20, `${required.length} commands`);
    for (const op of required) {
      const { code, stderr } = await axmeIn(repo.dir, op.cli!.command);
      assert.equal(code, 2, `${op.id}: ${stderr}`);
      assert.doesNotMatch(stderr, /non-option arguments/, op.id);
      assert.match(stderr, /^axme: (give <|say )/, op.id);
    }
  });
});
