/**
 * Words a query joins with hyphens as prose does (`opt-in`, `self-signed`) count their words as
 * much as the compound: a note that says "opt into" answers "opt-in". A flag, a member or a path
 * the query writes whole (`--no-verify`, `z.infer`) still counts its parts at a lower weight.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { proseCompounds } from '../../src/knowledge/views/search/analyze.ts';
import { tokenize } from '../../src/knowledge/views/search.ts';
import { useNoteStore } from './note-store.ts';

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
  const notes = useNoteStore([
    ['Hyperlinks off by default', 'Users opt into hyperlinks: some terminals garble them.'],
    ['Telemetry', 'Telemetry is opt-in, asked once on the first run.'],
    ['Shell tools', 'The shell tools are built in to the image.'],
    ['Plugins', 'Each built-in plugin is loaded first.'],
    ['Test certificates', 'The staging proxy serves a certificate that is self signed.'],
    ['Self-signed certificates', 'A self-signed certificate is refused in production.'],
    ['Commit options', 'The flag --no-verify bypasses the hooks.'],
    ['Checks', 'There is no way to verify a tarball before it is unpacked.'],
  ]);
  const { scoreOf } = notes;

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
    assert.equal((await notes.slugs('self-signed certificate'))[0], 'self-signed-certificates');
  });

  test('a flag written whole still counts its parts at a lower weight: "--no-verify" is not any "no" and "verify"', async () => {
    assert.ok((await scoreOf('--no-verify', 'checks')) < (await scoreOf('no verify', 'checks')));
    assert.equal((await notes.slugs('--no-verify'))[0], 'commit-options');
  });
});
