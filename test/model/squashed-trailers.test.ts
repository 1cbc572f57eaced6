import assert from 'node:assert/strict';
import { test } from 'node:test';
import { squashedTrailers } from '../../src/model/squashed-trailers.ts';

// The trailers of the commits a squash folded into one message, as git's SQUASH_MSG and GitHub's
// squash merge write them; prose and paragraphs with other lines never count.

const gitSquash = (entries: Array<[string, string, string]>) =>
  `Squashed commit of the following:\n\n${entries
    .map(
      ([sha, date, message]) =>
        `commit ${sha}\nAuthor: A <a@b>\nDate:   ${date}\n\n${message
          .split('\n')
          .map((l) => `    ${l}`.trimEnd() || '    ')
          .join('\n')}\n`,
    )
    .join('\n')}`;

const rows: Array<{ name: string; message: string; want: Array<[string, string | undefined]> }> = [
  {
    name: "git's SQUASH_MSG: each entry's indented trailers, with its Date",
    message: gitSquash([
      ['b'.repeat(40), 'Tue Jan 1 10:30:00 2030 +0000', 'two\n\nAxme-Session: sess-b'],
      ['a'.repeat(40), 'Tue Jan 1 10:00:00 2030 +0100', 'one\n\nbody\n\nAxme-PR: none\naxme-session: sess-a'],
    ]),
    want: [
      ['sess-b', '2030-01-01T10:30:00.000Z'],
      ['sess-a', '2030-01-01T09:00:00.000Z'],
    ],
  },
  {
    name: "GitHub's list: '* subject' entries, a rule, co-authors; no dates",
    message:
      'Rate limits (#7)\n\n* one\n\nwhy\n\nAxme-Session: sess-a\n\n* two\n* a bullet of the body\n\nAxme-Repo: acme/shop\nAxme-Session: sess-b\n\n---------\n\nCo-authored-by: P <p@q>\n',
    want: [
      ['sess-a', undefined],
      ['sess-b', undefined],
    ],
  },
  { name: 'CRLF line ends', message: 'T (#1)\r\n\r\n* one\r\n\r\nAxme-Session: sess-a\r\n', want: [['sess-a', undefined]] },
  { name: "a plain message: its own trailers are git's to read", message: 'fix\n\nbody\n\nAxme-Session: sess-a\n', want: [] },
  { name: 'prose naming the session', message: 'T (#1)\n\n* one\n\nthis undoes Axme-Session: sess-a\n', want: [] },
  { name: 'a trailer line in a paragraph with prose', message: 'T (#1)\n\n* one\n\nAs said:\nAxme-Session: sess-a\nwas wrong.\n', want: [] },
  { name: 'a trailer-shaped paragraph followed by prose, not by an entry', message: 'T (#1)\n\n* one\n\nAxme-Session: sess-a\n\nmore words\n', want: [] },
  { name: 'an entry line inside a paragraph starts nothing', message: 'fix\n\nsee below\n* not an entry\n\nAxme-Session: sess-a\n', want: [] },
];

for (const row of rows) {
  test(row.name, () => {
    const got = squashedTrailers(row.message, 'Axme-Session').map((t) => [t.value, t.authored === undefined ? undefined : new Date(t.authored).toISOString()]);
    assert.deepEqual(got, row.want);
  });
}
