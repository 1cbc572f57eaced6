/**
 * The trust boundary red-teamed again (h/trust13), on cases the earlier rounds did not write: what
 * a teammate (or a fork, or whoever can push) puts on refs/memory/main is read by every clone's
 * sync, hooks and page, and must stay data. Each test pushes the crafted store from clone `a`
 * with plain git and runs axme on clone `b`, watching for code run, a file written, a rule
 * loosened, a control sequence reaching a terminal or a script reaching a page.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { coreAt, rejectsWith } from '../core.ts';
import { git } from '../helpers.ts';
import { teamOfTwo } from '../knowledge/fixture-copies.ts';
import { storeCommit } from './bounded.ts';

const REF = 'refs/memory/main';
const roots: string[] = [];
after(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 })));
const scratch = () => {
  const d = mkdtempSync(join(tmpdir(), 'axme-inbound-'));
  roots.push(d);
  return d;
};

/** A bare remote and two clones: `a` (whoever can push) made the store with a required decision; `b` (the victim) started from it. */
const team = teamOfTwo('axme-inbound-', async (A) => {
  await A.addDecision({ title: 'Migrations are reviewed', decision: 'Every migration goes through a pull request.', enforce: 'required' });
});

/** Commits on `attacker`'s store with `files` replaced, by plain git, and pushes it (unforced); returns it. */
function push(attacker: string, files: Record<string, string | null>, message = 'tidy up'): string {
  const c = storeCommit(attacker, git(attacker, ['rev-parse', REF]).trim(), files, message);
  git(attacker, ['update-ref', REF, c]);
  git(attacker, ['push', '-q', 'origin', `${c}:${REF}`]);
  return c;
}

describe('security: frontmatter that names another language than YAML', () => {
  test('a pushed decision whose frontmatter opens with `---js` (gray-matter evaluates it) runs nothing on a sync, and is refused like any invalid file', async () => {
    const { a, b } = await team();
    const marker = join(scratch(), 'pwned');
    const payload = (lang: string) =>
      `---${lang}\n{ id: 'D-050', title: (require('node:fs').writeFileSync(${JSON.stringify(marker)}, '${lang}'), 'Use Redis'), decision: 'x', enforce: 'advisory', status: 'active', created: '2026-01-01T00:00:00.000Z', updated: '2026-01-01T00:00:00.000Z' }\n---\n\nUse Redis.\n`;
    push(a, { 'decisions/use-redis.md': payload('js'), 'decisions/use-valkey.md': payload('javascript') });
    const before = git(b, ['rev-parse', REF]).trim();
    await rejectsWith(coreAt(b).sync(), 'CORRUPT', /decisions\/use-redis\.md/);
    assert.equal(existsSync(marker), false, 'no code of the remote ran');
    assert.equal(git(b, ['rev-parse', REF]).trim(), before, 'nothing taken');
  });
});
