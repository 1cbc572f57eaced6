// No zod here, nor anything that loads it: the query at the tip (knowledge/views/search/tip-search.ts)
// and the prompt hook read these on the CLI's fast path.

/**
 * What axme knows about one kind of item besides its file format (git-bug's `dag.Definition`):
 * one declaration per kind in `model/kinds/<kind>.ts`, listed once in `KINDS` (`model/kinds.ts`).
 * Every table of kinds elsewhere (display-ID kinds, live statuses, what search looks through,
 * what `axme verify` checks, MCP resources, the web page's tabs) is derived from these by
 * `kindTables`, so a new kind is picked up everywhere without another list to edit.
 */
export interface KindFacts<K extends string = string> {
  kind: K;
  /** folder in the memory tree */
  dir: string;
  /** display-ID letter (`D` for D-001); a kind without one is named by its slug */
  idPrefix?: string;
  /** statuses in which an item is live (in force, still to do); a kind without them is always live and is no one's "saved work" */
  live?: readonly string[];
  /** its items carry `anchors` in the code that `axme verify` compares (and the views mark stale) */
  anchored: boolean;
  /** search looks through it */
  searchable: boolean;
  /** one item and several, in running text ("3 backlog items") */
  noun: string;
  plural: string;
  /** the heading of a group of its items (a diff, a report) */
  heading: string;
  /** where its group stands when several kinds are listed together, lower first: a reviewer reads what steers agents first */
  order: number;
  /** the command that lists its items, named where a lookup fails */
  listCommand: string;
  /** its items are MCP resources, `axme://<dir>/<slug>` */
  resource: boolean;
  /** the page of `axme ui` that lists it: an item page of this kind highlights its tab */
  page: string;
}

/** Every table of kinds, derived from the declarations (`kindTables`). */
export interface KindTables<K extends string> {
  /** every kind, in listing order (`order`) */
  names: readonly K[];
  /** kinds whose items carry a display ID */
  idKinds: readonly K[];
  /** the kind of a display-ID letter */
  kindOfPrefix: ReadonlyMap<string, K>;
  /** a display ID of any kind: the letter in group 1, the number in group 2 */
  idPattern: RegExp;
  /** live statuses by kind; null: always live */
  liveStatuses: Readonly<Record<K, readonly string[] | null>>;
  /** kinds with live statuses: what a prompt recalls, what a session page lists as saved */
  liveKinds: readonly K[];
  /** kinds search looks through */
  searchKinds: readonly K[];
  /** kinds `axme verify` checks */
  anchoredKinds: readonly K[];
  /** kinds served as MCP resources */
  resourceKinds: readonly K[];
  /** the `axme ui` page of each kind */
  pageOf: Readonly<Record<K, string>>;
  /** the heading of each kind's group of items */
  headingOf: Readonly<Record<K, string>>;
  /** the pages that list kinds, in listing order, each once */
  pages: readonly string[];
  /** the tab of each page: the heading of the kind the page is named after (`/<dir>`), else of its first kind */
  pageLabels: Readonly<Record<string, string>>;
}

/** Derives every table of kinds from the declarations; throws on two kinds with one folder, letter or name. */
export function kindTables<K extends string>(kinds: ReadonlyArray<KindFacts<K>>): KindTables<K> {
  const sorted = [...kinds].sort((a, b) => a.order - b.order);
  for (const key of ['kind', 'dir', 'idPrefix'] as const) {
    const seen = new Set<string>();
    for (const k of sorted) {
      const v = k[key];
      if (v === undefined) continue;
      if (seen.has(v)) throw new Error(`internal: two kinds declare the ${key} ${v}`);
      seen.add(v);
    }
  }
  const where = (p: (k: KindFacts<K>) => boolean) => sorted.filter(p).map((k) => k.kind);
  const ids = sorted.filter((k) => k.idPrefix);
  for (const k of ids) if (!/^[A-Z]$/.test(k.idPrefix!)) throw new Error(`internal: the display-ID letter of ${k.kind} must be one capital letter`);
  return {
    names: sorted.map((k) => k.kind),
    idKinds: ids.map((k) => k.kind),
    kindOfPrefix: new Map(ids.map((k) => [k.idPrefix!, k.kind])),
    idPattern: new RegExp(`^([${ids.map((k) => k.idPrefix).join('')}])-(\\d{3,})$`),
    liveStatuses: Object.fromEntries(sorted.map((k) => [k.kind, k.live ?? null])) as Record<K, readonly string[] | null>,
    liveKinds: where((k) => k.live !== undefined),
    searchKinds: where((k) => k.searchable),
    anchoredKinds: where((k) => k.anchored),
    resourceKinds: where((k) => k.resource),
    pageOf: Object.fromEntries(sorted.map((k) => [k.kind, k.page])) as Record<K, string>,
    headingOf: Object.fromEntries(sorted.map((k) => [k.kind, k.heading])) as Record<K, string>,
    pages: [...new Set(sorted.map((k) => k.page))],
    pageLabels: Object.fromEntries(
      [...new Set(sorted.map((k) => k.page))].map((page) => {
        const on = sorted.filter((k) => k.page === page);
        return [page, (on.find((k) => `/${k.dir}` === page) ?? on[0]!).heading];
      }),
    ),
  };
}
