import type { Redirect } from '../syntax.ts';
import { type ArgsCheck, type Hit, operandAt, optionValues } from './args.ts';
import { readSql, type SqlWipe } from './infra-sql.ts';

/**
 * The infra family's database CLIs: code that destroys data in bulk — SQL read as SQL
 * (infra-sql.ts: `DROP DATABASE|SCHEMA|TABLE`, `TRUNCATE`, `DELETE` or `UPDATE` with no `WHERE`,
 * `ALTER TABLE … DROP COLUMN`) and MongoDB code (`dropDatabase()`, a collection's `drop()`,
 * `deleteMany({})`) — given as an argument (`psql -c`, `mysql -e`, `mongosh --eval`,
 * `clickhouse-client --query=`) or read from a here-string or heredoc; `dropdb`, `pg_dropcluster`, `mysqladmin drop`,
 * `redis-cli FLUSHALL|FLUSHDB` and a `redis-cli DEL` of the keys xargs hands it. Rows of a test
 * database (`app_test`, `test.db`: its test runs empty it) or an in-memory one pass; a whole
 * database or schema dropped does not. Scripts read from files (`psql -f x.sql`) are not opened.
 */

/** Programs whose arguments and stdin are SQL or database shell code. */
export const DB_SHELLS = new Set([
  'psql',
  'mysql',
  'mariadb',
  'sqlite3',
  'mongosh',
  'mongo',
  'cockroach',
  'clickhouse-client',
  'clickhouse',
  'sqlcmd',
  'duckdb',
  // the dbcli shells (`pgcli`, `mycli`, `litecli`) and usql read the same SQL, from `-e` or their input
  'pgcli',
  'mycli',
  'litecli',
  'usql',
]);

const MONGO_SHELLS = new Set(['mongosh', 'mongo']);
/** Shells whose SQL writes MySQL's `#` comments and backslash escapes, and whose `a.b` names a database's table. */
const MYSQL_SHELLS = new Set(['mysql', 'mariadb', 'clickhouse-client', 'clickhouse', 'mycli']);

/** The database shells' options that take a value, all of them together (one more skipped never takes a test database's name for another). */
const DB_VALUED = new Set([
  '-c',
  '-d',
  '-D',
  '-e',
  '-f',
  '-F',
  '-h',
  '-i',
  '-L',
  '-o',
  '-p',
  '-P',
  '-q',
  '-Q',
  '-R',
  '-s',
  '-S',
  '-T',
  '-u',
  '-U',
  '-v',
  '-cmd',
  '-init',
  '-separator',
  '-newline',
  '-nullvalue',
  '--command',
  '--file',
  '--host',
  '--port',
  '--user',
  '--username',
  '--password',
  '--set',
  '--variable',
  '--output',
  '--log-file',
  '--execute',
  '--eval',
  '--socket',
  '--query',
  '--database',
  '--dbname',
  '--url',
  '--authenticationDatabase',
  '--format',
  '--certs-dir',
  '--defaults-file',
  '--login-path',
  '--init-command',
  '--default-character-set',
]);

/** The code the shell is handed: its arguments (an option's attached value: `--command=…`, `-c…` with a space in it) and what it reads on stdin. */
function codeTexts(args: readonly string[], redirects: readonly Redirect[]): string[] {
  const out: string[] = [];
  for (const a of args) {
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      if (eq > 0) out.push(a.slice(eq + 1));
    } else if (a.startsWith('-') && a.length > 2) {
      if (/\s/.test(a)) out.push(a.slice(2));
    } else out.push(a);
  }
  for (const r of redirects) if (r.input !== null) out.push(r.input);
  return out;
}

/** The database the shell connects to, as the command line names it (`-d app_test`, `app_test`, `postgres://h/app_test`, `test.db`), else null. */
function databaseNamed(args: readonly string[]): string | null {
  const named = optionValues(args, '-d', '-D', '--dbname', '--database', '--url')[0] ?? args[operandAt(args, DB_VALUED)];
  if (!named) return null;
  const url = /^[a-z][a-z0-9+.-]*:\/\/[^/]*\/([^?#]*)/i.exec(named);
  if (url) return url[1]!;
  return /(?:^|\s)dbname=(\S+)/.exec(named)?.[1] ?? named;
}

/** A database whose rows no one keeps: in memory, or a test database (a word of its name is `test`), which its own test runs empty. */
function scratchDatabase(name: string | null | undefined): boolean {
  if (!name) return false;
  if (name === ':memory:') return true;
  const base = name.slice(name.lastIndexOf('/') + 1).toLowerCase();
  return base.split(/[^a-z0-9]+/).some((w) => w === 'test' || w === 'tests' || w === 'testing');
}

/** A database, a collection dropped or every document of one deleted or overwritten (an empty filter), in MongoDB's shell code. */
const MONGO_WIPES: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bdropDatabase\s*\(|["']?\bdropDatabase["']?\s*:/, 'dropDatabase()'],
  [/\.drop\s*\(|[{,]\s*["']?drop["']?\s*:/, 'drop()'],
  [/\.deleteMany\s*\(\s*(?:\{\s*\}\s*)?[,)]/, 'deleteMany({})'],
  [/\.remove\s*\(\s*(?:\{\s*\}\s*)?[,)]/, 'remove({})'],
  [/\.updateMany\s*\(\s*\{\s*\}\s*,/, 'updateMany({})'],
];

const WIPE_REASONS: Record<string, string> = {
  'DROP DATABASE': 'deletes a whole database, every table in it and its data',
  'DROP SCHEMA': 'deletes a whole schema, every table in it and its data',
  'DROP OWNED': 'drops every object the role owns, tables and their rows with them',
  'DROP TABLE': 'deletes the table and every row in it',
  TRUNCATE: 'deletes every row of the table at once',
  'DELETE without WHERE': 'deletes every row of the table: no `WHERE` narrows it',
  'UPDATE without WHERE': 'overwrites the columns it sets in every row: no `WHERE` narrows it',
  'ALTER TABLE DROP COLUMN': 'deletes the column and its value in every row',
  'ALTER TABLE DROP PARTITION': 'deletes the partition and every row in it',
  'dropDatabase()': 'deletes a whole database, every collection in it and its data',
  'drop()': 'deletes the collection and every document in it',
  'deleteMany({})': 'deletes every document of the collection: the empty filter matches them all',
  'remove({})': 'deletes every document of the collection: the empty filter matches them all',
  'updateMany({})': 'overwrites the fields it sets in every document of the collection: the empty filter matches them all',
};

/** What drops a whole database, whatever the database it runs in. */
const WHOLE = new Set(['DROP DATABASE', 'DROP SCHEMA', 'dropDatabase()']);

/**
 * The database shell's code that destroys data in bulk, from its arguments or its stdin (`<<<`,
 * heredoc, what a static `echo` pipes in): a whole database always; rows, tables and columns
 * unless the shell stays in a test or in-memory database (no `USE`, `\c`, `getSiblingDB` away).
 */
export function checkDbShell(program: string, args: string[], redirects: readonly Redirect[]): Hit | null {
  const texts = codeTexts(args, redirects);
  const db = databaseNamed(args);
  let wipes: SqlWipe[];
  let away: boolean;
  if (MONGO_SHELLS.has(program)) {
    wipes = [];
    for (const text of texts) for (const [re, what] of MONGO_WIPES) if (re.test(text)) wipes.push({ what, tables: [] });
    away = texts.some((t) => /\bgetSiblingDB\b|\bgetMongo\b|\bconnect\s*\(|\bMongo\s*\(|^\s*use\s/m.test(t));
  } else {
    const mysql = MYSQL_SHELLS.has(program);
    const reading = readSql(texts, { mysql });
    wipes = reading.wipes;
    away = reading.switches;
    // MySQL's `shop.orders` is the table of the database `shop`
    if (mysql && wipes.some((w) => w.tables.some((t) => t.includes('.') && !scratchDatabase(t.slice(0, t.indexOf('.')))))) away = true;
  }
  const scratch = !away && scratchDatabase(db);
  const wipe = wipes.find((w) => WHOLE.has(w.what) || !scratch);
  return wipe ? wipeHit(program, wipe) : null;
}

/** The SQL of a command that runs it where no database shell is (infra-sql-commands.ts: `bq query 'DROP …'`): its wipe, in whatever database. */
export function checkSqlTexts(program: string, texts: readonly string[]): Hit | null {
  const wipe = readSql(texts, { mysql: false }).wipes[0];
  return wipe ? wipeHit(program, wipe) : null;
}

/** The finding for a wipe through `program`. */
function wipeHit(program: string, wipe: SqlWipe): Hit {
  const on = wipe.tables.length ? ` ${wipe.tables.slice(0, 3).join(', ')}${wipe.tables.length > 3 ? ', …' : ''}` : '';
  const whole = WHOLE.has(wipe.what);
  return {
    rule: `${program} ${wipe.what}`,
    reason: `\`${wipe.what}${on}\` through \`${program}\` ${WIPE_REASONS[wipe.what]}; only a backup brings ${whole ? 'it' : 'them'} back${whole ? '' : ' (in a test database, `app_test` or `test.db`, or in `:memory:` they pass)'}`,
  };
}

const REDIS_FLUSH = /\bflush(?:all|db)\b/i;

export const DB_TOOLS: Record<string, ArgsCheck> = {
  // Debian's postgresql-common: `pg_dropcluster 16 main` deletes a whole server's data folder, every database in it
  pg_dropcluster: (args) =>
    args.includes('--help') || args.includes('-h')
      ? null
      : { rule: 'pg_dropcluster', reason: "`pg_dropcluster` deletes a PostgreSQL cluster's data folder, every database in it; only a backup brings them back" },
  dropdb: (args) =>
    args.includes('--help') || args.includes('-?') || args.includes('--version') || args.includes('-V')
      ? null
      : { rule: 'dropdb', reason: '`dropdb` deletes a whole PostgreSQL database and its data; only a backup brings it back' },
  mysqladmin: (args) => {
    for (let k = operandAt(args); k >= 0; k = operandAt(args, undefined, k + 1)) {
      const w = args[k]!.toLowerCase();
      if (w === 'drop') return { rule: 'mysqladmin drop', reason: '`mysqladmin drop` deletes a whole database and its data; only a backup brings it back' };
    }
    return null;
  },
};

/**
 * redis-cli and the clients of the servers that speak its protocol and share its command line:
 * Valkey's, KeyDB's, Redict's, Memurai's (`valkey-cli FLUSHALL`, `keydb-cli <<< FLUSHALL`).
 */
export const REDIS_CLIENTS: ReadonlySet<string> = new Set(['redis-cli', 'valkey-cli', 'keydb-cli', 'redict-cli', 'memurai-cli']);

/** redis-cli's options that take a value. */
const REDIS_VALUED = new Set([
  '-h',
  '-p',
  '-s',
  '-a',
  '-u',
  '-r',
  '-i',
  '-n',
  '-d',
  '--user',
  '--pass',
  '--pattern',
  '--count',
  '--cacert',
  '--cert',
  '--key',
  '--sni',
]);

/**
 * `redis-cli FLUSHALL` / `FLUSHDB` (or a REDIS_CLIENTS sibling's), as an argument or on stdin; `DEL` / `UNLINK` of the keys xargs
 * hands it (`fed`): what `--scan` or `keys` listed, every key when no pattern narrows it.
 */
export function checkRedis(program: string, args: string[], redirects: readonly Redirect[], fed: boolean): Hit | null {
  const verb = args[operandAt(args, REDIS_VALUED)]?.toLowerCase();
  if (fed && (verb === 'del' || verb === 'unlink'))
    return {
      rule: `xargs ${program} ${verb.toUpperCase()}`,
      reason: `\`${program} ${verb.toUpperCase()}\` of the keys xargs reads deletes every key it is handed — with a scan or \`keys\` before it, all the keys they list, every key of the database when no pattern narrows them`,
    };
  let flush: string | null = null;
  for (const a of args) {
    const w = a.toLowerCase();
    if (w === 'flushall' || w === 'flushdb') {
      flush = w;
      break;
    }
  }
  if (flush === null) {
    for (const r of redirects) {
      const m = r.input !== null ? REDIS_FLUSH.exec(r.input) : null;
      if (m) {
        flush = m[0].toLowerCase();
        break;
      }
    }
  }
  if (flush === 'flushall') return { rule: `${program} FLUSHALL`, reason: `\`${program} FLUSHALL\` deletes every key of every database on the server at once` };
  if (flush === 'flushdb') return { rule: `${program} FLUSHDB`, reason: `\`${program} FLUSHDB\` deletes every key of the selected database at once` };
  return null;
}
