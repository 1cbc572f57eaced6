/**
 * A brace expansion too large to list is never read as its first words only. A word of more
 * than 1,024 expansions (or hundreds of groups) makes the line too large to check, and it is
 * denied; a glob a program or a client's tool expands itself, past 64 alternatives, is read as
 * one wildcard that matches whatever any of them could. Before, both kept the first 64 and
 * passed `rm -rf {a0,…,a69,~}` and `rg -g '{a0,…,a69,.env}' x`.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { braceAlternatives, braceCover } from '../../src/model/glob.ts';
import { evaluate } from '../../src/safety/evaluate.ts';
import { defaultPolicy } from '../../src/safety/policy.ts';
import { safetyContext, testHoles } from './context.ts';

/** `{p0,p1,…}` of `n` names, `last` appended as one more alternative when given. */
const group = (n: number, p: string, last?: string) => `{${[...Array.from({ length: n }, (_, i) => `${p}${i}`), ...(last ? [last] : [])].join(',')}}`;

testHoles({
  'a word whose brace expansion is longer than can be listed': [
    ['mkdir -p {a,b,c,d}/{e,f,g,h}/{i,j,k,l,m}', `rm -rf ${group(70, 'old')} ${group(1, 'x', '~')}`],
    [`touch ${group(70, 'f')}.txt`, `rm -rf ${group(70, 'b', '~')}`],
    [`cat ${group(40, 'r')}.log`, `cat ${group(70, 'n', '~/.ssh/id_rsa')}`],
    [`ls ${group(30, 'a')}${group(30, 'b')}`, `rm -rf ~/${group(40, 'a')}${group(40, 'b')}`],
    ['for d in a b; do ls {x,y}$d; done', `for d in a b; do rm -rf ${group(70, 'x', '~')}; done`],
  ],
  'a glob a program expands itself, of more alternatives than are listed one by one': [
    [`rg -g '${group(70, 'src')}' TODO`, `rg -g '${group(70, 'src', '.env')}' TODO`],
    [`rg --glob '*.${group(70, 'x')}' TODO`, `rg --glob '${group(70, 'src', '.env.local')}' TODO`],
  ],
});

describe("the client's file tools: a glob of more alternatives than are listed one by one", () => {
  const verdict = async (tool: string, input: Record<string, unknown>) => (await evaluate({ tool, input }, defaultPolicy(), safetyContext())).decision;
  test('Grep whose glob filter holds .env among 70 others is denied; the others alone pass', async () => {
    assert.equal(await verdict('Grep', { pattern: 'x', glob: group(70, 'src', '.env') }), 'deny');
    assert.equal(await verdict('Grep', { pattern: 'x', glob: `*.${group(70, 'x')}` }), 'allow');
  });
});

describe('braceAlternatives', () => {
  test('expands groups, nested groups and groups side by side, and keeps a { that opens none', () => {
    assert.deepEqual(braceAlternatives('*.{pem,txt}', 64), ['*.pem', '*.txt']);
    assert.deepEqual(braceAlternatives('a{b,c{d,e}}f', 64), ['abf', 'acdf', 'acef']);
    assert.deepEqual(braceAlternatives('{a,b}{1,2}', 64), ['a1', 'a2', 'b1', 'b2']);
    assert.deepEqual(braceAlternatives('{a}{b,c}', 64), ['{a}b', '{a}c']);
    assert.deepEqual(braceAlternatives('x{', 64), ['x{']);
  });
  test('past its limit it returns null, counted before anything is built', () => {
    assert.equal(braceAlternatives(group(70, 'a'), 64), null);
    assert.equal(braceAlternatives(`${group(10, 'a')}${group(10, 'b')}`, 64), null);
    assert.equal(braceAlternatives(`${group(8, 'a')}${group(8, 'b')}`, 64)?.length, 64);
    assert.equal(braceAlternatives(`{${'x'.repeat(5000)},y}`.repeat(400), 1024), null);
  });
});

describe('braceCover', () => {
  test('one glob per alternative written, every other group a wildcard', () => {
    assert.deepEqual(braceCover('{a,b}/{.env,x}'), ['a/*', 'b/*', '*/.env', '*/x']);
    assert.deepEqual(braceCover('{a,b/c}{d,e}'), ['a*', 'b/c*', '**d', '**e']);
    assert.deepEqual(braceCover('x{a,b{c,d}}'), ['xa', 'xbc', 'xbd']);
    assert.deepEqual(braceCover('plain'), ['plain']);
  });
  test('as many as the alternatives, however many combinations they make', () => {
    assert.equal(braceCover('{a0,a1,a2,a3,a4,a5,a6,a7,a8,a9}'.repeat(6)).length, 60);
  });
});
