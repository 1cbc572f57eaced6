import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cliName } from '../../src/cli/operation-command.ts';
import { OPERATIONS } from '../../src/operations/index.ts';
import { axmeIn } from '../cli-in-process.ts';
import { useStore } from '../store-fixture.ts';

// An option the command does not have is named first (exit 2), with the known one spelt nearest,
// even when a required option is missing too: `--titel x` is why --title is missing.

describe('an unknown option is named before anything missing, with the nearest known one', () => {
  const repo = useStore();

  const rows: Array<{ argv: string[]; unknown: string; meant: string | null }> = [
    { argv: ['decision', 'add', '--titel', 'Use Postgres'], unknown: 'titel', meant: 'title' },
    { argv: ['decision', 'add', '--title', 'Use Postgres', '--decison', 'We use Postgres.'], unknown: 'decison', meant: 'decision' },
    { argv: ['memory', 'add', '--tilte=Run tsx', '--description', 'd', '--type', 'feedback'], unknown: 'tilte', meant: 'title' },
    { argv: ['backlog', 'add', '--title', 'x', '--priorty', 'high'], unknown: 'priorty', meant: 'priority' },
    { argv: ['decision', 'add', '--title', 'x', '--decision', 'y', '--anchors', 'src/a.ts'], unknown: 'anchors', meant: 'anchor' },
    { argv: ['decision', 'add', '--zzzqqq', 'x'], unknown: 'zzzqqq', meant: null },
  ];
  for (const row of rows) {
    test(`axme ${row.argv.join(' ')}`, async () => {
      const r = await axmeIn(repo.dir, row.argv);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stdout, '');
      const first = r.stderr.split('\n')[0]!;
      assert.match(first, new RegExp(`^axme: --${row.unknown} is not an option`), first);
      if (row.meant) assert.ok(first.includes(`did you mean --${row.meant}?`), first);
      else assert.doesNotMatch(first, /did you mean/);
      assert.doesNotMatch(first, /Missing required/);
    });
  }

  test("an option another command has: the command's own are listed, nothing about values", async () => {
    const r = await axmeIn(repo.dir, ['decision', 'add', '--title', 'Use Postgres', '--body', 'We use Postgres.']);
    assert.equal(r.code, 2, r.stderr);
    const first = r.stderr.split('\n')[0]!;
    assert.match(first, /^axme: --body is not an option; the options here: .*--decision.*--reasoning/, first);
    assert.doesNotMatch(first.split(' (see axme')[0]!, /--json|--help|must be attached/, first);
  });

  test('an unknown word right after an option that takes a value: how to give a value that starts with "-"', async () => {
    const r = await axmeIn(repo.dir, ['decision', 'add', '--title', '--draft-title', '--decision', 'y']);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr.split('\n')[0]!, /--draft-title is not an option; .*must be attached \(--title="-x"\)/);
  });

  test('a known option misspelt nowhere still runs', async () => {
    const r = await axmeIn(repo.dir, ['decision', 'add', '--title', 'Use Postgres', '--decision', 'We use Postgres.', '--enforce', 'required']);
    assert.equal(r.code, 0, r.stderr);
  });
});

describe("a command's word given as an option too is refused, never dropped", () => {
  const repo = useStore();
  for (const argv of [
    ['question', 'ask', 'Which region?', '--question', 'Which cloud?'],
    ['question', 'ask', '--question=Which cloud?'],
    ['decision', 'show', '--id', 'D-001'],
  ])
    test(`axme ${argv.join(' ')}`, async () => {
      const before = await axmeIn(repo.dir, ['question', 'list', '--json']);
      const r = await axmeIn(repo.dir, argv);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stdout, '');
      assert.match(
        r.stderr,
        new RegExp(
          `^axme: --${
            argv
              .find((a) => a.startsWith('--'))!
              .slice(2)
              .split('=')[0]
          } is not an option: <\\w+> is a word after the command \\(axme ${argv[0]} ${argv[1]} <`,
        ),
      );
      assert.equal((await axmeIn(repo.dir, ['question', 'list', '--json'])).stdout, before.stdout, 'nothing recorded');
    });
});

// yargs counts a command's words after it (`<answer>`, `<id>`) among the names it knows: they
// were offered as options (`did you mean --answer?`), and taking the advice was refused in turn.
describe("a command's words after it are never offered as options", () => {
  const repo = useStore();
  const withWords = OPERATIONS.filter((op) => op.cli?.positional?.length);

  test('every command with words: each option the message lists is taken by the command', async () => {
    assert.ok(withWords.length > 10);
    for (const op of withWords) {
      const argv = [...op.cli!.command, '--zzzqqq'];
      const r = await axmeIn(repo.dir, argv);
      assert.equal(r.code, 2, `axme ${argv.join(' ')}: ${r.stderr}`);
      const listed = /the options here: ([^(;]*)/.exec(r.stderr)?.[1]?.match(/--[\w-]+/g) ?? [];
      const words = op.cli!.positional!.map((f) => cliName(op, String(f)));
      for (const option of listed) {
        assert.ok(
          !words.some((w) => option === `--${w}` || option === `--${w.replace(/_/g, '-')}`),
          `axme ${argv.join(' ')} lists its word ${option}: ${r.stderr}`,
        );
      }
    }
  });

  test('a near miss of a word is named as the word it is: `--answr` → <answer>, after the command', async () => {
    const r = await axmeIn(repo.dir, ['question', 'answer', 'Q-1', '--answr', 'yes']);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /--answr is not an option: did you mean <answer>\? It is a word after the command/);
    assert.doesNotMatch(r.stderr, /--answer\b/);
  });
});
