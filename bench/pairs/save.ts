import { join } from 'node:path';
import { closeKnowledgeBase, openKnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { addDecision } from '../../src/knowledge/items/decision/add-decision.ts';
import { comparePair, type PairModule, type PairResult } from '../harness.ts';
import { benchEnv, timeProcess } from '../lib.ts';

/**
 * Pair 1, save: one decision added through axme's in-process API (warm, as the MCP server does
 * it: default backend, caches filled) against the same commit made by a git plumbing script
 * (bench/plumbing-add.sh: hash-object, mktree twice, commit-tree, update-ref with the old value).
 * Each side has its own copy of the store, so neither starts from a tip the other wrote.
 */
export const savePairs: PairModule = async (ctx) => {
  const out: PairResult[] = [];
  const env = benchEnv();
  for (const size of ctx.sizes) {
    const mine = ctx.fixture(size);
    const theirs = ctx.fixture(size);
    const kb = await openKnowledgeBase({ cwd: mine, env, actor: 'agent' });
    let saved = 0;
    let scripted = 0;
    try {
      out.push(
        await comparePair({
          pair: 'save',
          measure: 'add one decision (one commit)',
          size,
          reps: ctx.reps,
          warmup: ctx.warmup(2),
          // counters, not the round number: warm-up rounds are negative, and titles "save -1" and "save 1" are duplicates
          a: {
            label: `axme add, in-process API (${kb.repo.backend.name}, warm)`,
            run: async () => void (await addDecision(kb, { title: `Bench save ${++saved}`, decision: 'Saved by the benchmark.' })),
          },
          b: {
            label: 'git plumbing script',
            run: async () =>
              void (await timeProcess('bash', [join(import.meta.dirname, '..', 'plumbing-add.sh'), `bench-save-${++scripted}`], { cwd: theirs, env })),
          },
        }),
      );
    } finally {
      await closeKnowledgeBase(kb);
    }
  }
  return out;
};
