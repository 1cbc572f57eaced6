import { backlogSpec } from './backlog.ts';
import { decisionSpec } from './decision.ts';
import { handoffSpec } from './handoff.ts';
import type { ItemBase, KindName, KindSpec } from './kind.ts';
import { memorySpec } from './memory.ts';
import { oracleSpec } from './oracle.ts';
import { planSpec } from './plan.ts';
import { questionSpec } from './question.ts';
import { sessionDir, sessionSpec } from './session-summary.ts';
import { isSlug } from './slug.ts';

export const CONFIG_PATH = 'axme.yaml';
export const RULES_PATH = 'safety/rules.yaml';

/** Every item kind, by name. */
export const SPECS = {
  decision: decisionSpec,
  memory: memorySpec,
  backlog: backlogSpec,
  question: questionSpec,
  plan: planSpec,
  handoff: handoffSpec,
  session: sessionSpec,
  oracle: oracleSpec,
} as const satisfies Record<KindName, KindSpec<ItemBase>>;

/** The item type of a kind: what its schema decodes. */
export type ItemOf<K extends KindName> = (typeof SPECS)[K] extends KindSpec<infer T> ? T : never;

const BY_DIR = new Map<string, KindSpec<ItemBase>>(Object.values(SPECS).map((s) => [s.dir, s as KindSpec<ItemBase>]));

/** Path of an item in the memory tree. Session summaries live under sessions/<yyyy-mm>/. */
export function itemPath(kind: KindName, slug: string, created?: string): string {
  if (!isSlug(slug)) throw new Error(`internal: invalid slug ${JSON.stringify(slug)}`);
  if (kind === 'session') return `${sessionDir(created ?? '')}/${slug}.md`;
  return `${SPECS[kind].dir}/${slug}.md`;
}

export type PathClass = { type: 'item'; spec: KindSpec<ItemBase>; slug: string } | { type: 'config' } | { type: 'rules' } | { type: 'other'; reason: string };

/** What a path in the memory tree holds. */
export function classifyPath(path: string): PathClass {
  if (path === CONFIG_PATH) return { type: 'config' };
  if (path === RULES_PATH) return { type: 'rules' };
  const parts = path.split('/');
  const spec = BY_DIR.get(parts[0] ?? '');
  if (!spec) return { type: 'other', reason: 'not a folder axme knows' };
  const file =
    spec.kind === 'session' ? (/^\d{4}-\d{2}$/.test(parts[1] ?? '') && parts.length === 3 ? parts[2] : undefined) : parts.length === 2 ? parts[1] : undefined;
  if (file === undefined)
    return {
      type: 'other',
      reason: spec.kind === 'session' ? 'session summaries live in sessions/<yyyy-mm>/<session>.md' : `items live directly in ${spec.dir}/`,
    };
  if (!file.endsWith('.md')) return { type: 'other', reason: 'items are .md files' };
  const slug = file.slice(0, -3);
  if (!isSlug(slug)) return { type: 'other', reason: 'file name is not a valid slug (lowercase letters, digits, dashes)' };
  return { type: 'item', spec, slug };
}
