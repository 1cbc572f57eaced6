import type { KindPage } from '../model/kinds.ts';
import type { View } from './context.ts';
import { backlogView } from './views/backlog.ts';
import { codeCommitView, codeView } from './views/code.ts';
import { decisionsView } from './views/decisions.ts';
import { historyView, itemView } from './views/item.ts';
import { memoriesView } from './views/memories.ts';
import { oracleView } from './views/oracle.ts';
import { questionsView } from './views/questions.ts';
import { safetyView } from './views/safety.ts';
import { searchView } from './views/search.ts';
import { sessionsView, sessionView } from './views/sessions.ts';
import { commitView, timelineView } from './views/timeline.ts';

/** The page that lists each kind (its `page`): a new kind's page needs its view here. */
const KIND_PAGE_VIEWS = {
  '/decisions': decisionsView,
  '/memories': memoriesView,
  '/backlog': backlogView,
  '/questions': questionsView,
  '/sessions': sessionsView,
  '/oracle': oracleView,
} satisfies Record<KindPage, View>;

/** The pages: a path pattern (its groups are the view's parts, URL-decoded) and the view. */
const ROUTES: ReadonlyArray<readonly [RegExp, View]> = [
  ...Object.entries(KIND_PAGE_VIEWS).map(([path, view]) => [new RegExp(`^${path}$`), view] as const),
  [/^\/safety$/, safetyView],
  [/^\/session\/([^/]+)$/, sessionView],
  [/^\/timeline$/, timelineView],
  [/^\/commit\/([^/]+)$/, commitView],
  [/^\/code$/, codeView],
  [/^\/code\/([^/]+)$/, codeCommitView],
  [/^\/search$/, searchView],
  [/^\/item\/([^/]+)\/([^/]+)$/, itemView],
  [/^\/history\/([^/]+)\/([^/]+)$/, historyView],
];

/** The view for a path and its decoded parts, or null (404). */
export function route(path: string): { view: View; parts: string[] } | null {
  for (const [re, view] of ROUTES) {
    const m = re.exec(path);
    if (m) return { view, parts: m.slice(1).map((p) => decodeURIComponent(p)) };
  }
  return null;
}
