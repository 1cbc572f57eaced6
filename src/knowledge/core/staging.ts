import type { ItemBase, KindName } from '../../model/kind.ts';
import { itemFile } from './item-file.ts';
import type { KnowledgeState } from './state.ts';

/**
 * A working copy of the knowledge inside one commit: what one planner stages is visible to the
 * next (IDs, slugs, duplicates), so several operations can become ONE commit.
 */
export interface Staged {
  /** the state as of the tip, with staged items merged into `items` */
  state: KnowledgeState;
  /** the tip's state itself (its lists carry the indexes of list-index.ts) */
  base: KnowledgeState;
  /** items staged so far, by kind and slug */
  touched: Map<KindName, Map<string, ItemBase>>;
  /** files staged so far: path -> text (null removes) */
  files: Map<string, string | null>;
  /** what was staged, for the commit message */
  events: string[];
  subjects: string[];
}

export function stage(state: KnowledgeState): Staged {
  const items = Object.fromEntries(Object.entries(state.items).map(([k, v]) => [k, [...v]])) as unknown as KnowledgeState['items'];
  return { state: { ...state, items }, base: state, touched: new Map(), files: new Map(), events: [], subjects: [] };
}

/** Stages an item (new or changed): its file, and its place in the working state. */
export function putItem<T extends ItemBase>(st: Staged, kind: KindName, item: T, event: string, subject: string): string {
  const [path, text] = itemFile(kind, item);
  st.files.set(path, text);
  const list = st.state.items[kind] as unknown as T[];
  (st.touched.get(kind) ?? st.touched.set(kind, new Map()).get(kind)!).set(item.slug, item);
  const i = list.findIndex((x) => x.slug === item.slug);
  if (i >= 0) list[i] = item;
  else list.push(item);
  st.events.push(event);
  st.subjects.push(subject);
  return path;
}

/** Replaces an item this operation staged already with a later form of it (its file and its place), adding nothing to the commit message. */
export function restageItem<T extends ItemBase>(st: Staged, kind: KindName, item: T): void {
  const [path, text] = itemFile(kind, item);
  st.files.set(path, text);
  st.touched.get(kind)?.set(item.slug, item);
  const list = st.state.items[kind] as unknown as T[];
  const i = list.findIndex((x) => x.slug === item.slug);
  if (i >= 0) list[i] = item;
}

/** Stages a raw file (safety rules, config). */
export function putFile(st: Staged, path: string, text: string | null, event: string, subject: string): void {
  st.files.set(path, text);
  st.events.push(event);
  st.subjects.push(subject);
}

/** True when a path is used at the tip or by a staged file. */
export function pathTaken(st: Staged, path: string): boolean {
  return st.files.has(path) ? st.files.get(path) !== null : st.state.snapshot.files.has(path);
}

/** The mutation of a single planned operation: its files, subject and event. */
export function single<R>(st: Staged, result: R): { result: R; files: Map<string, string | null>; subject?: string; event?: string; staged: Staged } {
  return { result, files: st.files, subject: st.subjects[0], event: st.events[0], staged: st };
}
