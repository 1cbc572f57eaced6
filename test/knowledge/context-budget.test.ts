/**
 * The session's start is bounded whatever the store's size: page 1 of the context at most 12,000
 * characters and the session-start hook's at most 6,000, with every required decision by title up
 * to a stated limit (then a count and how to list them), advisory decisions by title, and the
 * items relevant to the files being changed.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { closeKnowledgeBase, openKnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { assembleContext, CONTEXT_LIMITS, CONTEXT_PAGE_BUDGET } from '../../src/knowledge/views/context.ts';
import { BACKGROUND_INDEX_ITEMS } from '../../src/knowledge/views/search/index-worker.ts';
import { Decision, decisionSpec } from '../../src/model/decision.ts';
import { stringifyYaml } from '../../src/model/frontmatter.ts';
import { formatId } from '../../src/model/ids.ts';
import { encodeItem } from '../../src/model/kind.ts';
import { DEFAULT_RULES } from '../../src/model/safety-rules.ts';
import { CLI, cleanEnv, importCommit } from '../helpers.ts';
import { indexWritten } from './index-written.ts';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
});

/** Decision i's file, the same in every store: the stores of 100 and 1,000 are the first files of the one of 10,000, encoded once. */
const decisionFiles: Array<[string, string]> = [];
function decisionFile(i: number): [string, string] {
  const d = Decision.parse({
    slug: `decision-${i}`,
    id: formatId('D', i),
    title: i === 1 ? 'Invoices are computed in integer cents' : `Decision ${i} about component ${i % 97} and its long descriptive title that goes on`,
    decision: `Component ${i % 97} uses approach ${i}. `.repeat(8),
    enforce: i % 10 === 0 ? 'required' : 'advisory',
    anchors: i === 1 ? ['src/billing/**'] : [],
    created: '2026-01-01T00:00:00.000Z',
    updated: '2026-01-01T00:00:00.000Z',
  });
  return [`decisions/${d.slug}.md`, encodeItem(decisionSpec, d)];
}

/** A store of `n` decisions (every tenth required, the first anchored to src/billing/), written in one fast-import commit. */
function seeded(n: number): string {
  const dir = mkdtempSync(join(tmpdir(), `axme-ctx-${n}-`));
  dirs.push(dir);
  spawnSync('git', ['init', '-q', '-b', 'main', dir]);
  while (decisionFiles.length < n) decisionFiles.push(decisionFile(decisionFiles.length + 1));
  const files: Array<[string, string]> = [
    ['axme.yaml', stringifyYaml({ format: 1, kind: 'repo' })],
    ['safety/rules.yaml', stringifyYaml(DEFAULT_RULES)],
    ...decisionFiles.slice(0, n),
  ];
  importCommit(dir, files);
  return dir;
}

describe('a bounded session start', () => {
  for (const n of [100, 1_000, 10_000]) {
    test(`${n} decisions: page 1 at most ${CONTEXT_PAGE_BUDGET} characters, the hook's at most 6,000; required ones by title up to the limit, then a count`, {
      timeout: 300_000,
    }, async () => {
      const dir = seeded(n);
      const kb = await openKnowledgeBase({ cwd: dir, env: cleanEnv(), actor: 'agent' });
      try {
        const page = await assembleContext(kb, { focus: { files: ['src/billing/invoice.ts'], branch: 'feat/component-3' } });
        assert.ok(page.text.length <= CONTEXT_PAGE_BUDGET, `page 1 is ${page.text.length} characters`);
        const required = n / 10;
        const listed = page.text.match(/^- D-\d+ .*: Component/gm) ?? [];
        assert.equal(listed.length, Math.min(required, CONTEXT_LIMITS.required));
        if (required > CONTEXT_LIMITS.required)
          assert.match(page.text, new RegExp(`and ${required - CONTEXT_LIMITS.required} more required decisions: run axme_decisions`));
        // the one anchored to the file being changed is listed as relevant, with its id
        assert.match(
          page.text,
          /## Relevant to the work at hand[^#]*- decision D-001 Invoices are computed in integer cents \(about src\/billing\/invoice\.ts\)/,
        );
        // advisory decisions by title, then how to find the rest
        assert.match(page.text, /## Other decisions \(advisory/);
        assert.match(page.text, /more: axme_search_kb \{"query": "<words>"\} finds them/);
        assert.doesNotMatch(page.text, /Load in parallel/);
        const hook = await assembleContext(kb, { budget: 6_000 });
        assert.ok(hook.text.length <= 6_000, `the hook's page is ${hook.text.length} characters`);
        assert.match(hook.text, /## Safety rules/);
        // what agents must follow is on the hook's page too, by title when the lines with their text do not fit, then a count
        const requiredThere = /## Required decisions[^#]*/.exec(hook.text)?.[0] ?? '';
        const onHook = (requiredThere.match(/^- D-\d+ /gm) ?? []).length;
        assert.ok(onHook >= Math.min(required, 10), `the hook's page lists ${onHook} required decisions: ${hook.text}`);
        if (onHook < required) assert.match(requiredThere, new RegExp(`and ${required - onHook} more required decisions: run axme_decisions`));
        // what the installed hook injects, as Claude Code reads it: after the parse cache this
        // process derived is on disk (written in the background, else the hook may or may not
        // parse the 10,000 files again, by the timing), as it is after any earlier command
        await kb.cache.disk.settle();
        const started = spawnSync(process.execPath, [CLI, 'hook', 'session-start'], {
          cwd: dir,
          env: cleanEnv(),
          encoding: 'utf8',
          input: JSON.stringify({ session_id: `ctx-${n}`, cwd: dir, hook_event_name: 'SessionStart', source: 'startup' }),
        });
        assert.equal(started.status, 0, started.stderr);
        const injected = JSON.parse(started.stdout).hookSpecificOutput.additionalContext as string;
        assert.match(injected, /^# Project knowledge/);
        assert.ok(injected.length <= 6_000, `the hook injected ${injected.length} characters`);
        // from BACKGROUND_INDEX_ITEMS on, the start has the tip's index made in the background for the prompts to come
        if (n >= BACKGROUND_INDEX_ITEMS) await indexWritten(dir);
      } finally {
        await closeKnowledgeBase(kb);
      }
    });
  }
});
