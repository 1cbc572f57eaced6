import type { Redirect } from '../syntax.ts';
import { type Hit, operands, optionValues } from './args.ts';
import { checkSqlTexts } from './infra-db.ts';

/**
 * The infra family's commands that run SQL where no database shell is (docs/safety.md, the infra
 * row): a cloud or warehouse CLI's query verb and a hosted database's shell, the SQL read as a
 * database shell's is (infra-sql.ts) — `bq query 'DROP SCHEMA x CASCADE'`, `aws rds-data|redshift-data
 * execute-statement --sql`, `aws athena start-query-execution --query-string`, `gcloud spanner
 * databases execute-sql --sql`, `wrangler d1 execute --command`, `turso db shell DB 'SQL'` (or on
 * stdin), `heroku pg:psql` and `fly postgres connect` fed SQL on stdin, `sqlplus` on stdin, `db2
 * 'SQL'`, `influx -execute`. Their reads pass (`bq query 'SELECT …'`).
 */

interface SqlVerb {
  /** the operands that name the verb (`rds-data execute-statement`) */
  path: readonly string[];
  /** the options whose value is SQL */
  options?: readonly string[];
  /** the operands after the verb that are SQL, from this one on (`turso db shell DB 'SQL'`: 1) */
  operandsFrom?: number;
  /** it reads SQL on stdin (a here-string, a heredoc) */
  stdin?: boolean;
}

const FLY: readonly SqlVerb[] = [
  { path: ['postgres', 'connect'], stdin: true },
  { path: ['pg', 'connect'], stdin: true },
];

const SQL_VERBS: Record<string, readonly SqlVerb[]> = {
  bq: [{ path: ['query'], operandsFrom: 0 }],
  aws: [
    { path: ['rds-data', 'execute-statement'], options: ['--sql'] },
    { path: ['rds-data', 'batch-execute-statement'], options: ['--sql'] },
    { path: ['redshift-data', 'execute-statement'], options: ['--sql'] },
    { path: ['redshift-data', 'batch-execute-statement'], options: ['--sqls'] },
    { path: ['athena', 'start-query-execution'], options: ['--query-string'] },
  ],
  gcloud: [{ path: ['spanner', 'databases', 'execute-sql'], options: ['--sql'] }],
  wrangler: [{ path: ['d1', 'execute'], options: ['--command'] }],
  turso: [{ path: ['db', 'shell'], operandsFrom: 1, stdin: true }],
  heroku: [{ path: ['pg:psql'], options: ['-c', '--command'], stdin: true }],
  fly: FLY,
  flyctl: FLY,
  sqlplus: [{ path: [], stdin: true }],
  db2: [{ path: [], operandsFrom: 0 }],
  influx: [{ path: [], options: ['-execute', '--execute'] }],
};

/** The options of these CLIs that take a value before their verb (`aws --profile p rds-data …`, `heroku pg:psql -a app`). */
const VALUED = new Set([
  '--profile',
  '--region',
  '--output',
  '--project',
  '--project_id',
  '--location',
  '-a',
  '--app',
  '--endpoint-url',
  '--instance',
  '--config',
  '--env',
  '-e',
]);

/** The SQL a command of the table runs that destroys data in bulk, or null. */
export function checkSqlVerb(program: string, args: readonly string[], redirects: readonly Redirect[]): Hit | null {
  const verbs = Object.hasOwn(SQL_VERBS, program) ? SQL_VERBS[program]! : null;
  if (!verbs) return null;
  const words = operands(args, VALUED);
  for (const v of verbs) {
    if (!v.path.every((p, i) => words[i] === p)) continue;
    const texts = [
      ...optionValues(args, ...(v.options ?? [])),
      ...(v.operandsFrom === undefined ? [] : words.slice(v.path.length + v.operandsFrom)),
      ...(v.stdin ? redirects.flatMap((r) => (r.input !== null ? [r.input] : [])) : []),
    ];
    const hit = texts.length ? checkSqlTexts(`${program} ${v.path.join(' ')}`.trim(), texts) : null;
    if (hit) return hit;
  }
  return null;
}
