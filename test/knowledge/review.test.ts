import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { initStore } from '../../src/knowledge/admin/init-store.ts';
import { closeKnowledgeBase, type KnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { addBacklogItem } from '../../src/knowledge/items/backlog/add-backlog-item.ts';
import { addDecision } from '../../src/knowledge/items/decision/add-decision.ts';
import { revokeDecision } from '../../src/knowledge/items/decision/revoke-decision.ts';
import { supersedeDecision } from '../../src/knowledge/items/decision/supersede-decision.ts';
import { addMemory } from '../../src/knowledge/items/memory/add-memory.ts';
import { archiveMemory } from '../../src/knowledge/items/memory/archive-memory.ts';
import { supersedeMemory } from '../../src/knowledge/items/memory/supersede-memory.ts';
import { answerQuestion } from '../../src/knowledge/items/question/answer-question.ts';
import { askQuestion } from '../../src/knowledge/items/question/ask-question.ts';
import { renderDiffMarkdown, renderDiffText } from '../../src/knowledge/review/diff/render-diff.ts';
import { semanticDiff } from '../../src/knowledge/review/diff/semantic-diff.ts';
import { updateSafety } from '../../src/knowledge/rules/update-safety.ts';
import { decisionAdd } from '../../src/operations/decision/add.ts';
import { log } from '../../src/operations/history.ts';
import { memoryAdd } from '../../src/operations/memory/add.ts';
import { check, diff } from '../../src/operations/review.ts';
import { safetyAdd } from '../../src/operations/safety/edits.ts';
import { exitCodeOf, initCore, rejectsWith, syncCore } from '../core.ts';
import { axme, git, openTestKb, tempRepo } from '../helpers.ts';
import { cliJson, cliRun, cliText } from '../store-fixture.ts';

const REF = 'refs/memory/main';
const cleanups: Array<() => void | Promise<void>> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function repoWithKb(): Promise<{ dir: string; kb: KnowledgeBase }> {
  const { dir, cleanup } = tempRepo({ commit: true });
  const kb = await openTestKb(dir);
  cleanups.push(cleanup, () => closeKnowledgeBase(kb));
  await initStore(kb);
  return { dir, kb };
}

const tip = (dir: string) => git(dir, ['rev-parse', REF]).trim();

describe('semantic diff', () => {
  test('names every kind of change between two revisions (table of expectations)', async () => {
    const { dir, kb } = await repoWithKb();
    await addDecision(kb, { title: 'Use Redis for caching', decision: 'Cache with Redis.', reasoning: 'It is fast.' });
    await addDecision(kb, { title: 'Deploy with Helm', decision: 'Helm charts in deploy/.', tags: ['ops'] });
    await addDecision(kb, { title: 'Log in JSON', decision: 'Structured logs.' });
    await addMemory(kb, { type: 'feedback', title: 'Run tests before commit', description: 'npm test first' });
    await askQuestion(kb, { question: 'Which queue do we use?' });
    const from = tip(dir);

    await supersedeDecision(kb, { id: 'D-001', title: 'Use Valkey for caching', decision: 'Cache with Valkey.', reasoning: 'The licence.' });
    await revokeDecision(kb, { id: 'D-003', reason: 'we log plain text after all' });
    await addDecision(kb, { title: 'Deploy with Helm', decision: 'Helm charts in deploy/, one per service.', tags: ['ops', 'k8s'] });
    await archiveMemory(kb, { slug: 'run-tests-before-commit' });
    await answerQuestion(kb, { question_id: 'Q-001', answer: 'RabbitMQ' });
    await askQuestion(kb, { question: 'Who owns the billing service?' });
    await updateSafety(kb, { action: 'add', rule_type: 'bash_deny', value: 'terraform destroy' });
    // loosening is a person's: the agent's handle would be refused (NOT_ALLOWED)
    const person = await openTestKb(dir, { actor: 'human' });
    cleanups.push(() => closeKnowledgeBase(person));
    await updateSafety(person, { action: 'remove', rule_type: 'bash_deny', value: 'rm -rf /' });
    // a hand edit of a decision's text and tags, committed as a teammate would
    const d = await semanticDiff(kb, from, tip(dir));

    const byTitle = new Map(d.items.map((i) => [i.title, i]));
    const expect: Array<[string, string, (i: (typeof d.items)[number]) => void]> = [
      ['Use Redis for caching', 'superseded', (i) => assert.equal(i.successor?.title, 'Use Valkey for caching')],
      ['Use Valkey for caching', 'added', (i) => assert.match(i.body ?? '', /Cache with Valkey/)],
      ['Log in JSON', 'revoked', (i) => assert.equal(i.detail, 'we log plain text after all')],
      ['Run tests before commit', 'archived', (i) => assert.deepEqual(i.status, { before: 'active', after: 'archived' })],
      ['Which queue do we use?', 'answered', (i) => assert.equal(i.detail, 'RabbitMQ')],
      ['Who owns the billing service?', 'added', (i) => assert.equal(i.kind, 'question')],
    ];
    for (const [title, change, more] of expect) {
      const i = byTitle.get(title);
      assert.ok(i, `${title} is in the diff: ${[...byTitle.keys()].join(', ')}`);
      assert.equal(i.change, change, title);
      more(i);
    }
    assert.ok(!byTitle.has('Deploy with Helm'), 'an equal decision is not a change');
    assert.deepEqual(d.rules.added, [{ type: 'bash_deny', value: 'terraform destroy' }]);
    assert.deepEqual(d.rules.removed, [{ type: 'bash_deny', value: 'rm -rf /' }]);
    assert.equal(d.counts.superseded, 1);
    assert.equal(d.counts.added, 2);

    const text = renderDiffText(d);
    assert.match(text, /superseded D-001 Use Redis for caching -> D-00\d Use Valkey for caching/);
    assert.match(text, /opened Q-002 Who owns the billing service\?/);
    assert.match(text, /\+ bash_deny: terraform destroy/);
    assert.doesNotMatch(text, /\x1b\[/, 'no colour unless asked');
    assert.match(renderDiffText(d, { color: true }), /\x1b\[32m\+\x1b\[39m/);
    const md = renderDiffMarkdown(d);
    assert.match(md, /^## Knowledge changes/);
    assert.match(md, /- \*\*superseded\*\* D-001 Use Redis for caching → D-00\d Use Valkey for caching/);
    assert.match(md, /- \*\*removed\*\* `bash_deny`: `rm -rf \/`/);
  });

  test("an added item's words are shown once in the Markdown (a pull request's body): a backlog item's description is its body", async () => {
    const { dir, kb } = await repoWithKb();
    const from = tip(dir);
    await addBacklogItem(kb, { title: 'Rate limit', description: 'Add a token bucket per client' });
    await addMemory(kb, { type: 'pattern', title: 'Errors as values', description: 'Return Result types', body: 'Handlers never throw across the boundary.' });
    await addDecision(kb, { title: 'Use Valkey', decision: 'Cache with Valkey.', reasoning: 'The licence.' });
    await askQuestion(kb, { question: 'Which region hosts billing?' });
    const md = renderDiffMarkdown(await semanticDiff(kb, from, tip(dir)));
    for (const words of ['Add a token bucket per client', 'Return Result types', 'Handlers never throw across the boundary.', 'Cache with Valkey.'])
      assert.equal(md.split(words).length - 1, 1, `"${words}" once:\n${md}`);
  });

  test('a superseded memory is superseded, by its successor, as a decision is', async () => {
    const { dir, kb } = await repoWithKb();
    await addMemory(kb, { type: 'pattern', title: 'Cache in process memory', description: 'A Map per process.' });
    const from = tip(dir);
    await supersedeMemory(kb, { slug: 'cache-in-process-memory', type: 'pattern', title: 'Cache in Valkey', description: 'One shared cache.' });
    const d = await semanticDiff(kb, from, tip(dir));
    const old = d.items.find((i) => i.slug === 'cache-in-process-memory');
    assert.ok(old, JSON.stringify(d.items));
    assert.equal(old.change, 'superseded');
    assert.deepEqual(old.successor, { kind: 'memory', slug: 'cache-in-valkey', title: 'Cache in Valkey' });
    assert.equal(d.counts.superseded, 1);
    assert.equal(d.counts.changed, 0);
    assert.match(renderDiffText(d), /superseded Cache in process memory -> Cache in Valkey/);
    assert.match(renderDiffMarkdown(d), /- \*\*superseded\*\* Cache in process memory → Cache in Valkey/);
  });

  test('a changed item: fields one by one, the body as a unified diff; an untouched store diffs empty', async () => {
    const { dir, kb } = await repoWithKb();
    await addDecision(kb, { title: 'Deploy with Helm', decision: 'Helm charts in deploy/.\nOne release per env.', tags: ['ops'] });
    const from = tip(dir);
    // a teammate edits the file by hand: text and tags
    const wt = `${dir}-edit`;
    git(dir, ['worktree', 'add', '-q', '--detach', wt, REF]);
    cleanups.push(() => void git(dir, ['worktree', 'remove', '--force', wt]));
    const path = `${wt}/decisions/deploy-with-helm.md`;
    const { readFileSync, writeFileSync } = await import('node:fs');
    writeFileSync(path, readFileSync(path, 'utf8').replace('- ops', '- ops\n  - k8s').replace('One release per env.', 'One release per service.'));
    git(wt, ['commit', '-q', '-am', 'edit helm']);
    git(dir, ['update-ref', REF, git(wt, ['rev-parse', 'HEAD']).trim()]);
    const d = await semanticDiff(kb, from, tip(dir));
    assert.equal(d.items.length, 1);
    const [i] = d.items;
    assert.equal(i!.change, 'changed');
    assert.deepEqual(i!.fields, [{ field: 'tags', before: ['ops'], after: ['ops', 'k8s'] }]);
    assert.match(i!.body!, /^@@ .* @@/m);
    assert.match(i!.body!, /^-One release per env\.$/m);
    assert.match(i!.body!, /^\+One release per service\.$/m);
    assert.equal((await semanticDiff(kb, tip(dir), tip(dir))).items.length, 0);
  });
});

// the commands' exit codes and stderr from the built binary where only the binary shows them (no
// remote, a failed check with --json); the rest is each command's run and print, in-process
describe('axme diff, log --changes, check (CLI)', () => {
  test('diff defaults to the remote-tracking tip, says what to do without one, and prints markdown and JSON', async () => {
    const { dir, cleanup } = tempRepo({ commit: true });
    cleanups.push(cleanup);
    await initCore(dir);
    const none = await axme(dir, ['diff']);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /no git remote.*axme diff <from>/);
    const { dir: remote, cleanup: c2 } = tempRepo({ bare: true });
    cleanups.push(c2);
    git(dir, ['remote', 'add', 'origin', remote]);
    const notFetched = await rejectsWith(cliRun(dir, diff, {}), 'WRONG_STATE', /nothing fetched from origin yet.*axme sync/);
    assert.equal(exitCodeOf(notFetched), 1);
    await syncCore(dir);
    await cliText(dir, decisionAdd, { title: 'Use Postgres', decision: 'One database.' });
    const text = await cliText(dir, diff);
    assert.match(text, /Knowledge [0-9a-f]{12}\.\.[0-9a-f]{12}: 1 added/);
    assert.match(text, /\+ added D-001 Use Postgres/);
    const md = await cliText(dir, diff, { format: 'markdown' });
    assert.match(md, /### Decisions\n\n- \*\*added\*\* D-001 Use Postgres/);
    const json = await cliJson(dir, diff);
    assert.equal(json.fromName, 'refs/memory-remotes/origin/main');
    assert.equal(json.items[0].id, 'D-001');
    // a teammate pushes meanwhile and a plain git fetch brings it: their item is not "removed" here
    const { dir: other, cleanup: c3 } = tempRepo({ commit: true });
    cleanups.push(c3);
    git(other, ['remote', 'add', 'origin', remote]);
    await syncCore(other);
    await cliText(other, decisionAdd, { title: 'Use Kafka', decision: 'Events.' });
    await syncCore(other);
    git(dir, ['fetch', '-q', 'origin']);
    const after = await cliJson(dir, diff);
    assert.deepEqual(
      after.items.map((i: { title: string; change: string }) => `${i.change} ${i.title}`),
      ['added Use Postgres'],
    );
    assert.match(after.fromName, /^merge-base of refs\/memory-remotes\/origin\/main and refs\/memory\/main$/);
    const bad = await rejectsWith(cliRun(dir, diff, { from: 'no-such-rev' }), 'BAD_REVISION', /revision no-such-rev names no commit/);
    assert.equal(exitCodeOf(bad), 2);
  });

  test('log --changes shows what each commit changed; check passes a clean store and fails a planted credential and a broken item', async () => {
    const { dir, cleanup } = tempRepo({ commit: true });
    cleanups.push(cleanup);
    await initCore(dir);
    await cliText(dir, decisionAdd, { title: 'Use Postgres', decision: 'One database.' });
    await cliText(dir, safetyAdd, { rule_type: 'bash_deny', value: 'terraform destroy' });
    const changes = await cliText(dir, log, { changes: true });
    assert.match(changes, /safety: add bash_deny terraform destroy\n {4}\+ safety rule bash_deny: terraform destroy\n/);
    assert.match(changes, /decision: add D-001 Use Postgres\n {4}\+ added D-001 Use Postgres\n/);
    const entries = await cliJson(dir, log, { changes: true });
    assert.equal(entries[0].changes.counts.rulesAdded, 1);

    const clean = await cliRun(dir, check, {});
    assert.equal(clean.code, 0, clean.stderr);
    assert.match(clean.stderr, /^ok at [0-9a-f]{12}/);

    // a credential saved deliberately (--allow-secret) still fails the check: a PR would share it
    await cliText(
      dir,
      memoryAdd,
      { type: 'pattern', title: 'Staging access', description: 'token ghp_abcdefghijklmnopqrstuvwxyz0123456789AB' },
      { allowSecret: true },
    );
    const planted = await axme(dir, ['check', '--json']);
    assert.equal(planted.code, 1);
    const r = JSON.parse(planted.stdout);
    assert.equal(r.ok, false);
    assert.ok(
      r.findings.some((f: { path: string; reason: string }) => f.path === 'memories/staging-access.md' && /GitHub token/.test(f.reason)),
      planted.stdout,
    );

    // an older revision is still clean; a broken item at another revision fails it
    assert.equal((await cliRun(dir, check, { rev: '~1' })).code, 0);
    const wt = `${dir}-wt`;
    git(dir, ['worktree', 'add', '-q', '--detach', wt, REF]);
    cleanups.push(() => void git(dir, ['worktree', 'remove', '--force', wt]));
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${wt}/decisions/use-postgres.md`, '---\nid: D-001\ntitle: [unclosed\n---\ntext\n');
    git(wt, ['commit', '-q', '-am', 'break it']);
    git(dir, ['branch', 'broken', git(wt, ['rev-parse', 'HEAD']).trim()]);
    const broken = await cliRun(dir, check, { rev: 'broken' });
    assert.equal(broken.code, 1);
    assert.match(broken.stdout, /decisions\/use-postgres\.md: .*YAML/);
    assert.match(broken.stderr, /FAILED: 2 findings/);
  });
});

describe('the GitHub repository of a remote', () => {
  test('owner/name from SSH, scp-like and HTTPS URLs on any host; null for paths and file URLs', async () => {
    const { githubRepoOf } = await import('../../src/github/repo-slug.ts');
    const cases: Array<[string, string | null]> = [
      ['git@github.com:acme/app.git', 'acme/app'],
      ['git@github.com:acme/app', 'acme/app'],
      ['ssh://git@github.com/acme/app.git', 'acme/app'],
      ['ssh://git@github.example.com:2222/acme/app.git', 'acme/app'],
      ['https://github.com/acme/app.git', 'acme/app'],
      ['https://github.com/acme/app', 'acme/app'],
      ['https://user@github.com/acme/my.app/', 'acme/my.app'],
      ['/srv/git/app.git', null],
      ['../remote.git', null],
      ['file:///srv/git/acme/app.git', null],
      ['https://github.com/acme', null],
    ];
    for (const [url, want] of cases) assert.equal(githubRepoOf(url), want, url);
  });
});
