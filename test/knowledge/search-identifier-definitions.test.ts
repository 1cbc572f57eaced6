/**
 * An identifier in a query (`rebase.autoStash`) is one word of it: the whole its camelCase or
 * dotted pieces make inside it (`autostash`) belongs to it, at the pieces' half weight, and is no
 * second word of the query. And an item that defines an identifier — on a sub-heading, a table
 * row's first cell, an options list's line, a settings entry (`rebase.autoStash::`) — counts it
 * among its keywords: the definition comes before the items that only mention it in prose.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { definedNames } from '../../src/knowledge/views/search/defined-names.ts';
import { parseQuery } from '../../src/knowledge/views/search/query.ts';
import { SOFTWARE_SYNONYMS, synonymTable } from '../../src/knowledge/views/search/synonyms.ts';
import { useNoteStore } from './note-store.ts';

describe('definedNames: the identifiers a text defines, line by line', () => {
  const rows: Array<[string, string, string[]]> = [
    ['a sub-heading', 'The options:\n\n##### parameterLimit\n\nThe most parameters allowed.', ['parameterLimit']],
    ['a sub-heading naming a call', '### bodyParser.urlencoded([options])\nParses forms.', ['bodyParser.urlencoded']],
    [
      'a table row, its first cell',
      '| Name | Purpose |\n|---|---|\n| `DEBUG_COLORS` | Whether to use colors. |\n| `DEBUG_DEPTH` | Inspection depth. |',
      ['DEBUG_COLORS', 'DEBUG_DEPTH'],
    ],
    ['a table row names no identifier in its other cells', '| Flag | Effect |\n|---|---|\n| on | sets `core.hooksPath` |', []],
    ['an options list line', 'Flags:\n- `--no-verify`: skip the hooks\n* `--dry-run` shows what would be done', ['--no-verify', '--dry-run']],
    ['a numbered list line', '1. `rebase.updateRefs` moves the branches too', ['rebase.updateRefs']],
    ['a settings entry (AsciiDoc)', 'rebase.autoStash::\n\tWhen true, stash before the rebase.\n', ['rebase.autoStash']],
    [
      'a settings entry (a manual page: the name alone, its text indented under it)',
      '       rebase.stat\n           Whether to show a diffstat.\n\n       rebase.autoStash\n           When set to true, stash first.',
      ['rebase.stat', 'rebase.autoStash'],
    ],
    ['an option entry of a manual page', '       --autostash, --no-autostash\n           Stash before the operation.', ['--autostash', '--no-autostash']],
    ['a name followed by a colon', '`excerpt_separator`: the string that ends the excerpt', ['excerpt_separator']],
    ['prose mentions define nothing', 'Set rebase.autoStash to true; the parameterLimit option and DEBUG_COLORS=1 do the rest.', []],
    ['a line alone in prose, nothing indented under it', 'See also:\nrebase.autoStash\nfor the setting.', []],
    ['words hyphened as prose are no identifier', '## Cross-origin requests\nAllowed by default.', []],
    ['code in a fence defines nothing', '```js\n// parameterLimit\n### notAHeading\n- `--no-verify`\n```\ntext', []],
    ['each name once', '### parameterLimit\ntext\n| `parameterLimit` | again |', ['parameterLimit']],
  ];
  for (const [what, text, names] of rows)
    test(`${what}: ${names.join(', ') || 'none'}`, () => {
      assert.deepEqual(definedNames(text), names);
    });
});

describe("parseQuery: an identifier's inner whole belongs to it", () => {
  const groupsOf = (query: string) =>
    parseQuery(query, synonymTable(SOFTWARE_SYNONYMS), () => true).groups.map((g) =>
      g.alternatives.map((a) => ({ terms: a.terms.join(' '), weight: a.weight })),
    );

  test('rebase.autoStash is one word of the query: autostash an alternative of it at half weight, not a word of its own', () => {
    const groups = groupsOf('rebase.autoStash');
    assert.equal(groups.length, 1, JSON.stringify(groups));
    assert.deepEqual(
      groups[0]!.find((a) => a.terms === 'autostash'),
      { terms: 'autostash', weight: 0.5 },
    );
  });

  test('bodyParser.urlencoded extended: two words, the identifier and "extended"', () => {
    const groups = groupsOf('bodyParser.urlencoded extended');
    assert.equal(groups.length, 2, JSON.stringify(groups));
  });

  test('an inner whole the index holds, the identifier whole not: it stands for its own segment, the other segment stays a word', () => {
    const { groups } = parseQuery('rebase.autoStash', synonymTable(SOFTWARE_SYNONYMS), (t) => t !== 'rebaseautostash');
    const words = groups.map((g) => g.alternatives[0]!.terms.join(' ')).sort();
    assert.deepEqual(words, ['autostash', 'rebas']);
  });
});

describe('searchKnowledge: the item that defines an identifier comes before the items that mention it', () => {
  const notes = useNoteStore([
    [
      'Rebase settings',
      'The settings rebase reads.\n\nrebase.stat::\n\tShow a diffstat of what changed upstream.\nrebase.autoSquash::\n\tTurn on --autosquash by default.\nrebase.autoStash::\n\tCreate a temporary stash entry before the operation begins and apply it after.\nrebase.updateRefs::\n\tMove the branches that point at rebased commits.',
    ],
    ['Autostash before a rebase', 'We autostash so that a rebase on a dirty worktree works; autostash keeps the stash entry until the end.'],
    ['Stash hygiene', 'Drop an old stash entry after an automatic rebase; autostash leaves none behind.'],
    [
      'Form parser options',
      'The options of the form parser.\n\n##### extended\nRich objects and arrays.\n\n##### parameterLimit\nThe largest number of fields a form may carry. Defaults to 1000.\n\n##### inflate\nInflate deflated bodies.',
    ],
    ['Too many fields', 'A form with more fields than parameterLimit is refused with a 413; raise the parameterLimit for long forms.'],
    [
      'Debug environment',
      'Environment variables of the debug logger.\n\n| Name | Purpose |\n|---|---|\n| `DEBUG` | Namespaces to turn on. |\n| `DEBUG_COLORS` | Whether to use colors in the output. |\n| `DEBUG_DEPTH` | Object inspection depth. |',
    ],
    ['Colors in child processes', 'Colors are not shown in child processes when stderr is piped: pass DEBUG_COLORS=1 to the child, DEBUG_COLORS keeps them.'],
    [
      'Commit flags',
      'Flags of commit.\n\n- `--amend`: replace the last commit\n- `--no-verify`: skip the pre-commit and commit-msg hooks\n- `--signoff`: add a trailer',
    ],
    ['Hooks on the server', 'Nobody may push with --no-verify to skip the hooks: CI runs them again, so --no-verify gains nothing.'],
  ]);
  const rows: Array<[string, string]> = [
    ['rebase.autoStash', 'rebase-settings'],
    ['parameterLimit', 'form-parser-options'],
    ['DEBUG_COLORS', 'debug-environment'],
    ['--no-verify', 'commit-flags'],
  ];
  for (const [query, slug] of rows)
    test(`"${query}" ranks ${slug}, which defines it, first`, async () => {
      const slugs = await notes.slugs(query);
      assert.equal(slugs[0], slug, slugs.join(', '));
    });

  test('a query in words still finds the prose: "autostash dirty worktree" ranks the note saying it first', async () => {
    assert.equal((await notes.slugs('autostash dirty worktree'))[0], 'autostash-before-a-rebase');
  });
});
