import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, test } from 'node:test';
import { z } from 'zod';
import { commandIndexText, withGroups } from '../../scripts/command-index.ts';
import { OPERATION_WORDS } from '../../src/cli/command-index.ts';
import { GROUPS } from '../../src/cli/command-line.ts';
import { HAND_COMMANDS, topLevelWords } from '../../src/cli/command-tree.ts';
import { type GroupHelp, TOP_LEVEL_HELP } from '../../src/cli/group-help.ts';
import { run } from '../../src/cli/main.ts';
import { usageOf } from '../../src/cli/operation-command.ts';
import { operationTree } from '../../src/cli/operation-tree.ts';
import { OPERATIONS } from '../../src/operations/index.ts';
import { type AnyOperation, defineOperation, READ } from '../../src/operations/operation.ts';
import { quiet, subcommandWords } from './command-options.ts';

// The CLI tree is derived from the operations' command words (src/cli/operation-tree.ts); its
// start-up index is generated (scripts/command-index.ts). These check the derivation, in process.

const root = join(import.meta.dirname, '../..');
const CLI_OPS = OPERATIONS.filter((op) => op.cli);
/** The groups of operations and their help (the non-null entries of the one table). */
const HELPED_GROUPS = Object.entries(TOP_LEVEL_HELP).filter((e): e is [string, GroupHelp] => e[1] !== null);

/** An in-process CLI: what `run` prints and its exit code. */
async function cli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const sink = (add: (s: string) => void) => new Writable({ write: (c, _e, cb) => (add(String(c)), cb()) });
  const io = {
    cwd: tmpdir(),
    env: {},
    stdin: process.stdin,
    stdout: sink((s) => (stdout += s)),
    stderr: sink((s) => (stderr += s)),
    self: null,
  };
  const code = await run(argv, io);
  return { code, stdout, stderr };
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('the CLI tree, from the operations', () => {
  test("every operation with command words is reachable: its parent's help lists it with its usage", async () => {
    // a parent's help is printed once and read for each of its operations (the same text every time)
    const helps = new Map<string, ReturnType<typeof cli>>();
    const helpOf = (parent: string[]) => helps.get(parent.join(' ')) ?? helps.set(parent.join(' '), cli([...parent, '--help'])).get(parent.join(' '))!;
    for (const op of CLI_OPS) {
      const words = op.cli!.command;
      const group = words.length > 1 || CLI_OPS.some((o) => o !== op && o.cli!.command[0] === words[0]);
      const parent = group ? [words[0]!] : [];
      const r = await helpOf(parent);
      assert.equal(r.code, 0, `${op.id}: ${r.stderr}`);
      const usage =
        words.length > 1 ? `axme ${words[0]} ${usageOf(op)}` : group ? `axme ${words[0]} ${usageOf(op).split(' ').slice(1).join(' ')}` : `axme ${usageOf(op)}`;
      assert.match(r.stdout, new RegExp(`^  ${escape(usage)} `, 'm'), `${op.id}: axme ${[...parent, '--help'].join(' ')} lists ${usage}`);
      for (const alias of op.cli!.aliases ?? [])
        assert.match(r.stdout, new RegExp(`^  ${escape(usage)} .*\\[aliases: ${alias}\\]`, 'm'), `${op.id}: alias ${alias}`);
      // the command itself runs its own help (a group's default shows the group's)
      const own = await cli([...words, '--help']);
      assert.equal(own.code, 0, `${op.id}: ${own.stderr}`);
      assert.match(own.stdout, new RegExp(`^axme ${escape(words.join(' '))}`), op.id);
    }
  });

  test("a line without its subcommand is told the subcommands, in the help's order", async () => {
    for (const [word, help] of HELPED_GROUPS) {
      if (CLI_OPS.some((op) => op.cli!.command.join(' ') === word)) continue; // a default runs instead
      const r = await cli([word]);
      assert.equal(r.code, 2, word);
      const list = help.words.length > 1 ? `${help.words.slice(0, -1).join(', ')} or ${help.words.at(-1)}` : help.words[0]!;
      assert.equal(r.stderr, `axme: ${help.ask ?? 'say what to do'}: ${list} (see axme --help, or axme <command> --help)\n`);
    }
    // a hand-written group says it the same way
    assert.equal((await cli(['token'])).stderr, 'axme: say what to do: add, list or revoke (see axme --help, or axme <command> --help)\n');
  });

  test("the group help names exactly each group's subcommands (and their aliases)", async () => {
    const found = await subcommandWords();
    for (const [word, help] of HELPED_GROUPS) {
      const ops = CLI_OPS.filter((op) => op.cli!.command[0] === word && op.cli!.command.length > 1);
      const words = ops.flatMap((op) => [op.cli!.command[1]!, ...(op.cli!.aliases ?? [])]);
      assert.deepEqual([...help.words].sort(), words.sort(), `TOP_LEVEL_HELP.${word}`);
      assert.deepEqual(
        found.get(word)?.filter((w) => w !== '$0'),
        help.words,
        `axme ${word} lists its subcommands in the help's order`,
      );
    }
    const groups = [...new Set(CLI_OPS.filter((op) => op.cli!.command.length > 1).map((op) => op.cli!.command[0]!))];
    assert.deepEqual(
      groups.filter((g) => !TOP_LEVEL_HELP[g]),
      [],
      'every group has its help line',
    );
    assert.ok(
      CLI_OPS.every((op) => op.cli!.command.length <= 2),
      'commands are one or two words deep',
    );
  });

  test('a group without help still lists its operations, asks for one, and runs the default', () => {
    const input = { name: z.string().describe('a name') };
    const op = (command: string[]): AnyOperation =>
      defineOperation({
        id: command.join('.'),
        summary: 'Do it',
        description: 'Does it.',
        input,
        output: z.object({}),
        annotations: READ,
        write: false,
        cli: { command, positional: ['name'] },
        mcp: null,
        json: () => ({}),
        text: () => '',
        run: async () => ({}),
      });
    const subs: string[] = [];
    const y = { command: (c: { command: string }) => (subs.push(c.command), y), demandCommand: (_n: number, msg: string) => (subs.push(`! ${msg}`), y) };
    const group = operationTree(quiet, 'thing', [op(['thing', 'one']), op(['thing', 'two'])]);
    assert.equal(group.command, 'thing');
    (group.builder as (y: unknown) => unknown)(y);
    assert.deepEqual(subs, ['one <name>', 'two <name>', '! say what to do: one or two']);
    subs.length = 0;
    (operationTree(quiet, 'thing', [op(['thing']), op(['thing', 'log'])]).builder as (y: unknown) => unknown)(y);
    assert.deepEqual(subs, ['log <name>', '$0 <name>']);
  });

  test("the one table of top-level words names each word once, in the help's order; the hand-written commands are no operation's", async () => {
    const words = [...HAND_COMMANDS.flatMap((h) => h.words), ...Object.keys(OPERATION_WORDS)];
    assert.equal(new Set(words).size, words.length, "no word is both an operation's and a hand-written command's");
    const listed = Object.keys(TOP_LEVEL_HELP);
    assert.deepEqual(
      words.filter((w) => !listed.includes(w)),
      [],
      'every top-level word has its entry in TOP_LEVEL_HELP (src/cli/group-help.ts)',
    );
    assert.deepEqual(
      listed.filter((w) => !words.includes(w)),
      [],
      'TOP_LEVEL_HELP names no word that is not a command',
    );
    assert.deepEqual(topLevelWords(), listed, 'the help lists the words in the order of the table');
    const hand = HAND_COMMANDS.flatMap((h) => h.words);
    assert.deepEqual(
      hand.filter((w) => TOP_LEVEL_HELP[w] !== null),
      [],
      'a hand-written command has its help in its own module',
    );
    assert.deepEqual([...(await subcommandWords()).keys()], topLevelWords());
  });

  test('each hand-written entry names exactly the commands its module defines', async () => {
    for (const entry of HAND_COMMANDS) {
      const loaded = await entry.load(quiet);
      assert.deepEqual(
        loaded.map((c) => String(c.command).split(' ')[0]),
        entry.words,
        entry.words.join(', '),
      );
    }
  });

  test("GROUPS (the loader's) are the commands with subcommands", async () => {
    const withSubcommands = [...(await subcommandWords())].filter(([, subs]) => subs.length).map(([w]) => w);
    assert.deepEqual(withSubcommands.sort(), [...GROUPS].sort());
  });
});

describe('the start-up index, generated', () => {
  test('src/cli/command-index.ts and the GROUPS block are what the declarations give (npm run docs writes them)', async () => {
    assert.equal(readFileSync(join(root, 'src/cli/command-index.ts'), 'utf8'), await commandIndexText());
    const line = readFileSync(join(root, 'src/cli/command-line.ts'), 'utf8');
    assert.equal(withGroups(line), line);
  });

  test('each word loads exactly its operations, in the order of OPERATIONS', async () => {
    const byWord = new Map<string, AnyOperation[]>();
    for (const op of CLI_OPS) byWord.set(op.cli!.command[0]!, [...(byWord.get(op.cli!.command[0]!) ?? []), op]);
    assert.deepEqual(Object.keys(OPERATION_WORDS).sort(), [...byWord.keys()].sort());
    for (const [word, load] of Object.entries(OPERATION_WORDS)) {
      const loaded = await load();
      assert.equal(loaded.length, byWord.get(word)!.length, word);
      loaded.forEach((op, i) => assert.equal(op, byWord.get(word)![i], `${word}: ${op?.id}`));
    }
  });
});
