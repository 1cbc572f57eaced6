/**
 * The context's text as clients receive it: a budget is counted in UTF-16 code units, as the
 * JavaScript clients (Claude Code, the MCP SDK) count a string's length, and whatever the context
 * cuts (a handoff's long line, a title, a question) is cut between characters — never inside an
 * emoji's surrogate pair, which would leave a lone surrogate that JSON carries as an invalid
 * character. A page past the last is an error that says how many there are.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { closeKnowledgeBase, openKnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { assembleContext } from '../../src/knowledge/views/context.ts';
import { Decision, decisionSpec } from '../../src/model/decision.ts';
import { stringifyYaml } from '../../src/model/frontmatter.ts';
import { Handoff, handoffSpec } from '../../src/model/handoff.ts';
import { formatId } from '../../src/model/ids.ts';
import { encodeItem } from '../../src/model/kind.ts';
import { Question, questionSpec } from '../../src/model/question.ts';
import { DEFAULT_RULES } from '../../src/model/safety-rules.ts';
import { cleanEnv, importCommit } from '../helpers.ts';
import { connectStdio } from '../mcp/stdio-client.ts';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
});

const AT = '2026-01-01T00:00:00.000Z';
/** A surrogate without its other half. */
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A store whose texts are all emoji and CJK at odd offsets (one ASCII letter first), in one commit. */
function seeded(): string {
  const dir = mkdtempSync(join(tmpdir(), 'axme-ctx-text-'));
  dirs.push(dir);
  spawnSync('git', ['init', '-q', '-b', 'main', dir]);
  const files: Array<[string, string]> = [
    ['axme.yaml', stringifyYaml({ format: 1, kind: 'repo' })],
    ['safety/rules.yaml', stringifyYaml(DEFAULT_RULES)],
  ];
  for (let i = 1; i <= 3; i++) {
    const d = Decision.parse({
      slug: `decision-${i}`,
      id: formatId('D', i),
      title: `x${'🚀'.repeat(150)}`,
      decision: `y${'🔥数据'.repeat(200)}`,
      enforce: i === 1 ? 'required' : 'advisory',
      created: AT,
      updated: AT,
    });
    files.push([`decisions/${d.slug}.md`, encodeItem(decisionSpec, d)]);
  }
  const q = Question.parse({ slug: 'question-1', id: 'Q-001', question: `z${'🤔'.repeat(300)}`, created: AT, updated: AT });
  files.push([`questions/${q.slug}.md`, encodeItem(questionSpec, q)]);
  const h = Handoff.parse({
    slug: 'session-e',
    summary: `a${'✨进展'.repeat(3_000)}`,
    next_steps: `b${'👉'.repeat(500)}`,
    startup_text: `c${'📣'.repeat(2_000)}`,
    created: AT,
    updated: AT,
  });
  files.push([`handoffs/${h.slug}.md`, encodeItem(handoffSpec, h)]);
  importCommit(dir, files);
  return dir;
}

describe('the context text as clients count and read it', () => {
  test('emoji and CJK cut anywhere (a handoff of one long line, titles, a question): no lone surrogate, every page within its budget in UTF-16 units', async () => {
    const dir = seeded();
    const kb = await openKnowledgeBase({ cwd: dir, env: cleanEnv(), actor: 'agent' });
    try {
      for (const budget of [1_000, 1_777, 3_001, 6_000, 12_000]) {
        const first = await assembleContext(kb, { budget });
        for (let page = 1; page <= first.pages; page++) {
          const { text } = page === 1 ? first : await assembleContext(kb, { budget, page });
          assert.ok(text.length <= budget || !text.includes('\n\n'), `page ${page} at ${budget} is ${text.length} units`);
          const at = LONE.exec(text);
          assert.equal(
            at,
            null,
            `a lone surrogate at ${at?.index} of page ${page} at ${budget}: …${text.slice(Math.max(0, (at?.index ?? 0) - 20), (at?.index ?? 0) + 5)}`,
          );
        }
      }
    } finally {
      await closeKnowledgeBase(kb);
    }
  });

  test('axme_context through the MCP SDK: a page past the last is an error naming how many there are', async () => {
    const dir = seeded();
    const { client } = await connectStdio(dir);
    try {
      const one = (await client.callTool({ name: 'axme_context', arguments: {} })) as { isError?: boolean; content: Array<{ text: string }> };
      assert.equal(one.isError, undefined, one.content[0]?.text);
      const pages = Number(/--- page 1 of (\d+)/.exec(one.content[0]!.text)?.[1] ?? 1);
      const past = (await client.callTool({ name: 'axme_context', arguments: { page: pages + 1 } })) as {
        isError?: boolean;
        content: Array<{ text: string }>;
      };
      assert.equal(past.isError, true);
      assert.match(past.content[0]!.text, new RegExp(`page ${pages + 1} does not exist: there (is 1 page|are ${pages} pages)`));
      const last = (await client.callTool({ name: 'axme_context', arguments: { page: pages } })) as { isError?: boolean; content: Array<{ text: string }> };
      assert.equal(last.isError, undefined);
      assert.equal(LONE.exec(last.content[0]!.text), null);
    } finally {
      await client.close();
    }
  });
});
