/**
 * A word is indexed as written beside its stem, where the stem changes it: a query writing
 * "searched" finds the note that says "searched" before the notes that only say "search", which
 * every note of a search tool holds (its stem's IDF is nearly nothing), as BM25 without a stemmer
 * would; the stem still finds the other words of it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { tokenize } from '../../src/knowledge/views/search.ts';
import { useNoteStore } from './note-store.ts';

describe('searchKnowledge: a word as written counts at its own worth', () => {
  const notes = useNoteStore([
    ['Warn on an empty run', 'Print a warning when no files were searched at all.'],
    ['Search warnings for files', 'Search prints a warning for each file it cannot search.'],
    ['Search index', 'The search index is rebuilt after a write; search reads it.'],
    ['Search flags', 'Flags of search: hidden files, globs, the search depth.'],
    ['Deletion of temporary files', 'Temporary files are deleted when the process exits.'],
    ['Cleanup', 'The cleanup job deletes old logs; nothing else is removed.'],
  ]);
  const { slugs } = notes;

  test('"tell the user when no files were searched" ranks the note saying "searched" first', async () => {
    assert.equal((await slugs('tell the user when no files were searched'))[0], 'warn-on-an-empty-run');
  });

  test('"warn when nothing was searched" ranks it first too', async () => {
    assert.equal((await slugs('warn when nothing was searched'))[0], 'warn-on-an-empty-run');
  });

  test('the stem still finds the other words of it: "searching the index" finds the index note first', async () => {
    assert.equal((await slugs('searching the index'))[0], 'search-index');
  });

  test('an inflection the notes do not write is found through its stem: "deleting logs" finds the cleanup note', async () => {
    assert.equal((await slugs('deleting logs'))[0], 'cleanup');
  });
});

describe("tokenize: the words as written are the index's own, not the text's terms", () => {
  test('tokenize gives stems and identifiers only (synonym keys, overlap measures and snippets read it)', () => {
    assert.deepEqual(tokenize('searched files were deleted'), ['search', 'file', 'delet']);
  });
});
