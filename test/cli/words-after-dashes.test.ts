import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { axmeIn } from '../cli-in-process.ts';
import { useStore } from '../store-fixture.ts';
import { type Arg, everyCommand, type Leaf } from './command-options.ts';

// After `--` every word is a positional word of the command, whatever it starts with, for every
// command (POSIX's and git's `--`): `axme question show -- Q-002` is `axme question show Q-002`.
// A sweep over the CLI's one table (test/cli/command-options.ts): each command that takes a
// positional word, run with its words before `--` and after it, on two copies of one store, must
// answer the same (exit code, stdout, stderr), in-process.

/** Commands left out: their words are another protocol's (an agent harness's hook, a git hook), passed on as they come. */
const OTHER_PROTOCOL = new Set(['hook', 'git-hook']);

/** The words a command is given where a placeholder would only be refused: items the store holds, so the answer says they were read. */
const WORDS: Record<string, string[]> = {
  history: ['D-001'],
  'decision show': ['D-001'],
  'decision amend': ['D-001'],
  'decision supersede': ['D-001'],
  'decision revoke': ['D-001'],
  'memory show': ['cache-keys-are-namespaced'],
  'memory update': ['cache-keys-are-namespaced'],
  'memory supersede': ['cache-keys-are-namespaced'],
  'memory remove': ['cache-keys-are-namespaced'],
  'backlog show': ['B-001'],
  'backlog update': ['B-001'],
  'question ask': ['Which cloud?'],
  'question show': ['Q-001'],
  'question answer': ['Q-001', 'eu-west-1'],
  'question status': ['Q-001', 'archived'],
  reconfirm: ['D-001'],
  diff: ['refs/memory/main~1'],
  check: ['refs/memory/main'],
  'show-commit': ['refs/memory/main'],
  blame: ['D-001'],
  search: ['Valkey', 'caching'],
  'safety add': ['bash_deny', 'terraform destroy'],
  'safety remove': ['bash_deny', 'terraform destroy'],
  'safety set': ['git.allowForcePush', 'false'],
};

/** A placeholder for an argument: its first choice, a number, or a word. */
const filler = (a: Arg) => (a.choices?.length ? String(a.choices[0]) : a.type === 'number' ? '1' : 'x');

/** The positional words of a row: the table's, else one for each required word (the first optional one when none is required). */
function wordsOf(leaf: Leaf): string[] {
  const given = WORDS[leaf.words.join(' ')];
  if (given) return given;
  const positional = leaf.args.filter((a) => a.positional);
  const required = positional.filter((a) => a.required);
  return (required.length ? required : positional.slice(0, 1)).map(filler);
}

/** The required options of a command, filled in. */
const optionsOf = (leaf: Leaf) => leaf.args.filter((a) => !a.positional && a.required).flatMap((a) => [`--${a.name}`, filler(a)]);

/** One clock for every run: two copies given one command write the same commits. */
const CLOCK = { AXME_NOW: '2026-11-30T12:00:00.000Z', GIT_AUTHOR_DATE: '2026-11-30T12:00:00Z', GIT_COMMITTER_DATE: '2026-11-30T12:00:00Z' };

describe('after `--`, words are the command positional words: every command that takes one', () => {
  const repo = useStore();
  const copies = mkdtempSync(join(tmpdir(), 'axme-dashes-'));
  after(() => rmSync(copies, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }));
  let leaves: Leaf[] = [];
  before(async () => {
    leaves = (await everyCommand()).filter((l) => !OTHER_PROTOCOL.has(l.words[0]!) && l.args.some((a) => a.positional));
    await repo.addDecision({ title: 'Use Valkey for caching', decision: 'Valkey replaces Redis.' });
    await repo.addMemory({ type: 'pattern', title: 'Cache keys are namespaced', description: 'service:entity:id' });
    await repo.addBacklog({ title: 'Add request logging' });
    await repo.ask('Which region?');
  });

  test('the sweep covers every command with a positional word, and the table names only such commands', () => {
    const names = leaves.map((l) => l.words.join(' '));
    assert.ok(names.length >= 30, names.join(', '));
    for (const named of Object.keys(WORDS)) assert.ok(names.includes(named), `WORDS names ${named}: no such command with a positional word`);
  });

  test('each command answers the same with its words after `--` as before it', async () => {
    const differ: string[] = [];
    let n = 0;
    for (const leaf of leaves) {
      const words = wordsOf(leaf);
      const lines = { before: [...leaf.words, ...words, ...optionsOf(leaf)], after: [...leaf.words, ...optionsOf(leaf), '--', ...words] };
      const answers: Record<string, string> = {};
      for (const [which, argv] of Object.entries(lines)) {
        const dir = join(copies, `${++n}`);
        cpSync(repo.dir, dir, { recursive: true });
        const r = await axmeIn(dir, argv, { env: { ...CLOCK, XDG_CACHE_HOME: join(dir, '.cache') } });
        // a new token is random: its value is not the command's reading of its words
        answers[which] = `exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`.replaceAll(dir, '<dir>').replace(/\baxme_[\w-]{20,}/g, '<token>');
        rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
      }
      assert.doesNotMatch(answers.before!, /give <|Unknown argument|Not enough/, `axme ${lines.before.join(' ')} is a complete command line`);
      if (answers.before !== answers.after) differ.push(`axme ${lines.after.join(' ')}\n  ${answers.after}\n  before --: ${answers.before}`);
    }
    assert.deepEqual(differ, [], `${differ.length} of ${leaves.length} commands read their words after -- otherwise:\n${differ.join('\n')}`);
  });

  test('a word after `--` that starts with "-" is the word, said by the command; a word too many is said as such', async () => {
    const rows: Array<[string[], RegExp]> = [
      [['question', 'show', '--', '-Q-001'], /"-Q-001" is neither an ID/],
      [['decision', 'show', '--json', '--', '--no-such'], /"--no-such" is neither an ID/],
      [['question', 'show', '--', 'Q-001', '--all'], /^axme: "--all" is one word too many: axme question show <id> \(see axme --help/],
    ];
    for (const [argv, said] of rows) {
      const r = await axmeIn(repo.dir, argv);
      assert.equal(r.code, 2, `${argv.join(' ')}: ${r.stderr}`);
      assert.match(argv.includes('--json') ? JSON.parse(r.stderr).error.message : r.stderr, said, argv.join(' '));
    }
  });
});
