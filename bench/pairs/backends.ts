import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { closeKnowledgeBase, type KnowledgeBase, openKnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { readState } from '../../src/knowledge/core/state.ts';
import { addDecision } from '../../src/knowledge/items/decision/add-decision.ts';
import type { BackendName, GitBackend } from '../../src/store/backend.ts';
import { comparePair, type PairModule, type PairResult } from '../harness.ts';
import { benchEnv } from '../lib.ts';

/**
 * Pair 2, backends: the store's two object backends behind one interface — isomorphic-git
 * in-process (A) and the git CLI with one long-lived `cat-file --batch` (B) — for the three
 * operations that decide which one a process should use:
 * - read all items cold: open the store, read every tree and blob and parse them, with no parse
 *   cache on disk (a first read; a CLI process that finds no cache);
 * - read one item: from a warm backend, the ref, the commit, the root tree, the folder's tree and
 *   the blob (what any read of one item costs in objects, before parsing);
 * - write one item: a warm add through the API (blob, folder tree, root tree, commit, ref update).
 */
export const backendsPairs: PairModule = async (ctx) => {
  const out: PairResult[] = [];
  const env = benchEnv();
  const open = (dir: string, backend: BackendName) => openKnowledgeBase({ cwd: dir, env, backend, actor: 'agent' });
  for (const size of ctx.sizes) {
    const dir = ctx.fixture(size);
    const cold = (backend: BackendName) => async () => {
      rmSync(join(dir, '.git', 'axme', 'cache'), { recursive: true, force: true });
      const kb = await open(dir, backend);
      try {
        const s = await readState(kb);
        if (s.items.decision.length < size) throw new Error(`read ${s.items.decision.length} of ${size} decisions`);
      } finally {
        await closeKnowledgeBase(kb);
      }
    };
    out.push(
      await comparePair({
        pair: 'backends',
        measure: 'read all items, cold (no parse cache)',
        size,
        reps: Math.max(3, Math.ceil(ctx.reps / 3)),
        warmup: ctx.warmup(1),
        a: { label: 'isomorphic-git', run: cold('isogit') },
        b: { label: 'git CLI (cat-file --batch)', run: cold('cli') },
      }),
    );

    const warm: Record<'isogit' | 'cli', KnowledgeBase> = { isogit: await open(dir, 'isogit'), cli: await open(dir, 'cli') };
    try {
      const one = (b: GitBackend) => async (i: number) => void (await readOne(b, `seeded-decision-${1 + (((i + 100) * 7919) % size)}.md`));
      out.push(
        await comparePair({
          pair: 'backends',
          measure: 'read one item (ref, commit, trees, blob)',
          size,
          reps: ctx.reps * 2,
          warmup: ctx.warmup(2),
          a: { label: 'isomorphic-git', run: one(warm.isogit.repo.backend) },
          b: { label: 'git CLI (cat-file --batch)', run: one(warm.cli.repo.backend) },
        }),
      );
    } finally {
      await Promise.all(Object.values(warm).map(closeKnowledgeBase));
    }

    const writers: Record<'isogit' | 'cli', KnowledgeBase> = { isogit: await open(ctx.fixture(size), 'isogit'), cli: await open(ctx.fixture(size), 'cli') };
    try {
      // a counter, not the round: warm-up rounds are negative, and "write -1" is a duplicate title of "write 1"
      const write = (kb: KnowledgeBase) => {
        let n = 0;
        return async () => void (await addDecision(kb, { title: `Backend write ${++n}`, decision: 'Written by the benchmark.' }));
      };
      out.push(
        await comparePair({
          pair: 'backends',
          measure: 'write one item (warm add)',
          size,
          reps: ctx.reps,
          warmup: ctx.warmup(2),
          a: { label: 'isomorphic-git', run: write(writers.isogit) },
          b: { label: 'git CLI (hash-object, mktree)', run: write(writers.cli) },
        }),
      );
    } finally {
      await Promise.all(Object.values(writers).map(closeKnowledgeBase));
    }
  }
  return out;
};

/** The objects behind one item: ref -> commit -> root tree -> decisions/ tree -> blob. */
async function readOne(b: GitBackend, name: string): Promise<Buffer> {
  const tip = await b.resolveRef('refs/memory/main');
  const commit = await b.readCommit(tip!);
  const folder = (await b.readTree(commit.tree)).find((e) => e.name === 'decisions');
  const entry = (await b.readTree(folder!.oid)).find((e) => e.name === name);
  if (!entry) throw new Error(`no decisions/${name}`);
  return b.readBlob(entry.oid);
}
