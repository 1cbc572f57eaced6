import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { axmeIn } from '../cli-in-process.ts';
import { CLI, type CliResult, cleanEnv, git } from '../helpers.ts';
import { useStore } from '../store-fixture.ts';
import { type Arg, everyCommand, type Leaf } from './command-options.ts';

// Bad input never passes silently: every command of the CLI's one table (test/cli/command-options.ts
// reads it from the commands' own builders) and every argument of it, fed the classes of bad input
// a person or a script gives: a number option given something that is no number, or out of range;
// an empty positional word; a value no choice names; a file or folder that does not exist; options
// that do not go together. Each must be a usage error (exit 2) naming what was wrong on stderr,
// nothing on stdout, nothing written to the store. In-process (test/cli-in-process.ts), except the
// commands that take over their process (serve, ui: the built binary, stopped if it ever starts).

/** Commands left out: their exit codes speak another protocol (an agent harness's hook, a git hook), where 2 means "block". */
const OTHER_PROTOCOL = new Set(['hook', 'git-hook']);

/** Arguments that name a file or folder that must exist (the table says "string"; these read one). Each is checked to exist in the table. */
const INPUT_PATHS: ReadonlyArray<[command: string, arg: string]> = [
  ['import auto-memory', '--dir'],
  ['import adr', '<dir>'],
  ['import axme-code', '<path>'],
  ['audit', '<transcript>'],
  ['models eval', '<file>'],
  ['models pull', '--manifest'],
  ['serve', '--tokens'],
];

/**
 * A file named that may not exist yet by design, where the command says so on stderr instead of
 * refusing: `serve --http --tokens <file>` runs before its first token is added (the server rereads
 * the file), so a missing file is said at start, never passed over.
 */
const SAID_NOT_REFUSED = /the tokens file \S+ \(--tokens\) does not exist/;

/** Options that make no sense together (or without another), each a usage error saying which goes with which. */
const NONSENSE: ReadonlyArray<string[]> = [
  ['models', 'pull', 'potion-base-8M', '--manifest', 'm.json'],
  ['serve', '--port', '7000'],
  ['uninstall', '--user'],
  ['uninstall', '--dry-run'],
  ['session', 'recover', 'abc', '--all'],
];

/** Other lines the brief of this sweep named: each a usage error. */
const NAMED: ReadonlyArray<string[]> = [
  ['-C', '', 'status'],
  ['status', '-C', ''],
  ['token', 'revoke', ''],
  ['ui', '--host', ''],
  ['serve', '--http', '--tokens', ''],
  ['token', 'list', '--tokens', ''],
  ['export', 'auto-memory', '--dir', ''],
  ['models', 'pull', 'no-such-model'],
  ['import', 'auto-memory', '--dir', 'no-such-folder'],
  ['search', '--eval', 'no-such-path/file.txt'],
  ['serve', '--http', '--tokens', 'no-such-tokens.json'],
];

const NOT_NUMBERS = ['abc', '-1', '1e999', 'NaN', ''];

interface Row {
  argv: string[];
  /** what stderr must name: the argument given the bad value */
  names: string;
}

const spelt = (a: Arg) => (a.positional ? `<${a.name}>` : `--${a.name}`);

/** A placeholder for an argument the row does not test: its first choice, a number, or a word. */
function filler(a: Arg): string {
  if (a.choices?.length) return String(a.choices[0]);
  return a.type === 'number' ? '1' : 'x';
}

/**
 * The command line of `leaf` with `bad` given `value`, every other required argument filled in.
 * A null value names an option with nothing after it (`--status` alone): yargs reads a list option
 * so as an empty list, which must not pass as "no filter".
 */
function line(leaf: Leaf, bad: Arg, value: string | null): string[] {
  const argv = [...leaf.words];
  for (const a of leaf.args.filter((x) => x.positional)) {
    if (a === bad) argv.push(value ?? '');
    else if (a.required || (bad.positional && leaf.args.indexOf(bad) > leaf.args.indexOf(a))) argv.push(filler(a));
  }
  // the fields a command takes here or on standard input (--stdin <field>): required unless read from it
  const fromStdin = leaf.args.find((x) => x.name === 'stdin')?.choices?.map(String) ?? [];
  for (const a of leaf.args.filter((x) => !x.positional)) {
    if (a === bad) argv.push(value === null ? `--${a.name}` : `--${a.name}=${value}`);
    else if (a.required || fromStdin.includes(a.name)) argv.push(`--${a.name}`, filler(a));
  }
  // the server's flags go with --http
  if (leaf.words[0] === 'serve' && bad.name !== 'http') argv.push('--http');
  return argv;
}

/** Every row of the sweep, from the table. */
function rows(leaves: Leaf[]): Row[] {
  const out: Row[] = [];
  for (const leaf of leaves) {
    if (OTHER_PROTOCOL.has(leaf.words[0]!)) continue;
    for (const a of leaf.args) {
      if (a.type === 'number') for (const v of NOT_NUMBERS) out.push({ argv: line(leaf, a, v), names: spelt(a) });
      if (a.array && !a.positional) out.push({ argv: line(leaf, a, null), names: spelt(a) });
      if (a.choices?.length) out.push({ argv: line(leaf, a, 'no-such-choice'), names: spelt(a) });
      else if (a.positional) out.push({ argv: line(leaf, a, ''), names: spelt(a) });
    }
  }
  for (const [command, name] of INPUT_PATHS) {
    const leaf = leaves.find((l) => l.words.join(' ') === command);
    const arg = leaf?.args.find((a) => spelt(a) === name);
    assert.ok(leaf && arg, `INPUT_PATHS names ${command} ${name}: the table has no such argument`);
    out.push({ argv: line(leaf, arg, 'no-such-path/file.txt'), names: 'no-such-path/file.txt' });
    if (!arg.positional) out.push({ argv: line(leaf, arg, ''), names: name });
  }
  for (const argv of [...NONSENSE, ...NAMED]) out.push({ argv, names: argv.includes('-C') ? '-C' : '' });
  return out;
}

/** A command line through the built binary, stopped the moment it prints on stdout (a server that started: a failure here). */
function binary(cwd: string, argv: string[]): Promise<CliResult> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, ...argv], { cwd, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      child.kill();
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', fail);
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
  });
}

/** Runs one row where its command runs: serve and ui through the binary, the rest in-process. */
const runRow = (cwd: string, argv: string[]) => {
  const word = argv.find((w, i) => !w.startsWith('-') && argv[i - 1] !== '-C');
  return word === 'serve' || word === 'ui' || argv.some((a) => a.startsWith('--auto'))
    ? binary(cwd, argv)
    : axmeIn(cwd, argv, { env: { XDG_CACHE_HOME: join(cwd, '.cache') } });
};

describe('bad input never passes silently: every command and option of the table', () => {
  const repo = useStore();
  let leaves: Leaf[] = [];
  before(async () => {
    leaves = await everyCommand();
  });

  test('the sweep covers every command and every number option of the table', () => {
    const commands = leaves.filter((l) => !OTHER_PROTOCOL.has(l.words[0]!));
    assert.ok(commands.length > 50, `${commands.length} commands`);
    const numbers = commands.flatMap((l) => l.args.filter((a) => a.type === 'number').map((a) => `${l.words.join(' ')} ${spelt(a)}`));
    assert.ok(numbers.length >= 10, numbers.join(', '));
    const all = rows(leaves);
    for (const n of numbers)
      assert.ok(
        all.some((r) => r.argv.join(' ').startsWith(n.split(' --')[0]!)),
        n,
      );
  });

  test('each row is a usage error (exit 2) that names what was wrong; stdout empty; the store unchanged', async (t) => {
    const failed: string[] = [];
    let silent = 0;
    let failures = 0;
    const tip = () => git(repo.dir, ['rev-parse', 'refs/memory/main']);
    const all = rows(leaves);
    for (const row of all) {
      const start = tip();
      const r = await runRow(repo.dir, row.argv);
      const first = r.stderr.split('\n')[0] ?? '';
      // the argument named as the command line spells it, or as the core does (`dir: must not be empty`)
      const named = !row.names || first.includes(row.names) || first.includes(`${row.names.replace(/^-+|^<|>$/g, '')}:`);
      const refused = r.code === 2 && r.stdout === '' && first.startsWith('axme: ') && named;
      const said = row.argv[0] === 'serve' && SAID_NOT_REFUSED.test(r.stderr);
      const ok = (refused || said) && tip() === start;
      if (ok) continue;
      if (r.code === 0) silent++;
      if (r.code === 1) failures++;
      failed.push(
        `axme ${row.argv.map((a) => (a === '' || /\s/.test(a) ? JSON.stringify(a) : a)).join(' ')} -> ${r.code}: ${first || r.stdout.split('\n')[0]}`,
      );
    }
    t.diagnostic(`${all.length} rows, ${failed.length} failed (${silent} exited 0, ${failures} exited 1)`);
    assert.deepEqual(failed, [], `${failed.length} of ${all.length} rows (${silent} exited 0, ${failures} exited 1):\n${failed.join('\n')}`);
  });

  test('a number option says, in one way for every command, what it takes and what it got', async () => {
    for (const [argv, said] of [
      [['log', '--limit', 'abc'], '--limit (-n) takes a whole number from 1 to 1000, not "abc"'],
      [['context', '--budget=-1'], '--budget takes a whole number of at least 1000, not "-1"'],
      [['search', 'x', '--limit', '1e999'], '--limit (-k) takes a whole number from 1 to 100, not "1e999"'],
    ] as const) {
      const r = await axmeIn(repo.dir, [...argv]);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stderr, `axme: ${said}\n`);
      const json = await axmeIn(repo.dir, [...argv, '--json']);
      assert.equal(JSON.parse(json.stderr).error.code, 'INVALID_INPUT');
    }
  });

  test('models pull of a name the catalog lacks is a usage error naming the one meant', async () => {
    const r = await axmeIn(repo.dir, ['models', 'pull', 'potion-base-9M'], { env: { XDG_CACHE_HOME: join(repo.dir, '.cache') } });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /no model named "potion-base-9M" in axme's catalog: did you mean potion-base-8M\?/);
  });
});
