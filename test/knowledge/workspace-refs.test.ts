/**
 * A workspace item is named to an agent by its slug. Display IDs are numbered per store, so the
 * workspace's D-001 and a repository's own D-001 are two decisions, and a lookup by D-001 finds the
 * repository's (docs/workspaces.md, "Reading: the merged view"). Every line that tells an agent
 * which item to read (the session-start page's required, other and relevant decisions, the
 * decisions digest, search's MCP text, a prompt's recall) named the workspace's by its ID, so an
 * agent told to follow "D-001 Deploy with Nomad" read "D-001 Use Postgres" instead.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readDigest } from '../../src/knowledge/views/read-digest.ts';
import { recallForPrompt } from '../../src/knowledge/views/recall.ts';
import { context } from '../../src/operations/context.ts';
import { decisionAdd } from '../../src/operations/decision/add.ts';
import { decisionShow } from '../../src/operations/decision/reads.ts';
import { search } from '../../src/operations/search.ts';
import { runOpText, withCore } from '../core.ts';
import { axmeOk, git } from '../helpers.ts';
import { cliJson, cliText } from '../store-fixture.ts';

describe('a workspace item is named by its slug where an agent is told what to read', () => {
  let root: string;
  let api: string;
  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'axme-wsref-'));
    for (const n of ['api', 'web']) {
      const dir = join(root, n);
      mkdirSync(dir);
      git(dir, ['init', '-q', '-b', 'main']);
      git(dir, ['config', 'user.name', 'Test User']);
      git(dir, ['config', 'user.email', 'test@example.com']);
      git(dir, ['commit', '-q', '--allow-empty', '-m', 'first']);
    }
    api = join(root, 'api');
    await axmeOk(root, ['init', '--workspace', '--no-claude', '--no-git-hooks', '--no-scan']);
    await cliText(root, decisionAdd, { title: 'Deploy every service with Nomad', decision: 'Nomad jobs only, no raw VMs.', enforce: 'required' });
    await cliText(root, decisionAdd, { title: 'Log as JSON lines', decision: 'Structured logs, one JSON object a line.' });
    await cliText(api, decisionAdd, { title: 'Use Postgres for orders', decision: 'Orders live in Postgres.' });
    git(api, ['checkout', '-q', '-b', 'feat/json-logs-for-orders']);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  test('the ID each line gives finds the item the line is about', async () => {
    // the premise: the workspace's D-001 and api's D-001 are two decisions, D-001 finds api's
    assert.equal((await cliJson(api, decisionShow, { id_or_slug: 'D-001' })).slug, 'use-postgres-for-orders');
    assert.equal((await cliJson(api, decisionShow, { id_or_slug: 'deploy-every-service-with-nomad' })).title, 'Deploy every service with Nomad');
  });

  test('session start: required, relevant and other decisions', async () => {
    const page = await cliText(api, context);
    assert.match(page, /^- deploy-every-service-with-nomad Deploy every service with Nomad \[workspace\]: Nomad jobs only/m);
    assert.doesNotMatch(page, /^- (decision )?D-00\d (Deploy every|Log as JSON)/m);
    assert.match(page, /^- decision log-as-json-lines Log as JSON lines \[workspace\]$/m, 'relevant to the branch, and marked');
    assert.match(page, /^- decision D-001 Use Postgres for orders$/m, "the repository's own keeps its ID");
  });

  test('a decision relevant to the branch does not hide the workspace decision of the same number from the other decisions', async () => {
    git(api, ['checkout', '-q', '-b', 'feat/orders-in-postgres']);
    try {
      const page = await cliText(api, context);
      assert.match(page, /^- decision D-001 Use Postgres for orders$/m);
      assert.match(page, /^- log-as-json-lines Log as JSON lines \[workspace\]$/m);
    } finally {
      git(api, ['checkout', '-q', 'feat/json-logs-for-orders']);
    }
  });

  test('the decisions digest, search for an agent and a prompt recall', async () => {
    const digest = await withCore(api, (kb) => readDigest(kb, { kind: 'decision' }));
    assert.match(digest.text, /^### deploy-every-service-with-nomad \[required\] Deploy every service with Nomad {2}\[workspace\]$/m);
    assert.match(digest.text, /^### D-001 \[advisory\] Use Postgres for orders$/m);
    const found = await runOpText(api, search, { query: 'nomad jobs' });
    assert.match(found, /^1\. deploy-every-service-with-nomad Deploy every service with Nomad \[decision\]/m);
    const recall = await withCore(api, (kb) => recallForPrompt(kb, 'should we log as JSON lines: structured logs, one JSON object a line?', new Set()));
    assert.match(recall.text, /log-as-json-lines/);
    assert.doesNotMatch(recall.text, /D-002/);
  });
});
