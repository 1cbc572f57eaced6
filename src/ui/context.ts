import type { KnowledgeBase } from '../knowledge/core/kb.ts';
import type { Html } from './html.ts';

/** What every view reads from: the knowledge base, the revision the server shows, the code's folder. */
export interface UiContext {
  kb: KnowledgeBase;
  /** the revision or date given with --at (undefined: the tip, re-read on every request) */
  at: string | undefined;
  /** where git runs for the code commits (the folder axme ui was started in) */
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** a person may change items from the page (no --at, a loopback address): the run's anti-forgery token; null: read-only */
  actions: { csrf: string } | null;
}

/** A rendered view: its title, the navigation entry it belongs to, the body; or a bare fragment (search-as-you-type). */
export type ViewResult = { title: string; active: string; body: Html; commit?: string | null | undefined } | { fragment: Html };

/** One view: the request's URL and the parts of the path its route captured. */
export type View = (ctx: UiContext, url: URL, parts: string[]) => Promise<ViewResult>;

/** Items per page of a long list. */
export const PAGE_SIZE = 200;

/** A whole number from the query (page numbers): the default when absent or not one. */
export function intParam(url: URL, name: string, fallback: number): number {
  const v = Number(url.searchParams.get(name));
  return Number.isInteger(v) && v >= 1 && v <= 1_000_000 ? v : fallback;
}
