import type { KindName } from '../../model/kind.ts';
import { LIVE_STATUSES } from '../../model/liveness.ts';
import { SPECS } from '../../model/paths.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { readMergedState, tagged } from '../core/merged-state.ts';
import type { Diagnostic, ItemsByKind } from '../core/state.ts';

export interface ListOptions<K extends KindName> {
  kind: K;
  /** revision or date to read at (default: the tip) */
  at?: string | undefined;
  /** only items with one of these statuses */
  status?: string[] | undefined;
  /** every status, not only live items */
  all?: boolean | undefined;
  /** memories only: feedback or pattern */
  type?: string | undefined;
}

export interface ListResult<K extends KindName> {
  /** in a workspace, decisions and memories include the workspace's (docs/workspaces.md), each with `store` set to the workspace store */
  items: ItemsByKind[K];
  /** files of this kind that could not be read (path + reason); the rest are still listed */
  diagnostics: Diagnostic[];
  commit: string;
}

/** Items of one kind at the tip or at a revision, live ones by default. */
export async function listItems<K extends KindName>(kb: KnowledgeBase, opts: ListOptions<K>): Promise<ListResult<K>> {
  const state = await readMergedState(kb, opts.at);
  const want = opts.status?.length ? opts.status : opts.all ? undefined : LIVE_STATUSES[opts.kind];
  const items = (state.items[opts.kind] as Array<{ status?: string; type?: string }>)
    .filter((i) => (!want || want.includes(i.status ?? '')) && (!opts.type || i.type === opts.type))
    .map((i) => tagged(state, i)) as ItemsByKind[K];
  const dir = `${SPECS[opts.kind].dir}/`;
  return { items, diagnostics: state.diagnostics.filter((d) => d.path.startsWith(dir) || (d.store && d.path === d.store)), commit: state.commit! };
}
