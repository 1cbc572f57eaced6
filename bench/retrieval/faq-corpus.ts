// The sixth retrieval corpus: the questions and known problems a team writes down — FAQ entries
// (Go, Homebrew, Cargo, pnpm) stored as answered questions and troubleshooting entries (Vite, Jest,
// mypy, Homebrew) stored as done backlog items whose notes say where they come from
// (bench/retrieval/faq/, built by build-faq.ts), and its queries (faq-queries.json), written before
// any engine ran on it. Seeded as a user's store holds them: one fast-import commit.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BacklogItem, backlogSpec } from '../../src/model/backlog.ts';
import { FORMAT_VERSION } from '../../src/model/config.ts';
import { stringifyYaml } from '../../src/model/frontmatter.ts';
import { formatId } from '../../src/model/ids.ts';
import { encodeItem } from '../../src/model/kind.ts';
import { Question, questionSpec } from '../../src/model/question.ts';
import { DEFAULT_RULES } from '../../src/model/safety-rules.ts';
import { importCommit } from '../../test/helpers.ts';
import type { FaqFile } from './build-faq.ts';
import { type BenchDoc, type Query, slugOf } from './corpus.ts';

const here = import.meta.dirname;

/** The entries as every engine indexes them (the title, then the answer or fix and where it comes from), and the queries about them; fails on a query naming no entry. */
export function loadFaqCorpus(dir = join(here, 'faq'), queriesFile = join(here, 'faq-queries.json')): { files: FaqFile[]; docs: BenchDoc[]; queries: Query[] } {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as FaqFile);
  const ids = new Set(files.flatMap((f) => f.docs.map((d) => d.id)));
  const queries = (JSON.parse(readFileSync(queriesFile, 'utf8')) as { queries: Query[] }).queries;
  for (const id of queries.flatMap((q) => q.relevant)) if (!ids.has(id)) throw new Error(`${queriesFile} names ${id}, which no entry holds`);
  const docs = files.flatMap((f) =>
    f.docs.map((d): BenchDoc => ({ id: d.id, slug: slugOf(d.id), kind: f.kind, title: d.title, keywords: '', body: `${d.reasoning}\n\n${d.decision}`.trim() })),
  );
  if (new Set(docs.map((d) => d.slug)).size !== docs.length) throw new Error('two entries make one slug');
  return { files, docs, queries };
}

/** A git repository whose refs/memory/main holds the entries: a FAQ entry an answered question (the page its context), a troubleshooting entry a done backlog item (the fix its description, the page its notes). */
export function seedFaqRepo(files: FaqFile[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'axme-retrieval-faq-'));
  execFileSync('git', ['init', '-q', dir]);
  const out: Array<[string, string]> = [
    ['axme.yaml', stringifyYaml({ format: FORMAT_VERSION, kind: 'repo' })],
    ['safety/rules.yaml', stringifyYaml(DEFAULT_RULES)],
  ];
  const count = { question: 0, backlog: 0 };
  for (const f of files)
    for (const d of f.docs) {
      const slug = slugOf(d.id);
      const n = ++count[f.kind];
      const at = new Date(Date.UTC(2026, 0, 1) + (count.question + count.backlog) * 60_000).toISOString();
      if (f.kind === 'question') {
        const q = Question.parse({
          slug,
          id: formatId('Q', n),
          question: d.title,
          context: d.reasoning,
          answer: d.decision,
          status: 'answered',
          answered_at: at,
          created: at,
          updated: at,
        });
        out.push([`questions/${slug}.md`, encodeItem(questionSpec, q)]);
      } else {
        const b = BacklogItem.parse({
          slug,
          id: formatId('B', n),
          title: d.title,
          description: d.decision,
          notes: d.reasoning,
          status: 'done',
          created: at,
          updated: at,
        });
        out.push([`backlog/${slug}.md`, encodeItem(backlogSpec, b)]);
      }
    }
  importCommit(dir, out);
  return dir;
}
