/**
 * ADR files as other tools write them: log4brains' MADR 2 bullets (with `Tags:`), CRLF line
 * endings, a byte-order mark; each read into the same decision as its plain MADR / Nygard twin.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseAdr } from '../../src/knowledge/import/adr/parse-adr.ts';

describe('ADR variants', () => {
  test("log4brains' bullets (Status, Date, Tags): metadata, not reasoning; the context stays the reasoning's first part", () => {
    const a = parseAdr(
      '# Use Z\n\n- Status: superseded by [ADR-0005](0005-x.md)\n- Date: 2021-01-01\n- Tags: backend, db\n\n## Context and Problem Statement\n\nWhy.\n\n## Decision Outcome\n\nChosen option: Z.\n',
      '0001-use-z.md',
    );
    assert.equal(a.reasoning, 'Why.');
    assert.equal(a.decision, 'Chosen option: Z.');
    assert.equal(a.status, 'superseded');
    assert.equal(a.date, '2021-01-01');
    assert.deepEqual(a.extra.adr_tags, 'backend, db');
  });

  test('CRLF line endings and a byte-order mark read as LF', () => {
    const a = parseAdr(
      '\uFEFF# 2. Use W\r\n\r\nDate: 2020-01-01\r\n\r\n## Status\r\n\r\nAccepted\r\n\r\n## Context\r\n\r\nWhy.\r\n\r\n## Decision\r\n\r\nWe use W.\r\n',
      '0002-use-w.md',
    );
    assert.equal(a.title, 'Use W');
    assert.equal(a.decision, 'We use W.');
    assert.equal(a.reasoning, 'Why.');
  });
});
