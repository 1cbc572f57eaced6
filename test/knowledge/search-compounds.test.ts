/**
 * Words a query joins with hyphens as prose does (`opt-in`, `self-signed`) count their words as
 * much as the compound: a note that says "opt into" answers "opt-in". A flag, a member or a path
 * the query writes whole (`--no-verify`, `z.infer`) still counts its parts at a lower weight.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { initStore } from '../../src/knowledge/admin/init-store.ts';
import { closeKnowledgeBase, type KnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { addMemory } from '../../src/knowledge/items/memory/add-memory.ts';
import { proseCompounds } from '../../src/knowledge/views/search/analyze.ts';
import { searchKnowledge, tokenize } from '../../src/knowledge/views/search.ts';
import { openTestKb, tempRepo } from '../helpers.ts';

describe('proseCompounds: words hyphened as prose, not flags or members', () => {
  const rows: Array<[string, string[]]> = [
    ['make links opt-in', ['opt-in']],
    ['a self-signed certificate and a fast-forward merge', ['self-signed', 'fast-forward']],
    ['pass --dry-run or -no-cache', []],
    ['z.infer and core.hooks-path and src/a-b.ts', []],
    ['lowerCamel-case', []],
    ['sign-on', ['sign-on']],
  ];
  for (const [text, compounds] of rows)
    test(`${text}: ${compounds.join(', ') || 'none'}`, () => {
      assert.deepEqual([...proseCompounds(text)].sort(), compounds.map((c) => tokenize(c).at(-1)!).sort());
    });
});

describe('searchKnowledge: a prose compound counts its words as the compound', () => {
  let dir: string;
  let cleanup: () => void;
  let kb: KnowledgeBase;
  before(async () => {
    ({ dir, cleanup } = tempRepo());
    kb = await openTestKb(dir);
    await initStore(kb);
    await addMemory(kb, { type: 'pattern', title: 'Hyperlinks off by default', description: 'Users opt into hyperlinks: some terminals garble them.' });
    await addMemory(kb, { type: 'pattern', title: 'Telemetry', description: 'Telemetry is opt-in, asked once on the first run.' });
    await addMemory(kb, { type: 'pattern', title: 'Shell tools', description: 'The shell tools are built in to the image.' });
    await addMemory(kb, { type: 'pattern', title: 'Plugins', description: 'Each built-in plugin is loaded first.' });
    await addMemory(kb, { type: 'pattern', title: 'Test certificates', description: 'The staging proxy serves a certificate that is self signed.' });
    await addMemory(kb, { type: 'pattern', title: 'Self-signed certificates', description: 'A self-signed certificate is refused in production.' });
    await addMemory(kb, { type: 'pattern', title: 'Commit options', description: 'The flag --no-verify bypasses the hooks.' });
    await addMemory(kb, { type: 'pattern', title: 'Checks', description: 'There is no way to verify a tarball before it is unpacked.' });
  });
  after(async () => {
    await closeKnowledgeBase(kb);
    cleanup();
  });
  const scoreOf = async (query: string, slug: string) => (await searchKnowledge(kb, { query })).hits.find((h) => h.slug === slug)?.score ?? 0;

  const rows: Array<[string, string, string]> = [
    ['opt-in', 'opt in', 'hyperlinks-off-by-default'],
    ['built-in', 'built in', 'shell-tools'],
  ];
  for (const [joined, spaced, slug] of rows)
    test(`"${joined}" scores ${slug}, which says the word apart, as "${spaced}" does`, async () => {
      const s = await scoreOf(joined, slug);
      assert.ok(s > 0);
      assert.equal(s, await scoreOf(spaced, slug));
    });

  test('a compound of two words: the note that says them apart scores them as a phrase at full weight, the mean of the two', async () => {
    // the words apart are two words of the query (their sum, and the bonuses of words standing
    // together); the compound is one (their mean): about half — at a flag's weight, a quarter
    const apart = await scoreOf('self signed', 'test-certificates');
    const joined = await scoreOf('self-signed', 'test-certificates');
    assert.ok(joined > apart / 3 && joined < apart, `${joined} of ${apart}`);
  });

  test('the note that writes the compound whole still ranks first', async () => {
    assert.equal((await searchKnowledge(kb, { query: 'self-signed certificate' })).hits[0]?.slug, 'self-signed-certificates');
  });

  test('a flag written whole still counts its parts at a lower weight: "--no-verify" is not any "no" and "verify"', async () => {
    assert.ok((await scoreOf('--no-verify', 'checks')) < (await scoreOf('no verify', 'checks')));
    assert.equal((await searchKnowledge(kb, { query: '--no-verify' })).hits[0]?.slug, 'commit-options');
  });
});
