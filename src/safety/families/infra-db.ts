import type { Redirect } from '../syntax.ts';
import { type ArgsCheck, type Hit, operandAt } from './args.ts';

/**
 * The infra family's database CLIs: SQL or shell code that drops a whole database or schema —
 * given as an argument (`psql -c`, `mysql -e`, `mongosh --eval`, `clickhouse-client --query=`)
 * or read from a here-string or heredoc — `dropdb`, `mysqladmin drop`, `redis-cli FLUSHALL|FLUSHDB` and a
 * `redis-cli DEL` of the keys xargs hands it.
 * Scripts read from files (`psql -f x.sql`) are not opened.
 */

/** `DROP DATABASE`, `DROP SCHEMA` (SQL), `db.dropDatabase()` (MongoDB). */
const DROPS = /drop\s+(database|schema)\b|dropDatabase\s*\(/i;

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
]);

/** The database shell's code that drops a whole database, from its arguments or its stdin (`<<<`, heredoc). */
export function checkDbShell(program: string, args: string[], redirects: readonly Redirect[]): Hit | null {
  let found: string | null = null;
  for (const a of args) {
    if (DROPS.test(a)) {
      found = a;
      break;
    }
  }
  if (found === null) {
    for (const r of redirects) {
      if (r.input !== null && DROPS.test(r.input)) {
        found = r.input;
        break;
      }
    }
  }
  if (found === null) return null;
  const what = /dropDatabase/i.test(found) ? 'dropDatabase()' : /drop\s+schema/i.test(found) ? 'DROP SCHEMA' : 'DROP DATABASE';
  return {
    rule: `${program} ${what}`,
    reason: `\`${what}\` through \`${program}\` deletes a whole ${what === 'DROP SCHEMA' ? 'schema, every table in it' : 'database, every table in it'} and its data; only a backup brings it back`,
  };
}

const REDIS_FLUSH = /\bflush(?:all|db)\b/i;

export const DB_TOOLS: Record<string, ArgsCheck> = {
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
 * `redis-cli FLUSHALL` / `FLUSHDB`, as an argument or on stdin; `DEL` / `UNLINK` of the keys xargs
 * hands it (`fed`): what `--scan` or `keys` listed, every key when no pattern narrows it.
 */
export function checkRedis(args: string[], redirects: readonly Redirect[], fed: boolean): Hit | null {
  const verb = args[operandAt(args, REDIS_VALUED)]?.toLowerCase();
  if (fed && (verb === 'del' || verb === 'unlink'))
    return {
      rule: `xargs redis-cli ${verb.toUpperCase()}`,
      reason: `\`redis-cli ${verb.toUpperCase()}\` of the keys xargs reads deletes every key it is handed — with a scan or \`keys\` before it, all the keys they list, every key of the database when no pattern narrows them`,
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
  if (flush === 'flushall') return { rule: 'redis-cli FLUSHALL', reason: '`redis-cli FLUSHALL` deletes every key of every database on the server at once' };
  if (flush === 'flushdb') return { rule: 'redis-cli FLUSHDB', reason: '`redis-cli FLUSHDB` deletes every key of the selected database at once' };
  return null;
}
