import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { initStore } from '../../src/knowledge/admin/init-store.ts';
import { finalizeClose } from '../../src/knowledge/close/finalize-close.ts';
import type { KnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { listIndex } from '../../src/knowledge/core/list-index.ts';
import { type KnowledgeState, parseSnapshot, readState } from '../../src/knowledge/core/state.ts';
import { addBacklogItem } from '../../src/knowledge/items/backlog/add-backlog-item.ts';
import { updateBacklogItem } from '../../src/knowledge/items/backlog/update-backlog-item.ts';
import { addDecision } from '../../src/knowledge/items/decision/add-decision.ts';
import { revokeDecision } from '../../src/knowledge/items/decision/revoke-decision.ts';
import { supersedeDecision } from '../../src/knowledge/items/decision/supersede-decision.ts';
import { addMemory } from '../../src/knowledge/items/memory/add-memory.ts';
import { archiveMemory } from '../../src/knowledge/items/memory/archive-memory.ts';
import { answerQuestion } from '../../src/knowledge/items/question/answer-question.ts';
import { askQuestion } from '../../src/knowledge/items/question/ask-question.ts';
import { updateSafety } from '../../src/knowledge/rules/update-safety.ts';
import { readSnapshot } from '../../src/store/tree.ts';
import { git, openTestKb, tempRepo } from '../helpers.ts';

/**
 * A write derives the next state from the one it saw plus the files it wrote (state.ts
 * patchState), and carries the list indexes along (list-index.ts). Both must be exactly what a
 * fresh read of the new commit gives: this drives random operations through the public API
 * and, after each, compares the derived state with a parse of the commit by a knowledge base
 * that has never seen it.
 */

const cleanups: Array<() => void> = [];
const kbs: KnowledgeBase[] = [];
after(async () => {
  for (const kb of kbs) await kb.repo.close();
  for (const c of cleanups) c();
});

const plain = (s: KnowledgeState) =>
  JSON.parse(JSON.stringify({ items: s.items, rules: s.rules, config: s.config, diagnostics: s.diagnostics, brokenIds: s.brokenIds }));

for (const backend of ['isogit', 'cli'] as const) {
  describe(`derived states equal fresh reads (${backend})`, () => {
    test('140 random operations: every derived state and index matches a fresh parse of its commit', async () => {
      const { dir, cleanup } = tempRepo();
      cleanups.push(cleanup);
      let clock = Date.parse('2026-11-01T10:00:00.000Z');
      const kb = await openTestKb(dir, { backend, now: () => new Date((clock += 1000)) });
      // another writer (a hook, a CLI run): kb meets its commits as a tip it did not write
      const other = await openTestKb(dir, { backend, now: () => new Date((clock += 1000)) });
      const fresh = await openTestKb(dir, { backend });
      kbs.push(kb, other, fresh);
      await initStore(kb);
      let seed = 7;
      const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
      const words = ['cache', 'retry', 'queue', 'auth', 'logs', 'build'];
      let derived = 0;
      let fromOthers = 0;
      // the tip as git has it: the loose ref or packed-refs, read by the reader that never writes
      const tip = async () => (await fresh.repo.backend.resolveRef('refs/memory/main'))!;
      // a fresh parse of each commit, made once: the truth a derived state is compared with, and what the next operation picks from
      const parsed = new Map<string, KnowledgeState>();
      const freshParse = async (commit: string) => {
        let s = parsed.get(commit);
        if (!s) parsed.set(commit, (s = await parseSnapshot(fresh, await readSnapshot(fresh.repo.backend, commit))));
        return s;
      };
      assert.equal(await tip(), git(dir, ['rev-parse', 'refs/memory/main']).trim(), 'the tip read in-process is the one git gives');
      for (let i = 0; i < 140; i++) {
        const title = `${words[rand(words.length)]} ${rand(3) === 0 ? 'again' : i}`;
        const before = await tip();
        const live = (await freshParse(before)).items;
        const pick = <T>(l: T[]) => l[rand(l.length)];
        const foreign = rand(3) === 0;
        const w = foreign ? other : kb;
        try {
          switch (rand(11)) {
            case 0:
              await addDecision(w, { title, decision: `decided ${i}`, tags: rand(2) ? ['t'] : undefined });
              break;
            case 1:
              await addMemory(w, { type: rand(2) ? 'pattern' : 'feedback', title, description: `seen ${i}` });
              break;
            case 2:
              await addBacklogItem(w, { title });
              break;
            case 3:
              await askQuestion(w, { question: `${title}?` });
              break;
            case 4: {
              const d = pick(live.decision.filter((x) => x.status === 'active'));
              if (d) await supersedeDecision(w, { id: d.id, title: `${title} v2`, decision: 'newer' });
              break;
            }
            case 5: {
              const d = pick(live.decision.filter((x) => x.status === 'active'));
              if (d) await revokeDecision(w, { id: d.id, reason: 'dropped' });
              break;
            }
            case 6: {
              const b = pick(live.backlog);
              if (b) await updateBacklogItem(w, { id: b.id, notes: `note ${i}`, status: 'in-progress' });
              break;
            }
            case 7: {
              const q = pick(live.question);
              if (q) await answerQuestion(w, { question_id: q.id, answer: `answer ${i}` });
              break;
            }
            case 8: {
              const m = pick(live.memory.filter((x) => x.status === 'active'));
              if (m) await archiveMemory(w, { slug: m.slug });
              break;
            }
            case 9:
              await updateSafety(w, { action: 'add', rule_type: 'bash_deny', value: `tool-${i}` });
              break;
            default:
              await finalizeClose(w, {
                summary: `close ${i}`,
                decisions: [{ title: `${title} closed`, decision: 'x' }],
                memories: [{ type: 'pattern', title: `${title} seen`, description: 'y' }],
              } as never);
              break;
          }
        } catch (err) {
          if (!(err as { code?: string }).code) throw err; // a refusal by the rules is fine
        }
        const now = await tip();
        if (now === before) continue;
        // a foreign commit on top of what kb knows: reading it derives it from its parent
        if (foreign) await readState(kb);
        const remembered = kb.cache.recall<KnowledgeState>(`state:${now}`);
        if (!remembered) continue; // not derivable (none of these operations should need that often)
        if (foreign && kb.cache.recall(`state:${before}`) === undefined) continue;
        derived++;
        if (foreign) fromOthers++;
        const truth = await freshParse(now);
        assert.deepEqual(plain(remembered), plain(truth), `operation ${i}: derived state differs from a fresh read`);
        for (const kind of ['decision', 'backlog', 'question', 'memory'] as const) {
          const have = listIndex(kb.cache, remembered.items[kind]);
          const want = listIndex(fresh.cache, truth.items[kind]);
          assert.deepEqual([...have.maxId].sort(), [...want.maxId].sort(), `operation ${i}: ${kind} highest IDs`);
          const titles = (ix: typeof have) => [...ix.titles].map(([k, v]) => [k, v.map((x) => x.slug)]).sort();
          assert.deepEqual(titles(have), titles(want), `operation ${i}: ${kind} titles`);
        }
      }
      assert.ok(derived >= 100, `only ${derived} of the writes were derived`);
      assert.ok(fromOthers >= 25, `only ${fromOthers} of the other writer's commits were derived`);
    });
  });
}
