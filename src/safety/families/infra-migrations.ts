import { type ArgsCheck, GRADLE_VALUED, type Hit, hasOption, operandAt, operands } from './args.ts';

/**
 * The infra family's migration and restore tools: the verbs that drop every object of a schema
 * (`flyway clean`, `liquibase dropAll`, `atlas schema clean`), drop the database (`dbmate drop`),
 * roll every migration back (`goose reset`, `goose down-to 0`, `alembic downgrade base`), and the
 * restores that drop what the database holds before loading a dump (`pg_restore --clean -d`,
 * `mongorestore --drop`, `mongoimport --drop`), and the Maven and Gradle plugins' goals for the
 * same wipes (`mvn flyway:clean`, `gradle flywayClean`). Their everyday verbs — migrate, status,
 * info, one step down, a restore without dropping — and a restore into a file pass.
 */

function hit(rule: string, what: string): Hit {
  return { rule, reason: `\`${rule}\` ${what}; the data comes back only from a backup` };
}

const SCHEMA_WIPE = 'drops every table, view and procedure of the schema, with their data';
const ALL_DOWN = 'rolls every migration back, dropping the tables they created and the data in them';

/** Flyway's commands stand after its `-key=value` options: `flyway -url=… clean`. */
const flyway: ArgsCheck = (args) => (operands(args).includes('clean') ? hit('flyway clean', SCHEMA_WIPE) : null);

/** Liquibase's `dropAll` (`drop-all` since 4.x, any case); its options are `--key=value` or before the command. */
const liquibase: ArgsCheck = (args) =>
  operands(args).some((w) => /^drop-?all$/i.test(w)) ? hit('liquibase dropAll', 'drops every table, view and sequence the user owns, with their data') : null;

const DBMATE_VALUED = new Set([
  '-u',
  '--url',
  '-e',
  '--env',
  '--env-file',
  '-d',
  '--migrations-dir',
  '--migrations-table',
  '-s',
  '--schema-file',
  '--wait-timeout',
]);

const dbmate: ArgsCheck = (args) => (args[operandAt(args, DBMATE_VALUED)] === 'drop' ? hit('dbmate drop', 'deletes the whole database') : null);

const GOOSE_VALUED = new Set(['-dir', '--dir', '-table', '--table', '-certfile', '-ssl-cert', '-ssl-key', '-env', '--env', '-timeout', '-s']);

/** goose: `[DRIVER DBSTRING] reset` and `down-to 0` (version 0: before the first migration). */
const goose: ArgsCheck = (args) => {
  const words = operands(args, GOOSE_VALUED);
  if (words.includes('reset')) return hit('goose reset', ALL_DOWN);
  const to = words.indexOf('down-to');
  return to >= 0 && words[to + 1] === '0' ? hit('goose down-to 0', ALL_DOWN) : null;
};

const ATLAS_VALUED = new Set(['-u', '--url', '--env', '-c', '--config', '--var', '--schema', '-s', '--exclude']);

const atlas: ArgsCheck = (args) => {
  const i = operandAt(args, ATLAS_VALUED);
  return args[i] === 'schema' && args[operandAt(args, ATLAS_VALUED, i + 1)] === 'clean'
    ? hit('atlas schema clean', 'drops every object of the schema (or of every schema of the database), with their data')
    : null;
};

const ALEMBIC_VALUED = new Set(['-c', '--config', '-n', '--name', '-x']);

/** `alembic downgrade base` (or `<branch>@base`); `--sql` only prints the SQL. */
const alembic: ArgsCheck = (args) => {
  const i = operandAt(args, ALEMBIC_VALUED);
  if (args[i] !== 'downgrade' || hasOption(args, '--sql')) return null;
  const target = args[operandAt(args, ALEMBIC_VALUED, i + 1)];
  return target !== undefined && /(?:^|@)base$/.test(target) ? hit('alembic downgrade base', ALL_DOWN) : null;
};

/** pg_restore's one-letter options that take a value (`-Fc` is the format, not `-c`). */
const PG_RESTORE_VALUED = 'dfFIjLnNPStThpUW';

/**
 * Whether a one-letter option was given, read as getopt reads clusters: after a letter that takes
 * a value, the rest of the word (or the next word) is that value.
 */
function shortGiven(args: readonly string[], letter: string, valued: string): boolean {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return false;
    if (a.length < 2 || a[0] !== '-' || a[1] === '-') continue;
    for (let k = 1; k < a.length; k++) {
      if (a[k] === letter) return true;
      if (valued.includes(a[k]!)) {
        if (k === a.length - 1) i++;
        break;
      }
    }
  }
  return false;
}

/** `pg_restore --clean` (`-c`) into a database (`-d`, `--dbname`): without one it only writes a script; `-l` only lists. */
const pgRestore: ArgsCheck = (args) => {
  if (hasOption(args, '--list') || shortGiven(args, 'l', PG_RESTORE_VALUED)) return null;
  const clean = hasOption(args, '--clean') || shortGiven(args, 'c', PG_RESTORE_VALUED);
  const live = hasOption(args, '--dbname') || shortGiven(args, 'd', PG_RESTORE_VALUED);
  return clean && live
    ? hit('pg_restore --clean', 'drops the objects of the database it restores into before recreating them from the dump: what they held is gone')
    : null;
};

/** `mongorestore --drop`, `mongoimport --drop`: each collection dropped before the dump or file is loaded into it. */
function mongoDrop(program: string): ArgsCheck {
  return (args) =>
    hasOption(args, '--drop') && !hasOption(args, '--dryRun')
      ? hit(`${program} --drop`, 'drops each collection it loads before loading it: the documents it held are replaced by the dump')
      : null;
}

/** Maven goals that wipe the schema: `flyway:clean`, `liquibase:dropAll`, also spelled with the plugin's coordinates. */
const MAVEN_WIPES = /^(?:flyway|[\w.-]+:flyway-maven-plugin(?::[\w.-]+)?):clean$|^(?:liquibase|[\w.-]+:liquibase-maven-plugin(?::[\w.-]+)?):dropAll$/;

/** `mvn flyway:clean`, `mvn liquibase:dropAll`: the Flyway and Liquibase plugins' wipes, as their CLIs'. */
const maven: ArgsCheck = (args) => {
  const goal = args.find((a) => MAVEN_WIPES.test(a));
  return goal ? hit(goal.endsWith(':clean') ? 'mvn flyway:clean' : 'mvn liquibase:dropAll', SCHEMA_WIPE) : null;
};

/** `gradle flywayClean` (`:db:flywayClean`), the Liquibase plugin's `dropAll`. */
const gradle: ArgsCheck = (args) => {
  const task = operands(args, GRADLE_VALUED).find((a) => /(?:^|:)(?:flywayClean|dropAll)$/.test(a));
  return task ? hit(`gradle ${task.slice(task.lastIndexOf(':') + 1)}`, SCHEMA_WIPE) : null;
};

export const MIGRATION_TOOLS: Record<string, ArgsCheck> = {
  flyway,
  liquibase,
  dbmate,
  goose,
  atlas,
  alembic,
  pg_restore: pgRestore,
  mongorestore: mongoDrop('mongorestore'),
  mongoimport: mongoDrop('mongoimport'),
  mvn: maven,
  mvnw: maven,
  gradle,
  gradlew: gradle,
};
