import type { Decision } from '../../model/decision.ts';
import type { Memory } from '../../model/memory.ts';
import type { OraclePage } from '../../model/oracle.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { readMergedState, storeOf, tagged } from '../core/merged-state.ts';
import { currentDecisions, currentMemories, decisionBlock, memoryBlock, oracleBlock } from './blocks.ts';
import { budgetOf } from './context.ts';
import { type Page, paginate } from './paging.ts';
import { staleLine, staleMarks } from './stale-marks.ts';

export type DigestKind = 'decision' | 'memory' | 'oracle';

export interface DigestResult<T> extends Page {
  /** the items on this page */
  items: T[];
  total: number;
  commit: string;
}

/**
 * What an agent loads at session start, paged: current decisions (required first), current
 * memories (feedback first) or the oracle pages. Superseded, revoked and archived items are
 * never served as current.
 */
export async function readDigest(
  kb: KnowledgeBase,
  opts: { kind: DigestKind; at?: string | undefined; page?: number | undefined; budget?: number | undefined },
): Promise<DigestResult<Decision | Memory | OraclePage>> {
  const state = await readMergedState(kb, opts.at);
  const budget = budgetOf(state, opts.budget);
  const marks = await staleMarks(kb, opts.at);
  const stale = (kind: DigestKind, slug: string, from: string | null | undefined) => {
    const s = from ? undefined : marks.of(kind, slug);
    return s ? staleLine(s) : undefined;
  };
  let items: Array<Decision | Memory | OraclePage>;
  let blocks: string[];
  let header: string;
  if (opts.kind === 'decision') {
    const list = currentDecisions(state.items.decision);
    items = list;
    blocks = list.map((d) => decisionBlock(d, storeOf(state, d), stale('decision', d.slug, storeOf(state, d))));
    header = list.length
      ? `# Decisions (${list.length} current; required ones first)`
      : '# Decisions\nNone yet. Save one with axme_save_decision when a choice is made.';
  } else if (opts.kind === 'memory') {
    const list = currentMemories(state.items.memory);
    items = list;
    blocks = list.map((m) => memoryBlock(m, storeOf(state, m), stale('memory', m.slug, storeOf(state, m))));
    header = list.length
      ? `# Memories (${list.length}; feedback first, then patterns)`
      : '# Memories\nNone yet. Save feedback and patterns with axme_save_memory.';
  } else {
    const list = state.items.oracle;
    items = list;
    blocks = list.map((p) =>
      oracleBlock(p, state.workspace?.state ? (storeOf(state, p) ? 'Workspace' : 'Project') : null, stale('oracle', p.slug, storeOf(state, p))),
    );
    header = list.length
      ? '# Oracle: stack, structure, patterns, glossary'
      : '# Oracle\nNo oracle pages yet: `axme oracle scan` (or an agent) writes oracle/stack.md, structure.md, patterns.md and glossary.md.';
  }
  const page = paginate(header, blocks, budget, opts.page ?? 1);
  // in JSON too, a stale item says so (`stale`: the reason), never passes as current
  const kind = opts.kind;
  const marked = page.blocks.map((i) => {
    const item = tagged(state, items[i]!);
    const s = storeOf(state, items[i]!) ? undefined : marks.of(kind, items[i]!.slug);
    return s ? { ...item, stale: s.reason } : item;
  });
  return { ...page, items: marked, total: items.length, commit: state.commit! };
}
