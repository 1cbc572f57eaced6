/**
 * Escaped HTML templates: every value put into an `html` template is escaped unless it is
 * itself `Html` (built by `html` or `raw`), so a title like `<img src=x onerror=...>` is text.
 */

import type { KindTables } from '../model/kind-facts.ts';
import { KIND_TABLES } from '../model/kinds.ts';

/** A piece of markup that is already safe to put into a page. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Value = Html | string | number | boolean | null | undefined | readonly Value[];

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML: the five characters that matter in content and quoted attributes, escaped. */
function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

function piece(v: Value): string {
  if (v === null || v === undefined || v === false) return '';
  if (v instanceof Html) return v.text;
  if (Array.isArray(v)) return v.map(piece).join('');
  return esc(String(v));
}

/** The tagged template: literal parts as written, values escaped (arrays joined, null/false left out). */
export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += piece(values[i]!) + strings[i + 1]!;
  return new Html(out);
}

/** Markup written by this program (never data): trusted as it is. */
export function raw(s: string): Html {
  return new Html(s);
}

/** A link inside the page: the path and query are encoded by the caller with `href`. */
export function href(path: string, query: Record<string, string | number | undefined | null> = {}): string {
  const q = Object.entries(query).filter(([, v]) => v !== undefined && v !== null && v !== '');
  return q.length ? `${path}?${q.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`).join('&')}` : path;
}

/** The page around a view: header with the navigation and the search box, the view, the script. */
export function layout(opts: { title: string; active: string; body: Html; at?: string | undefined; commit?: string | null | undefined }): string {
  const nav = NAV.map(([path, label]) => html`<a href="${path}"${opts.active === path ? raw(' class="active" aria-current="page"') : ''}>${label}</a>`);
  return `<!doctype html>${
    html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${opts.title} &middot; axme</title><link rel="stylesheet" href="/assets/ui.css"><script src="/assets/ui.js" defer></script></head>
<body><header><a class="brand" href="/">axme</a><nav>${nav}</nav>
<form class="search" action="/search" method="get" role="search"><input type="search" name="q" id="q" placeholder="Search (press /)" autocomplete="off" aria-label="Search the knowledge"></form></header>
${opts.at ? html`<p class="at">Read at <code>${opts.at}</code>${opts.commit ? html` (commit <code>${opts.commit.slice(0, 12)}</code>)` : ''}</p>` : ''}
<main id="main"><h1>${opts.title}</h1>${opts.body}</main>
<footer>the knowledge on <code>refs/memory/main</code>${opts.commit ? html` at <code>${opts.commit.slice(0, 12)}</code>` : ''}</footer></body></html>`.text
  }`;
}

/** The tabs after the kinds' pages: the views that list no kind. */
const OTHER_TABS = [
  ['/safety', 'Safety'],
  ['/timeline', 'Timeline'],
  ['/code', 'Code'],
] as const;

/** The navigation, in order: the page of every kind (`page` in its declaration, in listing order), then the other views. */
export function navTabs(tables: KindTables<string> = KIND_TABLES): ReadonlyArray<readonly [path: string, label: string]> {
  return [...tables.pages.map((page) => [page, tables.pageLabels[page]!] as const), ...OTHER_TABS];
}

const NAV = navTabs();
