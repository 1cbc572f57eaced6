// The retrieval corpus (bench/retrieval/corpus/*.json) and its queries (queries.json), and a store
// seeded with them: each record a decision, the `memories` ones memories, the `supersede` pairs'
// old decision superseded by the new one. Seeded in one commit with git fast-import, as
// bench/lib.ts seededRepo does.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FORMAT_VERSION } from '../../src/model/config.ts';
import { Decision, decisionSpec } from '../../src/model/decision.ts';
import { stringifyYaml } from '../../src/model/frontmatter.ts';
import { formatId } from '../../src/model/ids.ts';
import { encodeItem } from '../../src/model/kind.ts';
import { Memory, memorySpec } from '../../src/model/memory.ts';
import { DEFAULT_RULES } from '../../src/model/safety-rules.ts';
import { importCommit } from '../../test/helpers.ts';
import type { CorpusDoc, CorpusFile } from './build-corpus.ts';

export type QueryKind = 'paraphrase' | 'memory' | 'supersession';

export interface Query {
  id: string;
  kind: QueryKind;
  q: string;
  /** corpus document ids */
  relevant: string[];
}

export interface Qrels {
  supersede: Array<{ old: string; new: string }>;
  memories: Array<{ doc: string; type: 'pattern' | 'feedback' }>;
  queries: Query[];
}

/** One corpus record as every engine indexes it. */
export interface BenchDoc {
  id: string;
  slug: string;
  kind: 'decision' | 'memory' | 'question' | 'backlog';
  title: string;
  /** what the item's keywords/tags would hold: none, the corpus has none */
  keywords: string;
  body: string;
  /** the decision that replaced it, when `supersede` names it */
  supersededBy?: string;
}

const here = import.meta.dirname;

/** Corpus id to item slug (at most 60 characters): `govuk-forms/ADR021-use-auth0` → `govuk-forms-adr021-use-auth0`. */
export const slugOf = (id: string) =>
  id
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 60)
    .replace(/^-+|-+$/g, '');

/** The corpus, its queries, and the documents as the store will hold them; fails on a query naming no document. */
export function loadCorpus(dir = join(here, 'corpus'), queriesFile = join(here, 'queries.json')): { files: CorpusFile[]; docs: BenchDoc[]; qrels: Qrels } {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as CorpusFile);
  const qrels = JSON.parse(readFileSync(queriesFile, 'utf8')) as Qrels;
  const byId = new Map<string, CorpusDoc>(files.flatMap((f) => f.docs.map((d) => [d.id, d] as const)));
  const memoryOf = new Map(qrels.memories.map((m) => [m.doc, m.type]));
  const next = new Map(qrels.supersede.map((p) => [p.old, p.new]));
  for (const id of [...memoryOf.keys(), ...next.keys(), ...next.values(), ...qrels.queries.flatMap((q) => q.relevant)]) {
    if (!byId.has(id)) throw new Error(`queries.json names ${id}, which no corpus file holds`);
  }
  const slugs = new Set<string>();
  const docs = [...byId.values()].map((d): BenchDoc => {
    const slug = slugOf(d.id);
    if (slugs.has(slug)) throw new Error(`two corpus records make the slug ${slug}`);
    slugs.add(slug);
    const doc: BenchDoc = {
      id: d.id,
      slug,
      kind: memoryOf.has(d.id) ? 'memory' : 'decision',
      title: d.title,
      keywords: '',
      body: `${d.decision}\n\n${d.reasoning}`.trim(),
    };
    const s = next.get(d.id);
    if (s) doc.supersededBy = slugOf(s);
    return doc;
  });
  return { files, docs, qrels };
}

/** A git repository whose refs/memory/main holds the corpus as axme items (one fast-import commit). */
export function seedCorpusRepo(files: CorpusFile[], qrels: Qrels): string {
  const dir = mkdtempSync(join(tmpdir(), 'axme-retrieval-'));
  execFileSync('git', ['init', '-q', dir]);
  const memoryOf = new Map(qrels.memories.map((m) => [m.doc, m.type]));
  const next = new Map(qrels.supersede.map((p) => [slugOf(p.old), slugOf(p.new)]));
  const prev = new Map<string, string[]>();
  for (const [o, n] of next) prev.set(n, [...(prev.get(n) ?? []), o]);
  const out: Array<[string, string]> = [
    ['axme.yaml', stringifyYaml({ format: FORMAT_VERSION, kind: 'repo' })],
    ['safety/rules.yaml', stringifyYaml(DEFAULT_RULES)],
  ];
  let n = 0;
  for (const d of files.flatMap((f) => f.docs)) {
    const slug = slugOf(d.id);
    const at = new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString();
    const type = memoryOf.get(d.id);
    if (type) {
      // the memory itself is the decision's first paragraph; the rest its body
      const [first, ...rest] = d.decision.split(/\n\s*\n/);
      const m = Memory.parse({
        slug,
        type,
        title: d.title,
        description: first!.trim(),
        body: [rest.join('\n\n'), d.reasoning].join('\n\n').trim(),
        created: at,
        updated: at,
      });
      out.push([`memories/${slug}.md`, encodeItem(memorySpec, m)]);
      continue;
    }
    n++;
    const superseded = next.get(slug);
    const item = Decision.parse({
      slug,
      id: formatId('D', n),
      title: d.title,
      decision: d.decision,
      reasoning: d.reasoning,
      status: superseded ? 'superseded' : 'active',
      ...(superseded ? { superseded_by: superseded } : {}),
      supersedes: prev.get(slug) ?? [],
      created: at,
      updated: at,
    });
    out.push([`decisions/${slug}.md`, encodeItem(decisionSpec, item)]);
  }
  importCommit(dir, out);
  return dir;
}

/** A corpus's documents each as a decision (its decision, then its reasoning, as the body): how the docs corpora are searched. */
export function decisionDocsOf(files: CorpusFile[]): BenchDoc[] {
  return files.flatMap((f) =>
    f.docs.map((d) => ({
      id: d.id,
      slug: slugOf(d.id),
      kind: 'decision' as const,
      title: d.title,
      keywords: '',
      body: `${d.decision}\n\n${d.reasoning}`.trim(),
    })),
  );
}
