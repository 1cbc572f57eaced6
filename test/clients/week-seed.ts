import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { axmeInOk } from '../cli-in-process.ts';
import { git } from '../helpers.ts';
import type { ClientWorld } from './project.ts';

/**
 * A week of work on one project, for the real clients (clientweek): a store with about 200 items of
 * every kind — decisions (some anchored to the module's file, one with a 20 KB body), memories,
 * backlog, open questions, safety rules, handoffs of earlier sessions, the oracle — over ten
 * modules, each with a file of its own in `src/`. The subjects are built from each module's own
 * words, so a prompt about one module has items to find and items it must leave alone.
 */

/** A module of the project: its file and the words its items are written with. */
export interface WeekModule {
  name: string;
  file: string;
  /** words only this module's items use */
  words: [string, string, string];
}

export const WEEK_MODULES: WeekModule[] = [
  { name: 'billing', file: 'src/billing.ts', words: ['invoice', 'refund', 'proration'] },
  { name: 'auth', file: 'src/auth.ts', words: ['password', 'session cookie', 'oauth'] },
  { name: 'search', file: 'src/search.ts', words: ['tokenizer', 'synonym', 'facet'] },
  { name: 'checkout', file: 'src/checkout.ts', words: ['basket', 'coupon', 'payment intent'] },
  { name: 'inventory', file: 'src/inventory.ts', words: ['warehouse', 'stock level', 'reservation'] },
  { name: 'shipping', file: 'src/shipping.ts', words: ['courier', 'parcel', 'tracking number'] },
  { name: 'notifications', file: 'src/notifications.ts', words: ['email template', 'push notification', 'unsubscribe'] },
  { name: 'cache', file: 'src/cache.ts', words: ['redis', 'eviction', 'ttl'] },
  { name: 'images', file: 'src/images.ts', words: ['thumbnail', 'webp', 'cdn'] },
  { name: 'reports', file: 'src/reports.ts', words: ['csv export', 'dashboard', 'quarterly'] },
];

/** What the seed made, for the checks. */
export interface WeekSeed {
  /** per module: its decisions' ids (the first two anchored to its file), memories' slugs, backlog ids, question ids */
  byModule: Map<string, { decisions: string[]; anchored: string[]; memories: string[]; backlog: string[]; questions: string[] }>;
  /** the decision with a 20 KB body, anchored to src/reports.ts */
  big: { id: string; title: string };
  /** how many items the store holds */
  total: number;
}

const cli = (w: ClientWorld, args: string[], input?: string, env: NodeJS.ProcessEnv = {}) =>
  axmeInOk(w.project, args, { env: { HOME: w.home, ...env }, input });

/** Seeds `w` with the week's project: its files committed, then about 200 items (the operations run in-process). */
export async function seedWeek(w: ClientWorld): Promise<WeekSeed> {
  mkdirSync(join(w.project, 'src'), { recursive: true });
  for (const m of WEEK_MODULES) writeFileSync(join(w.project, m.file), `// the ${m.name} module\nexport const ${m.name} = {};\n`);
  git(w.project, ['add', 'src']);
  git(w.project, ['commit', '-q', '-m', 'the modules']);
  const byModule: WeekSeed['byModule'] = new Map();
  let total = 0;
  for (const m of WEEK_MODULES) {
    const [a, b, c] = m.words;
    const entry = { decisions: [] as string[], anchored: [] as string[], memories: [] as string[], backlog: [] as string[], questions: [] as string[] };
    const subjects = [
      [`${cap(a)} handling in ${m.name}`, `Every ${a} in ${m.name} goes through one function; ${b} never bypasses it.`],
      [`${cap(b)} rules for ${m.name}`, `The ${b} of ${m.name} is computed server-side, never trusted from the client.`],
      [`${cap(c)} lives in ${m.name}`, `Only ${m.name} owns ${c}; other modules ask it.`],
      [`Retry ${a} calls in ${m.name} twice`, `A failed ${a} call in ${m.name} is retried twice with jitter.`],
      [`Log every ${b} change in ${m.name}`, `Each ${b} change in ${m.name} writes one audit line.`],
      [`Version the ${c} format of ${m.name}`, `The ${c} format carries a version number.`],
      [`Keep ${m.name} ${a} limits configurable`, `Limits on ${a} come from configuration, not constants.`],
    ];
    for (const [i, [title, decision]] of subjects.entries()) {
      const anchors = i < 2 ? ['--anchor', m.file] : [];
      const r = await cli(w, [
        'decision',
        'add',
        '--title',
        title!,
        '--decision',
        decision!,
        '--reasoning',
        `Learned while building ${m.name}.`,
        ...anchors,
        '--json',
      ]);
      entry.decisions.push(r.id);
      if (i < 2) entry.anchored.push(r.id);
      total++;
    }
    for (const [i, t] of [`${a} pitfalls`, `How we test ${b}`, `${cap(c)} naming`, `Ask before changing ${a}`].entries()) {
      const r = await cli(w, [
        'memory',
        'add',
        '--type',
        i % 2 ? 'pattern' : 'feedback',
        '--title',
        `${cap(m.name)}: ${t}`,
        '--description',
        `In ${m.name}, ${t.toLowerCase()}: keep ${b} and ${c} apart.`,
        '--json',
      ]);
      entry.memories.push(r.slug ?? r.item?.slug);
      total++;
    }
    for (const [i, t] of [`Speed up ${a}`, `Clean up ${b} code`, `Document ${c}`].entries()) {
      const r = await cli(w, [
        'backlog',
        'add',
        '--title',
        `${cap(m.name)}: ${t}`,
        '--description',
        `${t} in ${m.name}.`,
        '--priority',
        ['high', 'medium', 'low'][i]!,
        '--json',
      ]);
      entry.backlog.push(r.id);
      total++;
    }
    for (const t of [`Should ${m.name} keep ${a} history for a year?`, `Who owns ${c} in ${m.name}?`]) {
      const r = await cli(w, ['question', 'ask', t, '--json']);
      entry.questions.push(r.id);
      total++;
    }
    byModule.set(m.name, entry);
  }
  // a decision whose body is 20 KB, anchored to src/reports.ts
  const bigTitle = 'Quarterly reports are generated from the read replica';
  const body = `Reports query the read replica only. ${'The quarterly dashboard reads aggregated rows from the replica, never the primary. '.repeat(250)}`;
  const big = await cli(w, ['decision', 'add', '--title', bigTitle, '--stdin', 'decision', '--anchor', 'src/reports.ts', '--json'], body);
  byModule.get('reports')!.anchored.push(big.id);
  total++;
  // safety rules of the team's own
  for (const cmd of ['npm publish', 'terraform destroy', 'kubectl delete namespace']) {
    await cli(w, ['safety', 'add', 'bash_deny', cmd]);
    total++;
  }
  // handoffs of earlier sessions, each its own session
  for (const [i, day] of ['Monday', 'Tuesday', 'Wednesday'].entries()) {
    const handoff = {
      summary: `${day}: worked on ${WEEK_MODULES[i]!.name}.`,
      stopped_at: `Stopped ${day} in ${WEEK_MODULES[i]!.file}`,
      next_steps: `Go on with ${WEEK_MODULES[i]!.words[0]} in ${WEEK_MODULES[i]!.name}.`,
      worklog_entry: `${day}'s work.`,
    };
    await cli(w, ['session', 'finalize'], JSON.stringify(handoff), { AXME_SESSION: `week-${day.toLowerCase()}` });
    total++;
  }
  return { byModule, big: { id: big.id, title: bigTitle }, total };
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
