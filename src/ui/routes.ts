import type { KindTables } from '../model/kind-facts.ts';
import { KIND_TABLES, type KindName } from '../model/kinds.ts';
import type { View } from './context.ts';
import { backlogView } from './views/backlog.ts';
import { codeCommitView, codeView } from './views/code.ts';
import { decisionsView } from './views/decisions.ts';
import { historyView, itemView } from './views/item.ts';
import { kindListView } from './views/kind-list.ts';
import { memoriesView } from './views/memories.ts';
import { oracleView } from './views/oracle.ts';
import { proposalView } from './views/proposals.ts';
import { questionsView } from './views/questions.ts';
import { safetyView } from './views/safety.ts';
import { searchView } from './views/search.ts';
import { sessionsView, sessionView } from './views/sessions.ts';
import { commitView, timelineView } from './views/timeline.ts';

/** The pages of kinds that have a view of their own; a kind's page not named here is a plain list of its items (`kindListView`). */
const KIND_PAGE_VIEWS: Readonly<Record<string, View>> = {
  '/decisions': decisionsView,
  '/memories': memoriesView,
  '/backlog': backlogView,
  '/questions': questionsView,
  '/sessions': sessionsView,
  '/oracle': oracleView,
};

/** The page of every declared kind (its `page`) and its view, from the tables of kinds. */
function kindPages(tables: KindTables<string>): ReadonlyMap<string, View> {
  return new Map(
    tables.pages.map((page) => {
      const on = tables.names.filter((k) => tables.pageOf[k] === page).map((kind) => ({ kind: kind as KindName, heading: tables.headingOf[kind]! }));
      return [page, KIND_PAGE_VIEWS[page] ?? kindListView(page, tables.pageLabels[page]!, on)];
    }),
  );
}

/** The pages that list no kind: a path pattern (its groups are the view's parts, URL-decoded) and the view. */
const OTHER_ROUTES: ReadonlyArray<readonly [RegExp, View]> = [
  [/^\/safety$/, safetyView],
  [/^\/session\/([^/]+)$/, sessionView],
  [/^\/timeline$/, timelineView],
  [/^\/commit\/([^/]+)$/, commitView],
  [/^\/proposal\/([^/]+)\/([^/]+)$/, proposalView],
  [/^\/code$/, codeView],
  [/^\/code\/([^/]+)$/, codeCommitView],
  [/^\/search$/, searchView],
  [/^\/item\/([^/]+)\/([^/]+)$/, itemView],
  [/^\/history\/([^/]+)\/([^/]+)$/, historyView],
];

const KIND_PAGES = kindPages(KIND_TABLES);

/** The view for a path and its decoded parts, or null (404); `tables`: the kinds whose pages are served (by default the declared ones). */
export function route(path: string, tables?: KindTables<string>): { view: View; parts: string[] } | null {
  const kindView = (tables ? kindPages(tables) : KIND_PAGES).get(path);
  if (kindView) return { view: kindView, parts: [] };
  for (const [re, view] of OTHER_ROUTES) {
    const m = re.exec(path);
    if (m) return { view, parts: m.slice(1).map((p) => decodeURIComponent(p)) };
  }
  return null;
}
