/**
 * False recall in small stores (issue 32): the prompt recall's floor is scaled down under
 * RECALL_FLOOR_DOCS documents (src/knowledge/views/recall-prompt.ts, search/query-worth.ts), so
 * that an item on topic is recalled in a store of three items; this measures what that costs.
 * Stores of 3, 10, 30 and 80 items (the first N of bench/recall-small/items.json: a made-up
 * invoicing app's decisions, memories and backlog), each asked the on-topic prompts whose item it
 * holds and 15 prompts about nothing in it (bench/recall-small/prompts.json, written before the
 * first run). Per size: on-topic prompts whose item was recalled, other items recalled beside it,
 * and unrelated prompts that recalled anything; side by side with a fixed floor of 9 (the recall
 * before the floor scaled) and with the textbook alternative, plain BM25 and BM25 with Porter
 * stems and stop words recalling their best hit whenever a word matches.
 *
 *   node --import tsx bench/recall-small.bench.ts [--sizes 3,10,30,80] [--show]
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeKnowledgeBase, openKnowledgeBase } from '../src/knowledge/core/kb.ts';
import { findItems, RECALL_FLOOR, RECALL_SHARE, relevantHits } from '../src/knowledge/views/recall.ts';
import { RECALL_DEPTH } from '../src/knowledge/views/recall-prompt.ts';
import { BacklogItem, backlogSpec } from '../src/model/backlog.ts';
import { FORMAT_VERSION } from '../src/model/config.ts';
import { Decision, decisionSpec } from '../src/model/decision.ts';
import { stringifyYaml } from '../src/model/frontmatter.ts';
import { formatId } from '../src/model/ids.ts';
import { encodeItem } from '../src/model/kind.ts';
import { Memory, memorySpec } from '../src/model/memory.ts';
import { DEFAULT_RULES } from '../src/model/safety-rules.ts';
import { git, importCommit } from '../test/helpers.ts';
import { argOf, benchEnv } from './lib.ts';
import type { Engine, IndexedDoc } from './retrieval/engines.ts';
import { plainBm25Engine, porterBm25Engine } from './retrieval/plain-bm25.ts';

type Item = [kind: 'd' | 'm' | 'b', slug: string, title: string, text: string];
const here = join(import.meta.dirname, 'recall-small');
const { items } = JSON.parse(readFileSync(join(here, 'items.json'), 'utf8')) as { items: Item[] };
const prompts = JSON.parse(readFileSync(join(here, 'prompts.json'), 'utf8')) as { onTopic: Array<[string, string]>; unrelated: string[] };
const SIZES = argOf(process.argv, 'sizes', '3,10,30,80').split(',').map(Number);
const SHOW = process.argv.includes('--show');

/** A repository whose store holds `list`, in one fast-import commit. */
function seeded(list: Item[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'axme-recall-small-'));
  git(dir, ['init', '-q', '-b', 'main']);
  const at = '2026-01-01T00:00:00.000Z';
  const files: Array<[string, string]> = [
    ['axme.yaml', stringifyYaml({ format: FORMAT_VERSION, kind: 'repo' })],
    ['safety/rules.yaml', stringifyYaml(DEFAULT_RULES)],
  ];
  const n = { d: 0, b: 0 };
  for (const [kind, slug, title, text] of list) {
    if (kind === 'd') {
      const d = Decision.parse({ slug, id: formatId('D', ++n.d), title, decision: text, created: at, updated: at });
      files.push([`decisions/${slug}.md`, encodeItem(decisionSpec, d)]);
    } else if (kind === 'm') {
      const [type, ...rest] = text.split(': ');
      const m = Memory.parse({ slug, type, title, description: rest.join(': '), created: at, updated: at });
      files.push([`memories/${slug}.md`, encodeItem(memorySpec, m)]);
    } else {
      const b = BacklogItem.parse({ slug, id: formatId('B', ++n.b), title, description: text, created: at, updated: at });
      files.push([`backlog/${slug}.md`, encodeItem(backlogSpec, b)]);
    }
  }
  importCommit(dir, files);
  return dir;
}

interface Tally {
  kept: number;
  asked: number;
  /** items recalled beside the one the prompt is about */
  beside: number;
  unrelated: number;
}
const tally = (): Tally => ({ kept: 0, asked: 0, beside: 0, unrelated: 0 });

/** What each way of recalling gives a prompt: the slugs it would inject. */
type Recaller = { name: string; recall: (prompt: string) => Promise<string[]> };

const rows: Array<{ size: number; name: string; t: Tally }> = [];
for (const size of SIZES) {
  const list = items.slice(0, size);
  const dir = seeded(list);
  const kb = await openKnowledgeBase({ cwd: dir, env: benchEnv(), actor: 'agent' });
  const docs: IndexedDoc[] = list.map(([, slug, title, text]) => ({ slug, title, keywords: '', body: text }));
  const bestHit = (e: Engine): Recaller => ({ name: `${e.name}, best hit`, recall: async (p) => (await e.search(p, 1)).slice(0, 1) });
  const recallers: Recaller[] = [
    { name: 'axme (floor scaled under 160 documents)', recall: async (p) => relevantHits(await findItems(kb, p, RECALL_DEPTH)).map((h) => h.slug) },
    {
      name: `axme, fixed floor ${RECALL_FLOOR} (before)`,
      recall: async (p) => {
        const { hits } = await findItems(kb, p, RECALL_DEPTH);
        const best = hits[0]?.score ?? 0;
        return hits.filter((h) => h.score >= RECALL_FLOOR && h.score >= best * RECALL_SHARE).map((h) => h.slug);
      },
    },
    bestHit(plainBm25Engine(docs)),
    bestHit(porterBm25Engine(docs)),
  ];
  try {
    const held = new Set(list.map((i) => i[1]));
    for (const r of recallers) {
      const t = tally();
      for (const [prompt, want] of prompts.onTopic) {
        if (!held.has(want)) continue;
        const got = await r.recall(prompt);
        t.asked++;
        if (got.includes(want)) t.kept++;
        t.beside += got.filter((s) => s !== want).length;
        if (SHOW && (!got.includes(want) || got.length > 1)) console.log(`  [${size}] ${r.name}: "${prompt}" → ${got.join(', ') || 'nothing'} (wants ${want})`);
      }
      for (const prompt of prompts.unrelated) {
        const got = await r.recall(prompt);
        if (got.length) t.unrelated++;
        if (SHOW && got.length) console.log(`  [${size}] ${r.name}: unrelated "${prompt}" → ${got.join(', ')}`);
      }
      rows.push({ size, name: r.name, t });
    }
  } finally {
    await closeKnowledgeBase(kb);
  }
}
console.log(`| items | recall | on-topic prompts whose item was recalled | other items recalled beside it | unrelated prompts that recalled anything |`);
console.log('| ---: | --- | ---: | ---: | ---: |');
for (const { size, name, t } of rows)
  console.log(`| ${size} | ${name} | ${t.kept} / ${t.asked} | ${t.beside} | ${t.unrelated} / ${prompts.unrelated.length} |`);
