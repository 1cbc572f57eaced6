import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { FORMAT_VERSION } from '../../src/model/config.ts';
import { stringifyYaml } from '../../src/model/frontmatter.ts';
import { encodeItem } from '../../src/model/kind.ts';
import { Memory, memorySpec } from '../../src/model/memory.ts';
import { DEFAULT_RULES } from '../../src/model/safety-rules.ts';
import { slugify } from '../../src/model/slug.ts';
import { importCommit } from '../../test/helpers.ts';
import { comparePair, type PairModule, type PairResult } from '../harness.ts';
import { benchEnv, CLI, stats } from '../lib.ts';

/**
 * Pair 4, peer: the official MCP memory server (@modelcontextprotocol/server-memory, a JSONL
 * knowledge graph) against `axme serve`, both driven through the real MCP SDK client. Both hold
 * the same N project facts; then M new facts are stored one at a time (create_entities vs
 * axme_save_memory) and ~60 queries with known answers are run (search_nodes vs axme_search_kb):
 * time per write, time per query, and hit@5 per kind of query.
 *
 * The N facts are written directly (axme: one git fast-import commit of memory files; the peer:
 * its JSONL file), not through either server: storing 10k facts one call at a time would take
 * minutes on axme and hours on the peer, which rewrites its whole file on every write. What is
 * timed is the steady state an agent meets in a store that already holds N facts.
 */

/** The peer rewrites (and re-reads) its whole file per call: beyond this the seed is fine but the run is not worth its time. */
const MAX_SIZE = 20_000;
/** Queries per kind. */
const PER_KIND = 20;
const TOP = 5;

type MemoryType = 'pattern' | 'feedback';

interface Facet {
  facet: string;
  type: MemoryType;
  techs: string[];
  sentence: (component: string, tech: string, reason: string) => string;
}

/** Realistic facets of a service: what it uses, and a reason with numbers (the numbers make most reasons unique, as real ones are). */
const FACETS: Facet[] = [
  {
    facet: 'caching',
    type: 'pattern',
    techs: ['Valkey', 'Redis', 'Memcached', 'Caffeine', 'Varnish'],
    sentence: (c, t, r) => `The ${c} service uses ${t} for caching because ${r}.`,
  },
  {
    facet: 'retries',
    type: 'pattern',
    techs: [
      'exponential backoff with jitter',
      'a fixed three-attempt policy',
      'a resilience4j circuit breaker',
      'Polly retry policies',
      'the gRPC retry policy',
    ],
    sentence: (c, t, r) => `The ${c} service retries failed calls with ${t} because ${r}.`,
  },
  {
    facet: 'logging',
    type: 'pattern',
    techs: ['pino', 'zap', 'logback', 'Serilog', 'slog'],
    sentence: (c, t, r) => `The ${c} service writes structured logs with ${t} because ${r}.`,
  },
  {
    facet: 'authentication',
    type: 'pattern',
    techs: ['OAuth2 client credentials', 'mTLS certificates', 'signed JWTs', 'API keys kept in Vault', 'session cookies'],
    sentence: (c, t, r) => `The ${c} service authenticates requests with ${t} because ${r}.`,
  },
  {
    facet: 'deploys',
    type: 'feedback',
    techs: ['Argo CD', 'a blue-green switch', 'Flagger canaries', 'Helm upgrades', 'Spinnaker pipelines'],
    sentence: (c, t, r) => `For ${c}, the team wants deploys done with ${t} because ${r}.`,
  },
  {
    facet: 'database',
    type: 'pattern',
    techs: ['PostgreSQL', 'MySQL', 'DynamoDB', 'CockroachDB', 'SQLite'],
    sentence: (c, t, r) => `The ${c} service keeps its data in ${t} because ${r}.`,
  },
  {
    facet: 'queues',
    type: 'pattern',
    techs: ['Kafka', 'RabbitMQ', 'NATS JetStream', 'SQS', 'Redis Streams'],
    sentence: (c, t, r) => `The ${c} service publishes its events through ${t} because ${r}.`,
  },
  {
    facet: 'metrics',
    type: 'pattern',
    techs: ['Prometheus', 'Datadog', 'an OpenTelemetry collector', 'StatsD', 'CloudWatch'],
    sentence: (c, t, r) => `The ${c} service exports metrics to ${t} because ${r}.`,
  },
  {
    facet: 'testing',
    type: 'feedback',
    techs: ['Vitest', 'pytest', 'JUnit 5', 'Testcontainers', 'Playwright'],
    sentence: (c, t, r) => `For ${c}, the team wants tests written with ${t} because ${r}.`,
  },
  {
    facet: 'configuration',
    type: 'pattern',
    techs: ['environment variables', 'Consul KV', 'a mounted ConfigMap', 'AWS Parameter Store', 'etcd'],
    sentence: (c, t, r) => `The ${c} service reads its configuration from ${t} because ${r}.`,
  },
  {
    facet: 'rate limiting',
    type: 'pattern',
    techs: ['an Envoy token bucket', 'a Redis sliding window', 'NGINX limit_req', 'a Kong plugin', 'Cloudflare rules'],
    sentence: (c, t, r) => `The ${c} service enforces rate limits with ${t} because ${r}.`,
  },
  {
    facet: 'code review',
    type: 'feedback',
    techs: ['two approvals', 'the owning squad', 'a security reviewer', 'a CODEOWNERS rule', 'pair review'],
    sentence: (c, t, r) => `For ${c}, the team wants changes reviewed by ${t} because ${r}.`,
  },
];

const REASONS: Array<(n: () => number) => string> = [
  (n) => `p99 latency fell from ${n()} ms to ${n()} ms in the load test`,
  (n) => `it cut the monthly bill by ${n()} dollars`,
  (n) => `incident INC-${n()} showed the old setup could not keep up`,
  (n) => `the benchmark reached ${n()} requests per second on one node`,
  (n) => `it ran ${n()} hours of chaos testing without losing data`,
  (n) => `on-call pages dropped from ${n()} to ${n()} a month`,
  (n) => `the previous choice failed ${n()} times during release ${n()}`,
];

const WORDS = [
  'billing',
  'checkout',
  'ledger',
  'catalog',
  'search',
  'inventory',
  'payments',
  'shipping',
  'notify',
  'profile',
  'orders',
  'pricing',
  'reports',
  'gateway',
  'media',
  'chat',
  'analytics',
  'invoices',
  'accounts',
  'cart',
  'reviews',
  'loyalty',
  'tax',
  'fraud',
  'export',
  'ingest',
  'scheduler',
  'audit',
  'session',
  'identity',
];

interface Fact {
  component: string;
  facet: Facet;
  tech: string;
  reason: string;
  title: string;
  description: string;
}

/** mulberry32: small, fast, and the same sequence on every machine. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(rng: () => number, list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;

function shuffle<T>(rng: () => number, list: T[]): T[] {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
  return list;
}

/**
 * `total` distinct facts, one per (component, facet), in a shuffled order (facts are learned over
 * time, not component by component: the order is the peer's file order, which is its ranking).
 * Components are a word and a 2–4 digit number ("billing-417"), about 8 facts each.
 */
function makeFacts(total: number, seed: number): Fact[] {
  const rng = prng(seed);
  const components: string[] = [];
  const wanted = Math.ceil((total * 1.5) / FACETS.length);
  const used = new Set<string>();
  while (components.length < wanted) {
    const c = `${pick(rng, WORDS)}-${10 + Math.floor(rng() * 9990)}`;
    if (used.has(c)) continue;
    used.add(c);
    components.push(c);
  }
  const pairs = shuffle(
    rng,
    components.flatMap((c) => FACETS.map((f) => [c, f] as const)),
  ).slice(0, total);
  const num = () => 2 + Math.floor(rng() * 9998);
  return pairs.map(([component, facet]) => {
    const tech = pick(rng, facet.techs);
    const reason = pick(rng, REASONS)(num);
    return { component, facet, tech, reason, title: `${component} ${facet.facet}`, description: facet.sentence(component, tech, reason) };
  });
}

/** The peer's match rule (search_nodes): the whole query, lowercased, inside the name, the type or an observation. */
const peerMatches = (f: Fact, q: string) => f.title.toLowerCase().includes(q) || f.facet.type.includes(q) || f.description.toLowerCase().includes(q);

type Kind = 'exact' | 'question' | 'component';
interface Query {
  kind: Kind;
  query: string;
  /** titles that count as the answer */
  answers: Set<string>;
}

/**
 * Three kinds of queries over the seeded facts, interleaved so machine noise hits each alike:
 * exact: a reason phrase found in exactly one fact (substring-friendly: it favours the peer);
 * question: a natural-language question about one fact;
 * component: the component name alone; any fact of that component (seeded or written) is an answer (nothing in the
 * query says which facet is wanted).
 */
function makeQueries(seeded: Fact[], all: Fact[], seed: number): Query[] {
  const rng = prng(seed);
  const order = shuffle(
    rng,
    seeded.map((_, i) => i),
  );
  const exact: Query[] = [];
  const question: Query[] = [];
  const component: Query[] = [];
  const usedComponents = new Set<string>();
  for (const i of order) {
    const f = seeded[i]!;
    if (exact.length < PER_KIND) {
      const q = f.reason.toLowerCase();
      // unique under the peer's own rule, among every fact either store will hold
      if (all.filter((g) => peerMatches(g, q)).length === 1) {
        exact.push({ kind: 'exact', query: f.reason, answers: new Set([f.title]) });
        continue;
      }
    }
    if (question.length < PER_KIND) {
      const templates = [
        `what does ${f.component} use for ${f.facet.facet}?`,
        `how does the ${f.component} service handle ${f.facet.facet}?`,
        `which tool does ${f.component} rely on for ${f.facet.facet}`,
        `why did we pick ${f.tech} for ${f.facet.facet} in ${f.component}?`,
      ];
      question.push({ kind: 'question', query: pick(rng, templates), answers: new Set([f.title]) });
      continue;
    }
    if (component.length < PER_KIND && !usedComponents.has(f.component)) {
      usedComponents.add(f.component);
      component.push({ kind: 'component', query: f.component, answers: new Set(all.filter((g) => g.component === f.component).map((g) => g.title)) });
      continue;
    }
    if (exact.length >= PER_KIND && component.length >= PER_KIND) break;
  }
  const out: Query[] = [];
  for (let i = 0; i < PER_KIND; i++) for (const list of [exact, question, component]) if (list[i]) out.push(list[i]!);
  return out;
}

/** An axme repository whose refs/memory/main holds the facts as memories: one fast-import commit, as seededRepo does for decisions. */
function seedAxme(dir: string, facts: Fact[]): void {
  execFileSync('git', ['init', '-q', dir]);
  const files: Array<[string, string]> = [
    ['axme.yaml', stringifyYaml({ format: FORMAT_VERSION, kind: 'repo' })],
    ['safety/rules.yaml', stringifyYaml(DEFAULT_RULES)],
  ];
  for (const f of facts) {
    const item = Memory.parse({
      slug: slugify(f.title),
      type: f.facet.type,
      title: f.title,
      description: f.description,
      source: 'import',
      created: '2026-01-01T00:00:00.000Z',
      updated: '2026-01-01T00:00:00.000Z',
    });
    files.push([`memories/${item.slug}.md`, encodeItem(memorySpec, item)]);
  }
  importCommit(dir, files);
}

/** The peer's JSONL file as its saveGraph writes it: one entity per line, no trailing newline. */
function seedPeer(file: string, facts: Fact[]): void {
  writeFileSync(file, facts.map((f) => JSON.stringify({ type: 'entity', ...peerEntity(f) })).join('\n'));
}

/** A fact as the peer's entity: the same title and text axme gets, the memory type as entity type. */
const peerEntity = (f: Fact) => ({ name: f.title, entityType: f.facet.type, observations: [f.description] });

interface ToolResult {
  isError?: boolean;
  content?: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
}

const textOf = (r: ToolResult) => (r.content ?? []).map((c) => c.text ?? '').join('\n');

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  const r = (await client.callTool({ name, arguments: args })) as ToolResult;
  if (r.isError) throw new Error(`${name}: ${textOf(r).slice(0, 300)}`);
  return r;
}

/** Titles of axme's hits, best first: structuredContent when given, else the numbered text lines. */
function axmeTitles(r: ToolResult): string[] {
  const hits = r.structuredContent?.hits;
  if (Array.isArray(hits)) return hits.map((h) => String((h as { title?: unknown }).title));
  return [...textOf(r).matchAll(/^\d+\. (?:[A-Z]+-\d+ )?(.*?) \[[a-z]+[^\]]*\]/gm)].map((m) => m[1]!);
}

/** Names of the peer's entities, in its order (file order: it does not rank). */
function peerNames(r: ToolResult): string[] {
  const sc = r.structuredContent?.entities;
  const entities = Array.isArray(sc) ? sc : (JSON.parse(textOf(r)) as { entities: unknown[] }).entities;
  return entities.map((e) => String((e as { name?: unknown }).name));
}

function stdioEnv(extra: NodeJS.ProcessEnv = {}): Record<string, string> {
  return Object.fromEntries(Object.entries(benchEnv(extra)).filter((e): e is [string, string] => e[1] !== undefined));
}

async function connect(command: string, args: string[], cwd: string, env: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'axme-bench', version: '1' });
  await client.connect(new StdioClientTransport({ command, args, cwd, env, stderr: 'ignore' }));
  return client;
}

/** The peer's entry point (its package has a bin, no main: resolve its package.json). */
const PEER_SERVER = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-memory/package.json')), 'dist/index.js');

const frac = (hits: number, n: number) => `${hits}/${n}`;
const median = (xs: number[]) => stats(xs).median;
const ms = (x: number) => Math.round(x * 100) / 100;

export const peerMemoryPairs: PairModule = async (ctx) => {
  const out: PairResult[] = [];
  const writes = Math.max(10, ctx.reps * 2);
  const warmup = ctx.warmup(1);
  for (const size of ctx.sizes) {
    if (size > MAX_SIZE) {
      ctx.log(
        `peer: skipping ${size} facts: server-memory re-reads and rewrites its whole JSONL file on every call, and a run at this size would mostly measure that (limit ${MAX_SIZE})`,
      );
      continue;
    }
    const all = makeFacts(size + writes + warmup, 0x5eed + size);
    const seeded = all.slice(0, size);
    const fresh = all.slice(size);
    const queries = makeQueries(seeded, all, 0xa11 + size);

    const repo = join(ctx.tempDir(`axme-peer-axme-${size}-`), 'repo');
    const peerFile = join(ctx.tempDir(`axme-peer-jsonl-${size}-`), 'memory.jsonl');
    ctx.log(`peer: seeding ${size} facts into both stores...`);
    seedAxme(repo, seeded);
    seedPeer(peerFile, seeded);

    const axme = await connect(process.execPath, [CLI, 'serve'], repo, stdioEnv());
    const peer = await connect(process.execPath, [PEER_SERVER], dirname(peerFile), stdioEnv({ MEMORY_FILE_PATH: peerFile }));
    try {
      // Writes: each side takes the next new fact (a counter, not the round: warm-up rounds are negative).
      let nextA = 0;
      let nextB = 0;
      const writeResult = await comparePair({
        pair: 'peer',
        measure: 'store one fact',
        size,
        reps: writes,
        warmup,
        a: {
          label: 'axme_save_memory, axme serve',
          run: async () => {
            const f = fresh[nextA++]!;
            const r = await call(axme, 'axme_save_memory', { type: f.facet.type, title: f.title, description: f.description });
            if (!textOf(r).startsWith('Memory saved')) throw new Error(`axme_save_memory did not store ${f.title}: ${textOf(r)}`);
          },
        },
        b: {
          label: 'create_entities, server-memory',
          run: async () => {
            const f = fresh[nextB++]!;
            const r = await call(peer, 'create_entities', { entities: [peerEntity(f)] });
            const made = r.structuredContent?.entities;
            if (Array.isArray(made) && made.length !== 1) throw new Error(`create_entities did not store ${f.title}`);
          },
        },
      });
      writeResult.facts = { 'facts stored before': size, 'facts written': writes + warmup };
      out.push(writeResult);

      // The first query after a write pays for axme's search index (kept per tree); the peer
      // re-reads its file on every query anyway. Timed apart so the table shows the steady state.
      const t0 = performance.now();
      await call(axme, 'axme_search_kb', { query: 'caching', k: TOP });
      const axmeFirst = performance.now() - t0;
      const t1 = performance.now();
      await call(peer, 'search_nodes', { query: 'caching' });
      const peerFirst = performance.now() - t1;

      const axmeTop: string[][] = [];
      const peerAll: string[][] = [];
      const queryResult = await comparePair({
        pair: 'peer',
        measure: 'one query',
        size,
        reps: queries.length,
        a: {
          label: `axme_search_kb (k=${TOP}), axme serve`,
          run: async (round) => void (axmeTop[round] = axmeTitles(await call(axme, 'axme_search_kb', { query: queries[round]!.query, k: TOP }))),
        },
        b: {
          label: 'search_nodes, server-memory',
          run: async (round) => void (peerAll[round] = peerNames(await call(peer, 'search_nodes', { query: queries[round]!.query }))),
        },
      });
      const facts: Record<string, string | number> = {};
      for (const kind of ['exact', 'question', 'component'] as const) {
        const idx = queries.map((q, i) => (q.kind === kind ? i : -1)).filter((i) => i >= 0);
        if (!idx.length) continue; // a tiny store (smoke runs) has too few facts for some kinds
        const hit = (lists: string[][]) => idx.filter((i) => (lists[i] ?? []).slice(0, TOP).some((t) => queries[i]!.answers.has(t))).length;
        facts[`axme hit@5 ${kind}`] = frac(hit(axmeTop), idx.length);
        facts[`peer hit@5 ${kind}`] = frac(hit(peerAll), idx.length);
        facts[`peer results per ${kind} query, median`] = median(idx.map((i) => peerAll[i]?.length ?? 0));
        facts[`axme ms ${kind}`] = ms(median(idx.map((i) => queryResult.a.samples[i]!)));
        facts[`peer ms ${kind}`] = ms(median(idx.map((i) => queryResult.b.samples[i]!)));
      }
      facts['axme first query after writes ms (builds the index)'] = ms(axmeFirst);
      facts['peer first query after writes ms'] = ms(peerFirst);
      facts['facts stored'] = size + writes + warmup;
      queryResult.facts = facts;
      out.push(queryResult);
    } finally {
      await Promise.allSettled([axme.close(), peer.close()]);
    }
  }
  return out;
};
