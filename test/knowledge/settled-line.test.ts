/**
 * A field both clones changed, in one line: for lists (the safety rules' prefixes, tags), what
 * each side had that the other did not and what the merge kept, never three lists cut at the same
 * 80 characters, which read alike however they differ.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { settledLine } from '../../src/knowledge/sync/settled-line.ts';

const LONG = ['rm -rf /', 'chmod 777', 'git push --force', 'curl | sh', 'dd if=/dev/zero', 'mkfs', 'git clean -fdx'];
const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

describe('settledLine', () => {
  test('two lists combined: what only each side had, and how many the merge keeps', () => {
    const line = settledLine({
      path: 'safety/rules.yaml',
      id: null,
      title: 'safety rules',
      field: 'bash.deniedPrefixes',
      rule: 'combined',
      value: [...LONG, 'terraform apply', 'kubectl delete'],
      sides: [
        { commit: A, value: [...LONG, 'terraform apply'] },
        { commit: B, value: [...LONG, 'kubectl delete'] },
      ],
    });
    assert.match(line, /safety\/rules\.yaml bash\.deniedPrefixes: combined/);
    assert.match(line, /only in aaaaaaaa: \[terraform apply\]/, line);
    assert.match(line, /only in bbbbbbbb: \[kubectl delete\]/, line);
    assert.match(line, /9 entries/, line);
  });

  test("one side's list kept: what the other had that is gone, and what it lacked", () => {
    const line = settledLine({
      path: 'decisions/x.md',
      id: 'D-001',
      title: 'X',
      field: 'tags',
      rule: 'later-edit',
      value: [...LONG, 'docker push'],
      sides: [
        { commit: A, value: [...LONG, 'docker push'] },
        { commit: B, value: [...LONG, 'helm uninstall'] },
      ],
    });
    assert.match(line, /D-001 "X" tags: kept aaaaaaaa's list \(the later edit; 8 entries\)/, line);
    assert.match(line, /only in it: \[docker push\]/, line);
    assert.match(line, /only in bbbbbbbb's, not kept: \[helm uninstall\]/, line);
  });

  test('scalars as before', () => {
    const line = settledLine({
      path: 'backlog/x.md',
      id: 'B-001',
      title: 'Add request logging',
      field: 'priority',
      rule: 'more-urgent',
      value: 'high',
      sides: [
        { commit: A, value: 'high' },
        { commit: B, value: 'low' },
      ],
    });
    assert.equal(line, 'B-001 "Add request logging" priority: kept high (the more urgent; aaaaaaaa) over low (bbbbbbbb)');
  });
});
