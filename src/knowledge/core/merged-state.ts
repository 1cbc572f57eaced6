import type { Decision } from '../../model/decision.ts';
import { isAxmeError } from '../../model/errors.ts';
import type { ItemBase } from '../../model/kind.ts';
import type { Memory } from '../../model/memory.ts';
import { DEFAULT_RULES } from '../../model/safety-defaults.ts';
import { mergeRules } from '../../model/safety-merge.ts';
import type { SafetyRules } from '../../model/safety-rules.ts';
import { parseDateSpec } from '../../store/revision.ts';
import type { KnowledgeBase } from './kb.ts';
import { type Diagnostic, type KnowledgeState, readState } from './state.ts';

/** The workspace part of a merged view. */
export interface WorkspaceView {
  /** the workspace folder */
  root: string;
  /** the workspace store, `<root>/.axme.git` */
  store: string;
  /** the workspace commit merged in (null when the workspace store holds no knowledge or could not be read) */
  commit: string | null;
  kb: KnowledgeBase | null;
  state: KnowledgeState | null;
  /** the items that come from the workspace store (parsed items are shared: they are marked here, not changed) */
  items: WeakSet<object>;
}

/** A repository's knowledge with its workspace's merged in (docs/workspaces.md); `workspace` is null outside a workspace. */
export interface MergedState extends KnowledgeState {
  workspace: WorkspaceView | null;
}

/**
 * What a repository inside a workspace reads: decisions and memories of both stores (the
 * repository's item wins on the same slug; a display ID both use is not an override, since each
 * store numbers its own — lookups by ID find the repository's first), the oracle pages of
 * both (workspace first), the safety rules combined by mergeRules; every other kind is the
 * repository's own. Workspace items scoped to other repositories are left out. `at` reads the
 * workspace as it was at that date, or at the date of the repository commit `at` names. A
 * workspace store that cannot be read leaves the repository's knowledge with a diagnostic, and
 * the default rules in its place: never fewer rules than the defaults. Outside a workspace
 * (and in the workspace store itself) this is readState.
 */
export async function readMergedState(kb: KnowledgeBase, at?: string): Promise<MergedState> {
  const state = await readState(kb, at);
  const link = kb.workspace;
  if (!link || link.self) return { ...state, workspace: null };
  const view: WorkspaceView = { root: link.root, store: link.store, commit: null, kb: null, state: null, items: new WeakSet() };
  const problems: Diagnostic[] = [];
  try {
    view.kb = await link.open();
    view.state = await readState(view.kb, at === undefined ? undefined : await workspaceAt(kb, state, at));
    view.commit = view.state.commit;
  } catch (err) {
    if (isAxmeError(err, 'NOT_INITIALIZED'))
      problems.push({
        path: link.store,
        store: link.store,
        severity: 'warning',
        reason: `the workspace store has no knowledge yet: run \`axme init --workspace\` in ${link.root}`,
      });
    else if (!(at !== undefined && isAxmeError(err, 'BAD_REVISION')))
      problems.push({
        path: link.store,
        store: link.store,
        severity: 'error',
        reason: `the workspace store could not be read (${(err as Error).message.split('\n')[0]}); this repository's knowledge and the default safety rules apply in its place`,
      });
  }
  if (view.state && view.state.config?.kind === 'repo') {
    problems.push({
      path: link.store,
      store: link.store,
      severity: 'warning',
      reason: 'axme.yaml there says kind: repo, not workspace: its knowledge is not merged (rules excepted)',
    });
  }
  const key = `merged:${state.commit}:${view.commit ?? (problems.some((p) => p.severity === 'error') ? 'broken' : 'none')}`;
  const hit = kb.cache.recall<MergedState>(key);
  if (hit) return hit;
  const merged = combine(state, view, link.member, problems);
  return state.diagnostics.some((d) => d.transient) || view.state?.diagnostics.some((d) => d.transient) ? merged : kb.cache.remember(key, merged);
}

/** The workspace revision matching `at` in the repository: the date itself, or the repository commit's date. */
async function workspaceAt(kb: KnowledgeBase, state: KnowledgeState, at: string): Promise<string> {
  if (parseDateSpec(at, kb.now())) return at;
  const c = await kb.repo.backend.readCommit(state.commit!);
  return new Date(c.committer.timestamp * 1000).toISOString();
}

function combine(state: KnowledgeState, view: WorkspaceView, name: string | null, problems: Diagnostic[]): MergedState {
  const ws = view.state;
  const broken = problems.some((p) => p.severity === 'error');
  // never fail open: an unreadable workspace store counts as one with the default rules
  const wsRules: SafetyRules | null = ws ? ws.rules : broken ? (DEFAULT_RULES as SafetyRules) : null;
  const rules = wsRules ? (mergeRules(state.rules, wsRules) as SafetyRules) : state.rules;
  const wsDiagnostics = (ws?.diagnostics ?? []).map((d): Diagnostic => ({ ...d, store: view.store }));
  const diagnostics = [...state.diagnostics, ...wsDiagnostics, ...problems];
  if (!ws || ws.config?.kind === 'repo') return { ...state, rules, diagnostics, workspace: view };
  const applies = (i: { scope?: string[] | undefined }) =>
    !i.scope?.length || i.scope.includes('all') || (name !== null && (i.scope.includes(name) || i.scope.includes(name.split('/').pop()!)));
  const items = { ...state.items };
  // display IDs are numbered per store: a shared number is a coincidence, only a shared slug overrides
  items.decision = withWorkspace(view, state.items.decision, ws.items.decision.filter(applies), (d: Decision) => [d.slug]);
  items.memory = withWorkspace(view, state.items.memory, ws.items.memory.filter(applies), (m: Memory) => [m.slug]);
  items.oracle = [...ws.items.oracle, ...state.items.oracle];
  for (const p of ws.items.oracle) view.items.add(p);
  return { ...state, items, rules, diagnostics, workspace: view };
}

/** Both lists: the repository's items, then the workspace's that no repository item shadows (same slug). */
function withWorkspace<T extends ItemBase>(view: WorkspaceView, own: T[], theirs: T[], keys: (i: T) => string[]): T[] {
  const taken = new Set(own.flatMap(keys));
  const added = theirs.filter((i) => !keys(i).some((k) => taken.has(k)));
  for (const i of added) view.items.add(i);
  return [...own, ...added];
}

/** Where an item of a merged view is stored: the workspace store's path, or null for the repository's own. */
export function storeOf(state: MergedState, item: object): string | null {
  return state.workspace?.items.has(item) ? state.workspace.store : null;
}

/** The item as a caller shows it: a workspace item is a copy with `store` (the workspace store's path) added. */
export function tagged<T extends object>(state: MergedState, item: T): T {
  const store = storeOf(state, item);
  return store ? { ...item, store } : item;
}
