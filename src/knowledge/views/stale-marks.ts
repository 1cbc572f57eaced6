import { ANCHORED_KINDS } from '../../model/anchor.ts';
import { isAxmeError } from '../../model/errors.ts';
import type { ItemBase, KindName } from '../../model/kind.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { type ListOptions, type ListResult, listItems } from '../items/list-items.ts';
import { type ShowResult, showItem } from '../items/show-item.ts';
import type { StaleItem, VerifyResult } from '../stale/types.ts';
import { verifyKnowledge } from '../stale/verify-knowledge.ts';

/** The stale items of a store, for the surfaces that show items: look one up by kind and slug. */
export interface StaleMarks {
  of(kind: KindName, slug: string): StaleItem | undefined;
  /** all of them, in verify's order */
  all: StaleItem[];
}

const NONE: StaleMarks = { of: () => undefined, all: [] };

/**
 * What `axme verify` calls stale, for marking what context, digests, reads and search show
 * ("may be outdated: ..."). A read never fails because the code cannot be compared (a bare
 * repository, no commit yet, git refusing): it then marks nothing. Items of a workspace store are
 * not compared (their code is in other repositories).
 */
export async function staleMarks(kb: KnowledgeBase, at?: string): Promise<StaleMarks> {
  let result: VerifyResult;
  try {
    // remembered per (memory tree, HEAD) by verifyKnowledge; its marks per result, here
    result = await verifyKnowledge(kb, at === undefined ? {} : { at });
  } catch (err) {
    if (isAxmeError(err, 'INVALID_INPUT') || isAxmeError(err, 'NOT_FOUND')) throw err; // a bad --at is the caller's to hear
    return NONE;
  }
  if (result.stale.length === 0) return NONE;
  const marks = kb.cache.perObject<StaleMarks>('stale-marks');
  let m = marks.get(result);
  if (!m) {
    const index = new Map(result.stale.map((s) => [`${s.kind}:${s.slug}`, s]));
    marks.set(result, (m = { of: (kind, slug) => index.get(`${kind}:${slug}`), all: result.stale }));
  }
  return m;
}

/** The line an item shown to an agent or a person carries when it is stale: what moved, and what to do. */
export function staleLine(s: StaleItem): string {
  const ref = s.id ?? s.slug;
  return `May be outdated: ${s.reason}. Check it against the code, then \`axme reconfirm ${ref}\` (axme_reconfirm) if it still holds, or ${s.kind === 'decision' ? 'supersede' : 'update'} it.`;
}

/** showItem, with the item's staleness (`stale`) when its anchors moved since it was learned. */
export async function showWithStaleness<T extends ItemBase>(
  kb: KnowledgeBase,
  opts: { kind: KindName; ref: string; at?: string | undefined },
): Promise<ShowResult<T> & { stale?: StaleItem }> {
  const r = await showItem<T>(kb, opts);
  if (r.store) return r;
  const s = (await staleMarks(kb, opts.at)).of(opts.kind, r.item.slug);
  return s ? { ...r, stale: s } : r;
}

/**
 * listItems, each stale item with `stale` set to why (what moved since it was learned), for the
 * lists people read (`axme decision list`): never served silently as current. Items of a
 * workspace store and kinds without anchors are listed as they are.
 */
export async function listWithStaleness<K extends KindName>(kb: KnowledgeBase, opts: ListOptions<K>): Promise<ListResult<K>> {
  const r = await listItems(kb, opts);
  if (!(ANCHORED_KINDS as readonly string[]).includes(opts.kind) || r.items.length === 0) return r;
  const marks = await staleMarks(kb, opts.at);
  if (marks.all.length === 0) return r;
  const items = (r.items as Array<{ slug: string; store?: string }>).map((i) => {
    const s = i.store ? undefined : marks.of(opts.kind, i.slug);
    return s ? { ...i, stale: s.reason } : i;
  });
  return { ...r, items: items as ListResult<K>['items'] };
}
