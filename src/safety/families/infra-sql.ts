/**
 * SQL read as SQL, for the infra family's database shells (infra-db.ts) and the code an option
 * hands a program no check knows (unknown.ts: `cqlsh -e`): the statements of a text — comments,
 * strings, quoted names and dollar-quoted bodies taken as what they are, any case, several
 * statements — and those that destroy data in bulk: `DROP DATABASE|SCHEMA|TABLE` (CQL's `DROP
 * KEYSPACE`), `DROP OWNED`, `TRUNCATE`, `DELETE` and `UPDATE … SET` with no `WHERE` (or `WHERE
 * 1=1`), `ALTER TABLE … DROP COLUMN|PARTITION`; a `DO $$ … $$` block's body is read as well. A
 * table this same text created (`CREATE TABLE t`, not `IF NOT EXISTS`) holds no one's rows: what
 * is done to it passes.
 */

/** How a dialect writes its text: MySQL's `#` comments and backslash escapes in strings; CQL's `DROP KEYSPACE` (Cassandra's database). */
export interface SqlDialect {
  mysql: boolean;
  /** read `DROP KEYSPACE` as a whole database dropped: where the shell may be Cassandra's (cqlsh, a program the unknown-command rule reads) */
  cql?: boolean;
}

/** A word (lower case; numbers too), a quoted name, a string, a dollar-quoted body, a psql meta-command, one other character. */
interface Token {
  kind: 'word' | 'name' | 'string' | 'body' | 'meta' | 'punct';
  text: string;
}

/** What a statement destroys: `DROP TABLE`, `DELETE without WHERE`…, and the tables or databases it names. */
export interface SqlWipe {
  what: string;
  /** the table names (`shop.orders`: the database or schema first), as written; empty for `DROP DATABASE|SCHEMA|OWNED` */
  tables: string[];
}

/** What a text's statements do: the wipes, in order, and whether one changes the database connected to (`USE`, `\c`, `ATTACH`). */
export interface SqlReading {
  wipes: SqlWipe[];
  switches: boolean;
}

const SPACES = /\s+/y;
const WORD = /[A-Za-z0-9_$]+/y;
const TAG = /\$[A-Za-z_]*\$/y;

/** The match of a sticky pattern at `i`, else null. */
function at(re: RegExp, text: string, i: number): string | null {
  re.lastIndex = i;
  return re.exec(text)?.[0] ?? null;
}

function tokenize(text: string, dialect: SqlDialect): Token[] {
  const out: Token[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    const next = text[i + 1];
    const run = c <= ' ' || c === '\u00a0' ? at(SPACES, text, i) : null;
    if (run) i += run.length;
    else if ((c === '-' && next === '-') || (c === '#' && dialect.mysql)) {
      const end = text.indexOf('\n', i);
      i = end < 0 ? n : end + 1;
    } else if (c === '/' && next === '*') {
      // MySQL runs what `/*! … */` holds
      if (dialect.mysql && text[i + 2] === '!') i = skipDigits(text, i + 3);
      else {
        const end = text.indexOf('*/', i + 2);
        i = end < 0 ? n : end + 2;
      }
    } else if (c === '*' && next === '/') i += 2;
    else if (c === "'" || c === '"' || c === '`') {
      const end = quoteEnd(text, i, c, dialect.mysql && c !== '`');
      out.push({ kind: c === "'" || (dialect.mysql && c === '"') ? 'string' : 'name', text: text.slice(i + 1, end - 1) });
      i = end;
    } else if (c === '$' && at(TAG, text, i)) {
      const tag = at(TAG, text, i)!;
      const end = text.indexOf(tag, i + tag.length);
      out.push({ kind: 'body', text: text.slice(i + tag.length, end < 0 ? n : end) });
      i = end < 0 ? n : end + tag.length;
    } else if (c === '\\' && next !== undefined && /[A-Za-z!?]/.test(next)) {
      // psql's meta-commands (`\c app`, `\dt`) run to the end of their line
      const end = text.indexOf('\n', i);
      out.push({ kind: 'meta', text: text.slice(i + 1, end < 0 ? n : end).trim() });
      i = end < 0 ? n : end + 1;
    } else {
      const word = at(WORD, text, i);
      if (word) {
        out.push({ kind: 'word', text: word.toLowerCase() });
        i += word.length;
      } else {
        out.push({ kind: 'punct', text: c });
        i++;
      }
    }
  }
  return out;
}

function skipDigits(text: string, i: number): number {
  while (i < text.length && /\d/.test(text[i]!)) i++;
  return i;
}

/** The index after the closing quote of the string or name opened at `start` (a doubled quote stays inside). */
function quoteEnd(text: string, start: number, quote: string, backslash: boolean): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (backslash && c === '\\') i++;
    else if (c === quote) {
      if (text[i + 1] !== quote) return i + 1;
      i++;
    }
  }
  return text.length;
}

/** The statements of a token list: split at `;`, each psql meta-command one of its own. */
function statements(tokens: readonly Token[]): Token[][] {
  const out: Token[][] = [];
  let cur: Token[] = [];
  for (const t of tokens) {
    if (t.kind === 'meta' || (t.kind === 'punct' && t.text === ';')) {
      if (cur.length) out.push(cur);
      cur = [];
      if (t.kind === 'meta') out.push([t]);
    } else cur.push(t);
  }
  if (cur.length) out.push(cur);
  return out;
}

const isWord = (t: Token | undefined, ...words: string[]): boolean => t?.kind === 'word' && words.includes(t.text);
const isPunct = (t: Token | undefined, ch: string): boolean => t?.kind === 'punct' && t.text === ch;

/** Where a statement may start inside another: after `(` or `)` (a CTE, `EXPLAIN (ANALYZE)`), `EXPLAIN ANALYZE`, a block's `BEGIN`. */
function startsHere(s: readonly Token[], i: number): boolean {
  const prev = s[i - 1];
  return prev === undefined || isPunct(prev, '(') || isPunct(prev, ')') || isWord(prev, 'analyze', 'begin');
}

/** A table name at `i` (`users`, `shop.orders`, `"Users"`): its text and the index after it. */
function nameAt(s: readonly Token[], i: number): { name: string; next: number } | null {
  const parts: string[] = [];
  let k = i;
  while (s[k]?.kind === 'word' || s[k]?.kind === 'name') {
    parts.push(s[k]!.text);
    if (!isPunct(s[k + 1], '.')) break;
    k += 2;
  }
  return parts.length ? { name: parts.join('.'), next: k + 1 } : null;
}

/** The comma-separated names from `i` on (`TRUNCATE a, b`, `DROP TABLE a, b`). */
function namesFrom(s: readonly Token[], i: number): string[] {
  const out: string[] = [];
  for (let k = i; ; ) {
    const n = nameAt(s, k);
    if (!n) return out;
    out.push(n.name);
    if (!isPunct(s[n.next], ',')) return out;
    k = n.next + 1;
  }
}

/** Skip the words in `words` from `i` on. */
function skip(s: readonly Token[], i: number, ...words: string[]): number {
  while (isWord(s[i], ...words)) i++;
  return i;
}

/**
 * The statement's parenthesis groups: `group[k]`, the group token k stands in (one id per pair of
 * parentheses; 0 the statement's own level), and each group's `WHERE`s in order — so finding the
 * `WHERE` of a clause is a look-up, and a statement is read in linear time however it nests.
 */
interface Groups {
  group: number[];
  wheres: Map<number, number[]>;
}

function groupsOf(s: readonly Token[]): Groups {
  const group = new Array<number>(s.length);
  const wheres = new Map<number, number[]>();
  const open: number[] = [0];
  let next = 1;
  for (let k = 0; k < s.length; k++) {
    const t = s[k]!;
    if (isPunct(t, ')') && open.length > 1) open.pop();
    group[k] = open[open.length - 1]!;
    if (isPunct(t, '(')) open.push(next++);
    else if (isWord(t, 'where')) {
      const list = wheres.get(group[k]!);
      if (list) list.push(k);
      else wheres.set(group[k]!, [k]);
    }
  }
  return { group, wheres };
}

/**
 * Whether the clause of the keyword at `i` has a `WHERE` after it in its own parentheses (or the
 * statement) that is not always true (`1=1`, `true`).
 */
function narrowed(s: readonly Token[], g: Groups, i: number): boolean {
  const list = g.wheres.get(g.group[i]!);
  if (!list) return false;
  // the first WHERE after i: binary search, the list being in order
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]! > i) hi = mid;
    else lo = mid + 1;
  }
  return lo < list.length && !alwaysTrue(s, list[lo]! + 1);
}

/** `WHERE 1=1`, `WHERE true`, `WHERE 1`: a condition every row meets. */
function alwaysTrue(s: readonly Token[], i: number): boolean {
  const ends = (k: number) => k >= s.length || isPunct(s[k], ')') || isPunct(s[k], ';') || isWord(s[k], 'returning', 'limit', 'order');
  if (ends(i + 1)) return isWord(s[i], 'true', '1');
  const [a, eq, b] = [s[i], s[i + 1], s[i + 2]];
  return !!a && !!b && ends(i + 3) && isPunct(eq, '=') && a.kind === b.kind && a.kind !== 'name' && a.text === b.text;
}

/** `ALTER TABLE x DROP …` words that take no column's data: constraints, indexes, defaults. */
const ALTER_DROPS_KEPT = new Set([
  'constraint',
  'index',
  'key',
  'primary',
  'foreign',
  'check',
  'default',
  'not',
  'identity',
  'expression',
  'trigger',
  'fulltext',
  'spatial',
  'projection',
  'statistics',
  'system',
]);

/** `ALTER TABLE [IF EXISTS] [ONLY] t …, DROP [COLUMN] c, …`: a column (or a partition and its rows) dropped. */
function alterDrop(s: readonly Token[], i: number): SqlWipe | null {
  if (!isWord(s[i + 1], 'table')) return null;
  let k = skip(s, i + 2, 'only');
  if (isWord(s[k], 'if') && isWord(s[k + 1], 'exists')) k = skip(s, k + 2, 'only');
  const table = nameAt(s, k);
  if (!table) return null;
  let depth = 0;
  for (let c = table.next; c < s.length; c++) {
    const t = s[c]!;
    if (isPunct(t, '(')) depth++;
    else if (isPunct(t, ')')) depth--;
    const clauseStart = c === table.next || (depth === 0 && isPunct(s[c - 1], ','));
    if (!clauseStart || !isWord(t, 'drop')) continue;
    const next = s[c + 1];
    if (isWord(next, 'partition')) return { what: 'ALTER TABLE DROP PARTITION', tables: [table.name] };
    if (next && !(next.kind === 'word' && ALTER_DROPS_KEPT.has(next.text))) return { what: 'ALTER TABLE DROP COLUMN', tables: [table.name] };
  }
  return null;
}

/** The words that start a statement that may destroy data (MAY_WIPE: anywhere in a text, any case). */
const MAY_WIPE = /drop|truncate|delete|update|alter/i;
const WIPE_VERBS = new Set(['drop', 'truncate', 'delete', 'update', 'alter']);

/** What one statement's token at `i` destroys, if it starts one there (`g`: the statement's groups, for a DELETE or UPDATE). */
function wipeAt(s: readonly Token[], g: Groups | null, i: number, dialect: SqlDialect): SqlWipe | null {
  const t = s[i]!;
  if (t.kind !== 'word' || !startsHere(s, i)) return null;
  switch (t.text) {
    case 'drop': {
      const what = s[i + 1];
      if (isWord(what, 'database', 'schema') || (dialect.cql && isWord(what, 'keyspace'))) return { what: `DROP ${what!.text.toUpperCase()}`, tables: [] };
      if (isWord(what, 'owned')) return { what: 'DROP OWNED', tables: [] };
      if (!isWord(what, 'table')) return null;
      const k = isWord(s[i + 2], 'if') && isWord(s[i + 3], 'exists') ? i + 4 : i + 2;
      return { what: 'DROP TABLE', tables: namesFrom(s, k) };
    }
    case 'truncate': {
      if (isPunct(s[i + 1], '(')) return null; // MySQL's TRUNCATE(x, d) rounds a number
      return { what: 'TRUNCATE', tables: namesFrom(s, skip(s, i + 1, 'table', 'only')) };
    }
    case 'delete': {
      if (narrowed(s, g!, i)) return null;
      let k = skip(s, i + 1, 'low_priority', 'quick', 'ignore', 'from', 'only');
      if (isWord(s[k], 'top') && isPunct(s[k + 1], '(')) k = skip(s, k + 4, 'from');
      return { what: 'DELETE without WHERE', tables: namesFrom(s, k) };
    }
    case 'update': {
      const table = nameAt(s, skip(s, i + 1, 'only', 'low_priority', 'ignore'));
      let set = table ? table.next : -1;
      if (isWord(s[set], 'as')) set++;
      if (set >= 0 && s[set]?.kind === 'word' && !isWord(s[set], 'set')) set++; // an alias
      if (!table || !isWord(s[set], 'set') || narrowed(s, g!, set)) return null;
      return { what: 'UPDATE without WHERE', tables: [table.name] };
    }
    case 'alter':
      // ALTER TABLE is a statement of its own, never inside another
      return i === 0 ? alterDrop(s, i) : null;
    default:
      return null;
  }
}

/** The table a `CREATE [TEMP|UNLOGGED] TABLE t` statement makes, not one that may already be there (`IF NOT EXISTS`). */
function created(s: readonly Token[]): string | null {
  if (!isWord(s[0], 'create')) return null;
  let k = skip(s, 1, 'or', 'replace', 'global', 'local', 'temp', 'temporary', 'unlogged');
  if (!isWord(s[k], 'table')) return null;
  k++;
  return isWord(s[k], 'if') ? null : (nameAt(s, k)?.name ?? null);
}

/** Whether a statement connects to another database: `USE shop`, `\c app`, `ATTACH 'x.db'`. */
function switches(s: readonly Token[]): boolean {
  const first = s[0]!;
  return isWord(first, 'use', 'attach') || (first.kind === 'meta' && /^(c|connect)(\s|$)/.test(first.text));
}

/**
 * The bulk deletes of SQL texts run in order by one shell (`psql -c a -c b`, a heredoc), whether
 * one of them connects elsewhere; what is done to a table the texts created before passes.
 */
export function readSql(texts: readonly string[], dialect: SqlDialect): SqlReading {
  const made = new Set<string>();
  const reading: SqlReading = { wipes: [], switches: false };
  const read = (text: string, depth: number): void => {
    for (const s of statements(tokenize(text, dialect))) {
      if (switches(s)) reading.switches = true;
      const table = created(s);
      if (table) made.add(table);
      // `DO $$ BEGIN DELETE FROM t; END $$` runs its body now
      if (isWord(s[0], 'do') && depth < 2) for (const t of s) if (t.kind === 'body') read(t.text, depth + 1);
      let groups: Groups | null = null;
      for (let i = 0; i < s.length; i++) {
        const t = s[i]!;
        if (t.kind !== 'word' || !WIPE_VERBS.has(t.text)) continue;
        // the WHERE look-up of a DELETE or UPDATE, made once a statement has one
        if (!groups && (t.text === 'delete' || t.text === 'update')) groups = groupsOf(s);
        const wipe = wipeAt(s, groups, i, dialect);
        if (wipe && !(wipe.tables.length && wipe.tables.every((t) => made.has(t)))) reading.wipes.push(wipe);
      }
    }
  };
  // most SQL destroys nothing: a text without one of the verbs is not taken apart
  if (texts.some((t) => MAY_WIPE.test(t))) for (const text of texts) read(text, 0);
  return reading;
}
