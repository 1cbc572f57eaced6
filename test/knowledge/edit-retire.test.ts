import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { decisionAdd, decisionSupersede } from '../../src/operations/decision/add.ts';
import { decisionAmend } from '../../src/operations/decision/amend.ts';
import { decisionRevoke } from '../../src/operations/decision/revoke.ts';
import { history } from '../../src/operations/history.ts';
import { memoryAdd, memorySupersede } from '../../src/operations/memory/add.ts';
import { memoryCurrent } from '../../src/operations/memory/reads.ts';
import { memoryRemove } from '../../src/operations/memory/remove.ts';
import { memoryUpdate } from '../../src/operations/memory/update.ts';
import { sessionFinalize } from '../../src/operations/session/session.ts';
import { coreAt, rejectsWith, runOp } from '../core.ts';
import { git, tempRepo } from '../helpers.ts';

const REF = 'refs/memory/main';
const agent = { actor: 'agent' as const, session: '20261128-0000edit' };
const tip = (dir: string, ref = REF) => git(dir, ['rev-parse', ref]).trim();

describe('edit, supersede and retire memories and decisions', () => {
  let dir: string;
  let cleanup: () => void;
  before(async () => {
    ({ dir, cleanup } = tempRepo({ commit: true }));
    await coreAt(dir).init({ scan: false });
  });
  after(() => cleanup());

  test('a memory edited in place keeps its slug; history shows both versions', async () => {
    await runOp(dir, memoryAdd, { type: 'feedback', title: 'Prefer small PRs', description: 'Keep pull requests under 300 lines.' });
    const r = await runOp(dir, memoryUpdate, { slug: 'prefer-small-prs', description: 'Keep pull requests under 200 lines.', keywords: ['review'] });
    assert.equal(r.changed, true);
    assert.equal(r.slug, 'prefer-small-prs');
    assert.equal(r.path, 'memories/prefer-small-prs.md');
    const h = await runOp(dir, history, { id_or_slug: 'prefer-small-prs', patch: true });
    assert.equal(h.versions.length, 2);
    assert.match(h.versions[0].subject, /^memory: update Prefer small PRs \(description, keywords\)/);
    assert.match(h.versions[0].patch, /-description: Keep pull requests under 300 lines\.\n\+description: Keep pull requests under 200 lines\./);
    assert.match(h.versions[1].subject, /^memory: add/);
    const same = await runOp(dir, memoryUpdate, { slug: 'prefer-small-prs', description: 'Keep pull requests under 200 lines.' });
    assert.equal(same.changed, false);
    assert.equal(same.commit, null);
    await rejectsWith(runOp(dir, memoryUpdate, { slug: 'prefer-small-prs' }), 'INVALID_INPUT', /say what to change/);
    await rejectsWith(runOp(dir, memoryUpdate, { slug: 'no-such-memory', title: 'x' }), 'NOT_FOUND');
  });

  test('a memory superseded by a new one: linked both ways, only the new one is offered, the old one is not edited', async () => {
    await runOp(dir, memoryAdd, { type: 'pattern', title: 'Errors are strings', description: 'Throw plain strings.', keywords: ['errors'] });
    const r = await runOp(dir, memorySupersede, {
      slug: 'errors-are-strings',
      type: 'pattern',
      title: 'Errors are typed classes',
      description: 'Throw AxmeError with a code.',
    });
    assert.equal(r.slug, 'errors-are-typed-classes');
    assert.deepEqual(r.supersedes, ['errors-are-strings']);
    assert.deepEqual(r.keywords, ['errors'], 'keywords carry over');
    assert.equal(r.superseded.status, 'superseded');
    assert.equal(r.superseded.superseded_by, 'errors-are-typed-classes');
    assert.equal(git(dir, ['rev-list', '--count', `${REF}~1..${REF}`]).trim(), '1', 'one commit');
    const old = git(dir, ['show', `${REF}:memories/errors-are-strings.md`]);
    assert.match(old, /status: superseded/);
    assert.match(old, /superseded_by: errors-are-typed-classes/);
    const digest = await runOp(dir, memoryCurrent, {});
    assert.ok(digest.items.some((m: any) => m.slug === 'errors-are-typed-classes'));
    assert.ok(!digest.items.some((m: any) => m.slug === 'errors-are-strings'));
    await rejectsWith(runOp(dir, memoryUpdate, { slug: 'errors-are-strings', title: 'x' }), 'WRONG_STATE', /edit its successor errors-are-typed-classes/);
    await rejectsWith(
      runOp(dir, memorySupersede, { slug: 'errors-are-strings', type: 'pattern', title: 'Again', description: 'x' }),
      'WRONG_STATE',
      /already superseded/,
    );
    // axme_save_memory's way: `supersedes`
    const viaSave = await runOp(dir, memoryAdd, {
      type: 'pattern',
      title: 'Errors carry data',
      description: 'AxmeError has code and data.',
      supersedes: 'errors-are-typed-classes',
    });
    assert.equal(viaSave.superseded.slug, 'errors-are-typed-classes');
  });

  test('a decision amended keeps its ID; history shows both versions; what binds cannot be amended', async () => {
    await runOp(dir, decisionAdd, { title: 'Use Postgress', decision: 'One databse for everything.', enforce: 'required', anchors: ['src/db/**'] });
    const r = await runOp(dir, decisionAmend, { id: 'D-001', title: 'Use Postgres', decision: 'One database for everything.' });
    assert.equal(r.changed, true);
    assert.equal(r.id, 'D-001');
    assert.equal(r.slug, 'use-postgress', 'the file stays');
    assert.equal(r.enforce, 'required');
    assert.deepEqual(r.anchors, ['src/db/**']);
    const h = await runOp(dir, history, { id_or_slug: 'D-001', patch: true });
    assert.equal(h.versions.length, 2);
    assert.match(h.versions[0].subject, /^decision: amend D-001 Use Postgres \(title, decision\)/);
    assert.match(h.versions[0].patch, /-One databse for everything\.[\s\S]*\+One database for everything\./);
    for (const field of [{ enforce: 'advisory' }, { anchors: ['src/**'] }, { scope: ['other'] }, { status: 'revoked' }]) {
      await rejectsWith(
        runOp(dir, decisionAmend, { id: 'D-001', title: 'x', ...field }),
        'INVALID_INPUT',
        new RegExp(`unknown field ${Object.keys(field)[0]}`),
      );
    }
    await rejectsWith(runOp(dir, decisionAmend, { id: 'D-001' }), 'INVALID_INPUT', /supersede/);
    assert.equal((await runOp(dir, decisionAmend, { id: 'D-001', title: 'Use Postgres' })).changed, false);
    await runOp(dir, decisionAdd, { title: 'Use MySQL', decision: 'MySQL.', supersedes: 'D-001' });
    await rejectsWith(runOp(dir, decisionAmend, { id: 'D-001', title: 'Use PostgreSQL' }), 'WRONG_STATE', /only an active decision is amended/);
  });

  test('an agent may not revoke a required decision, nor supersede it by an advisory one; a person may', async () => {
    await runOp(dir, decisionAdd, { title: 'Never log tokens', decision: 'Tokens are redacted before logging.', enforce: 'required' });
    await runOp(dir, decisionAdd, { title: 'Prefer pnpm', decision: 'Use pnpm for scripts.' });
    const before = tip(dir);
    await rejectsWith(
      runOp(dir, decisionRevoke, { id: 'never-log-tokens', reason: 'in the way' }, agent),
      'NOT_ALLOWED',
      /only a person may do.*axme decision revoke D-\d+ --reason "in the way"/,
    );
    await rejectsWith(
      runOp(
        dir,
        decisionAdd,
        { title: 'Log tokens when debugging', decision: 'Allowed in debug.', enforce: 'advisory', supersedes: 'never-log-tokens' },
        agent,
      ),
      'NOT_ALLOWED',
    );
    await rejectsWith(
      runOp(dir, sessionFinalize, { decisions: [{ action: 'remove', id: 'never-log-tokens', reason: 'in the way' }], summary: 'x' }, agent),
      'NOT_ALLOWED',
    );
    assert.equal(tip(dir), before, 'nothing written');
    // tightening and advisory decisions stay open to agents
    const advisory = await runOp(dir, decisionRevoke, { id: 'prefer-pnpm', reason: 'npm is fine' }, agent);
    assert.equal(advisory.status, 'revoked');
    const person = await runOp(dir, decisionRevoke, { id: 'never-log-tokens', reason: 'moved to the safety rules' });
    assert.equal(person.status, 'revoked');
  });

  test('an agent may not supersede a required decision, whatever the successor enforces; a person may', async () => {
    await runOp(dir, decisionAdd, { title: 'Use pnpm only', decision: 'Install with pnpm, never npm.', enforce: 'required' });
    const before = tip(dir);
    const how = /only a person may do.*axme decision supersede D-\d+/;
    await rejectsWith(
      runOp(dir, decisionSupersede, { id: 'use-pnpm-only', title: 'Any package manager', decision: 'pnpm or npm, npm is fine.' }, agent),
      'NOT_ALLOWED',
      how,
    );
    await rejectsWith(
      runOp(dir, decisionAdd, { title: 'Any package manager', decision: 'npm is fine.', enforce: 'required', supersedes: 'use-pnpm-only' }, agent),
      'NOT_ALLOWED',
      how,
    );
    await rejectsWith(
      runOp(
        dir,
        sessionFinalize,
        { decisions: [{ action: 'supersede', supersedes: 'use-pnpm-only', title: 'Any package manager', decision: 'npm is fine.' }], summary: 'x' },
        agent,
      ),
      'NOT_ALLOWED',
    );
    assert.equal(tip(dir), before, 'nothing written');
    // the amend refusal no longer sends the agent to supersede it: it asks the user
    await rejectsWith(
      runOp(dir, decisionAmend, { id: 'use-pnpm-only', decision: 'npm is fine.' }, agent),
      'NOT_ALLOWED',
      /Ask the user to run `axme decision amend D-\d+[^`]*` themselves, or to supersede it themselves/,
    );
    const person = await runOp(dir, decisionSupersede, { id: 'use-pnpm-only', title: 'Any package manager', decision: 'npm is fine.' });
    assert.equal(person.enforce, 'required');
    assert.equal(person.superseded.status, 'superseded');
  });

  test("an agent may fix a typo in a required decision's title or text, not change what it says; a person may", async () => {
    await runOp(dir, decisionAdd, { title: 'Use TLS everywhere', decision: 'All trafic between services uses TLS.', enforce: 'required' });
    const before = tip(dir);
    for (const change of [
      { decision: 'Plain HTTP is fine between services.' },
      { decision: 'All trafic between services uses TLS, except in staging.' },
      { decision: 'Not all trafic between services uses TLS.' },
      { decision: 'All trafic between services may use TLS.' },
      { title: 'Use TLS sometimes' },
    ])
      await rejectsWith(
        runOp(dir, decisionAmend, { id: 'use-tls-everywhere', ...change }, agent),
        'NOT_ALLOWED',
        /changes what a required decision says.*axme decision amend D-\d+/,
      );
    assert.equal(tip(dir), before, 'nothing written');
    const fixed = await runOp(
      dir,
      decisionAmend,
      { id: 'use-tls-everywhere', decision: 'All traffic between services uses TLS.', reasoning: 'Compliance asks for it.' },
      agent,
    );
    assert.equal(fixed.changed, true);
    assert.equal(fixed.decision, 'All traffic between services uses TLS.');
    const person = await runOp(dir, decisionAmend, { id: 'use-tls-everywhere', decision: 'All traffic between services uses mutual TLS.' });
    assert.equal(person.decision, 'All traffic between services uses mutual TLS.');
  });

  test('axme_finalize_close supersedes and removes memories and decisions in its one commit', async () => {
    await runOp(dir, memoryAdd, { type: 'feedback', title: 'Answer in French', description: 'The user writes French.' });
    await runOp(dir, memoryAdd, { type: 'feedback', title: 'Use tabs', description: 'Indent with tabs.' });
    await runOp(dir, decisionAdd, { title: 'Cache in memory', decision: 'A Map per process.' });
    const d = await runOp(dir, decisionAdd, { title: 'Ship nightly', decision: 'Release every night.' });
    const before = tip(dir);
    const r = await runOp(
      dir,
      sessionFinalize,
      {
        memories: [
          { action: 'remove', slug: 'answer-in-french' },
          { action: 'supersede', supersedes: 'use-tabs', type: 'feedback', title: 'Use two spaces', description: 'Indent with two spaces.' },
          { type: 'pattern', title: 'Tests use real git', description: 'No mocks of git.' },
        ],
        decisions: [
          { action: 'remove', id: d.id, reason: 'we ship on demand' },
          { action: 'supersede', supersedes: 'cache-in-memory', title: 'Cache in Valkey', decision: 'Shared cache.' },
        ],
        summary: 'tidied the knowledge',
      },
      agent,
    );
    assert.equal(git(dir, ['rev-list', '--count', `${before}..${REF}`]).trim(), '1', 'one commit');
    assert.deepEqual(
      r.memories.map((m: any) => [m.slug, m.outcome]),
      [
        ['answer-in-french', 'removed'],
        ['use-two-spaces', 'superseded'],
        ['tests-use-real-git', 'saved'],
      ],
    );
    assert.deepEqual(
      r.decisions.map((x: any) => x.outcome),
      ['removed', 'superseded'],
    );
    assert.match(git(dir, ['show', `${REF}:memories/answer-in-french.md`]), /status: archived/);
    assert.match(git(dir, ['show', `${REF}:memories/use-tabs.md`]), /superseded_by: use-two-spaces/);
    assert.match(git(dir, ['show', `${REF}:decisions/ship-nightly.md`]), /status: revoked/);
    await rejectsWith(runOp(dir, sessionFinalize, { memories: [{ action: 'remove' }] }, agent), 'INVALID_INPUT', /memories\.0: action remove needs `slug`/);
    await rejectsWith(
      runOp(dir, sessionFinalize, { decisions: [{ action: 'remove', id: 'D-001' }] }, agent),
      'INVALID_INPUT',
      /decisions\.0: action remove needs `reason`/,
    );
    await rejectsWith(
      runOp(dir, sessionFinalize, { memories: [{ type: 'feedback', title: 'No description' }] }, agent),
      'INVALID_INPUT',
      /memories\.0: .*description/,
    );
  });
});

describe("with review.required an agent's edits and retirements are proposals", () => {
  test('archive, update and revoke by an agent go to its proposal; refs/memory/main is untouched', async () => {
    const { dir, cleanup } = tempRepo({ commit: true });
    try {
      await coreAt(dir).init({ scan: false });
      await runOp(dir, memoryAdd, { type: 'feedback', title: 'Prefer small PRs', description: 'Under 300 lines.' });
      await runOp(dir, decisionAdd, { title: 'Prefer pnpm', decision: 'Use pnpm.' });
      const wt = join(dir, '..', `${dir.split('/').pop()}-store`);
      git(dir, ['worktree', 'add', '-q', '--detach', wt, REF]);
      writeFileSync(join(wt, 'axme.yaml'), `${readFileSync(join(wt, 'axme.yaml'), 'utf8')}review:\n  required: true\n`);
      git(wt, ['commit', '-q', '-am', 'review: required']);
      git(dir, ['update-ref', REF, tip(wt, 'HEAD')]);
      git(dir, ['worktree', 'remove', '--force', wt]);
      const main = tip(dir);
      await runOp(dir, memoryUpdate, { slug: 'prefer-small-prs', description: 'Under 200 lines.' }, agent);
      await runOp(dir, memoryRemove, { slug: 'prefer-small-prs' }, agent);
      await runOp(dir, decisionRevoke, { id: 'D-001', reason: 'npm is fine' }, agent);
      assert.equal(tip(dir), main, 'the accepted knowledge is untouched');
      const proposal = `refs/memory/proposals/${agent.session}`;
      const memory = git(dir, ['show', `${proposal}:memories/prefer-small-prs.md`]);
      assert.match(memory, /status: archived/);
      assert.match(memory, /description: Under 200 lines\./);
      assert.match(git(dir, ['show', `${proposal}:decisions/prefer-pnpm.md`]), /status: revoked/);
    } finally {
      cleanup();
    }
  });
});
