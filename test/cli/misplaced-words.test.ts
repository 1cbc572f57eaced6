import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { axmeIn } from '../cli-in-process.ts';
import { git, tempRepo } from '../helpers.ts';

// A subcommand's word given as the command (`axme add decision`, `axme list`) is a usage error
// (exit 2) that names the commands that have it, in the order the CLI takes them, instead of
// yargs' suggestion of whatever top-level word is spelt nearest.

describe('a subcommand given as the command says which commands have it', () => {
  let repo: ReturnType<typeof tempRepo>;
  before(() => {
    repo = tempRepo({ commit: true });
  });
  after(() => repo.cleanup());

  const usage = (message: string) => `axme: ${message} (see axme --help, or axme <command> --help)\n`;

  test('the group after the verb: the words swapped', async () => {
    const r = await axmeIn(repo.dir, ['add', 'decision', 'Use Postgres']);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, usage('"add" is not a command: did you mean axme decision add?'));
  });

  test('a word that is no command at all: said so, without the advice about values that start with "-" (h/firstday6)', async () => {
    const r = await axmeIn(repo.dir, ['frobnicate']);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, usage('"frobnicate" is not a command'));
  });

  test('the verb alone: every group that has it', async () => {
    const r = await axmeIn(repo.dir, ['add']);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /^axme: "add" is not a command: it is a subcommand of /);
    for (const cmd of ['axme decision add', 'axme memory add', 'axme backlog add']) assert.ok(r.stderr.includes(cmd), r.stderr);
    assert.doesNotMatch(r.stderr, /audit/);
  });

  test('a verb of a group whose word comes later on the line', async () => {
    const r = await axmeIn(repo.dir, ['list', '--json', 'memory']);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(JSON.parse(r.stderr).error.message, '"list" is not a command: did you mean axme memory list? (see axme --help, or axme <command> --help)');
  });

  test('a misspelt command still gets the nearest command', async () => {
    const r = await axmeIn(repo.dir, ['serach', 'logging']);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /search/);
  });
});

describe('a flag that takes one value, given twice, is a usage error that says so', () => {
  let repo: ReturnType<typeof tempRepo>;
  before(() => {
    repo = tempRepo({ commit: true });
  });
  after(() => repo.cleanup());

  const cases: Array<[args: string[], flag: string]> = [
    [['search', 'logging', '-k', '3', '-k', '5'], '--limit'], // -k is --limit's short name
    [['search', 'logging', '--type', 'decision', '--type', 'memory'], '--type'],
    [['decision', 'add', '--title', 'One', '--title', 'Two', '--decision', 'x'], '--title'],
  ];
  for (const [args, flag] of cases)
    test(`axme ${args.join(' ')}`, async () => {
      const r = await axmeIn(repo.dir, args);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, new RegExp(`^axme: ${flag} was given more than once \\(.+\\): give it once`));
    });

  test('a list where one text belongs, in the JSON on stdin, says so (not "given more than once", which is about options)', async () => {
    const r = await axmeIn(repo.dir, ['session', 'finalize'], { input: JSON.stringify({ summary: 'x', next_steps: ['a', 'b'] }) });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /next_steps: must be one text, not a list/);
    assert.doesNotMatch(r.stderr, /more than once/);
  });
});

describe('a lone "-" is a word to search only: other commands refuse it as before, and write nothing', () => {
  let repo: ReturnType<typeof tempRepo>;
  before(async () => {
    repo = tempRepo({ commit: true });
    assert.equal((await axmeIn(repo.dir, ['init'])).code, 0);
  });
  after(() => repo.cleanup());

  test('axme question ask -: a usage error, no question recorded; axme export adr -: a usage error, no folder "-"', async () => {
    const tip = () => git(repo.dir, ['rev-parse', 'refs/memory/main']).trim();
    const before = tip();
    const ask = await axmeIn(repo.dir, ['question', 'ask', '-']);
    assert.equal(ask.code, 2, ask.stdout + ask.stderr);
    assert.equal(tip(), before, 'nothing written');
    const exported = await axmeIn(repo.dir, ['export', 'adr', '-']);
    assert.equal(exported.code, 2, exported.stdout + exported.stderr);
    assert.equal(existsSync(join(repo.dir, '-')), false);
  });
});
