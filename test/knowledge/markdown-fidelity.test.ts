/**
 * Any text, saved through the writes agents and people use, reads back exactly: from the store,
 * from the file as `git show` prints it, and from a fresh knowledge base; `axme fsck` stays clean.
 * (test/model/markdown-fidelity.test.ts runs the same property on the file format alone, with
 * many more cases; here each case is a real commit.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { finalizeClose } from '../../src/knowledge/close/finalize-close.ts';
import type { KnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { addBacklogItem } from '../../src/knowledge/items/backlog/add-backlog-item.ts';
import { addDecision } from '../../src/knowledge/items/decision/add-decision.ts';
import { addMemory } from '../../src/knowledge/items/memory/add-memory.ts';
import { answerQuestion } from '../../src/knowledge/items/question/answer-question.ts';
import { askQuestion } from '../../src/knowledge/items/question/ask-question.ts';
import { showItem } from '../../src/knowledge/items/show-item.ts';
import { backlogSpec } from '../../src/model/backlog.ts';
import { decisionSpec } from '../../src/model/decision.ts';
import { handoffSpec } from '../../src/model/handoff.ts';
import { decodeItem, type ItemBase, type KindName, type KindSpec } from '../../src/model/kind.ts';
import { memorySpec } from '../../src/model/memory.ts';
import { questionSpec } from '../../src/model/question.ts';
import { hiddenTextProblem, textProblem } from '../../src/model/text.ts';
import { fsckCore, withCore } from '../core.ts';
import { git } from '../helpers.ts';
import { TRICKY_LINES } from '../markdown-lines.ts';
import { makeStore } from '../store-fixture.ts';

const RUNS = Number(process.env.FC_RUNS_STORE ?? 12);

const line = fc.oneof(fc.constantFrom(...TRICKY_LINES), fc.string({ unit: 'grapheme', maxLength: 16 }));
const text = fc
  .tuple(fc.array(line, { minLength: 1, maxLength: 8 }), fc.constantFrom('\n', '\r\n', '\n\n'))
  .map(([ls, eol]) => `x ${ls.join(eol)}`) // never empty: required texts must have a visible start
  .filter((s) => textProblem(s) === null && hiddenTextProblem(s) === null);

const norm = (s: string) =>
  s
    .replace(/\r\n?/g, '\n')
    .replace(/^(?:[ \t]*\n)+/, '')
    .replace(/\s+$/, '');

describe('markdown fidelity through the store: save -> read -> git show -> read', () => {
  let dir: string;
  let cleanup: () => void;
  let n = 0;
  before(async () => {
    ({ dir, cleanup } = await makeStore({ commit: false }));
  });
  after(() => cleanup());

  /** Reads the item three ways and checks each field against what was given. */
  async function readsBack(kb: KnowledgeBase, kind: KindName, spec: KindSpec<ItemBase>, slug: string, want: Record<string, string>): Promise<void> {
    const shown = (await showItem(kb, { kind, ref: slug })).item as unknown as Record<string, unknown>;
    const file = git(dir, ['show', `refs/memory/main:${spec.dir}/${slug}.md`]);
    const decoded = decodeItem(spec, slug, file);
    assert.ok(decoded.ok, decoded.ok ? '' : decoded.reason);
    const fresh = await withCore(dir, async (kb2) => (await showItem(kb2, { kind, ref: slug })).item as unknown as Record<string, unknown>);
    for (const [f, v] of Object.entries(want)) {
      assert.equal(shown[f], norm(v), `${kind}.${f} read from the store`);
      assert.equal((decoded.item as unknown as Record<string, unknown>)[f], norm(v), `${kind}.${f} read from git show`);
      assert.equal(fresh[f], norm(v), `${kind}.${f} read by a fresh knowledge base`);
    }
  }

  test('decisions, memories, backlog items, questions and handoffs', async () => {
    await withCore(
      dir,
      async (kb) => {
        await fc.assert(
          fc.asyncProperty(text, text, async (a, b) => {
            const i = ++n;
            const d = await addDecision(kb, { title: `Decision ${i}`, decision: a, reasoning: b });
            await readsBack(kb, 'decision', decisionSpec as never, d.item.slug, { decision: a, reasoning: b });
            const m = await addMemory(kb, { type: 'pattern', title: `Memory ${i}`, description: a, body: b });
            await readsBack(kb, 'memory', memorySpec as never, m.item.slug, { description: a, body: b });
            const bl = await addBacklogItem(kb, { title: `Backlog ${i}`, description: a });
            await readsBack(kb, 'backlog', backlogSpec as never, bl.item.slug, { description: a });
            const q = await askQuestion(kb, { question: `${i} ${a}`, context: b });
            await answerQuestion(kb, { question_id: q.item.id, answer: a });
            await readsBack(kb, 'question', questionSpec as never, q.item.slug, { question: `${i} ${a}`, context: b, answer: a });
          }),
          { numRuns: RUNS },
        );
      },
      { actor: 'agent' },
    );
    const r = await fsckCore(dir);
    assert.ok(r.ok, JSON.stringify(r));
  });

  test('a handoff whose every section quotes the others', async () => {
    await fc.assert(
      fc.asyncProperty(text, text, text, async (a, b, c) => {
        const session = `s${++n}`;
        await withCore(
          dir,
          async (kb) => {
            const fields = {
              summary: a,
              in_progress: `${b}\n## Blockers\nnot a heading here`,
              next_steps: c,
              test_results: `## In Progress\n${a}`,
              blockers: b,
            };
            await finalizeClose(kb, { ...fields, stopped_at: 'here' });
            await readsBack(kb, 'handoff', handoffSpec as never, session, fields);
          },
          { actor: 'agent', session },
        );
      }),
      { numRuns: Math.max(3, Math.floor(RUNS / 2)) },
    );
    const r = await fsckCore(dir);
    assert.ok(r.ok, JSON.stringify(r));
  });
});
