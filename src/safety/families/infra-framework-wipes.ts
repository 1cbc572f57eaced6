import { programName } from '../command.ts';
import { type Hit, hasOption, operands } from './args.ts';

/**
 * The infra family's other framework and migration tools' wipes (docs/safety.md, the infra row),
 * one table: each tool's commands that drop the database, empty it, or roll every migration back —
 * Doctrine's `doctrine:database:drop|schema:drop --force` (Symfony's `bin/console`, `symfony
 * console`), WP-CLI's `wp db reset|drop|clean` and `wp site empty`, Drush's `sql-drop` and
 * `site:install`, MikroORM's `schema:drop --run` and `migration:fresh`, Yii's `migrate/fresh`,
 * golang-migrate's `drop` and `down -all`, SeaORM's `migrate fresh|reset|refresh`,
 * graphile-migrate's `reset --erase`, Hasura's `migrate apply --down all`, Flask-Migrate's `db
 * downgrade base`, Payload's `migrate:fresh|reset|refresh`, sqitch's `revert` of every change (no
 * `--to`), tern's `migrate --destination 0`, `cargo sqlx database drop|reset`. Their everyday
 * commands — migrate, status, one step down, a dump — pass.
 */

interface Wipe {
  /** the operands it starts with (after the program's options and the values of `valued`) */
  words: readonly string[];
  /** what must hold besides (`--force`), or what must not (`unless`) */
  needs?: (args: readonly string[]) => boolean;
  what: string;
}

const DROPS = 'drops the database and every table in it';
const EMPTIES = 'drops or empties every table of the database';
const ALL_DOWN = 'rolls every migration back, dropping the tables they created and the data in them';
const FRESH = 'drops every table and runs the migrations again on an empty database';

const force = (args: readonly string[]) => hasOption(args, '--force', '-f');
/** A value of `name` (`--down all`, `--down=all`, `-d 0`). */
const valueIs =
  (names: readonly string[], value: string) =>
  (args: readonly string[]): boolean =>
    args.some((a, i) => (names.includes(a) && args[i + 1] === value) || names.some((n) => a === `${n}=${value}`));

/** Symfony's console: Doctrine's drops (only with `--force`; fixtures loaded over a test database are everyday work, `doctrine:fixtures:load` passes). */
const CONSOLE: readonly Wipe[] = [
  { words: ['doctrine:database:drop'], needs: force, what: DROPS },
  { words: ['doctrine:schema:drop'], needs: force, what: EMPTIES },
];

const TABLE: Record<string, { valued?: ReadonlySet<string>; wipes: readonly Wipe[] }> = {
  console: { wipes: CONSOLE },
  symfony: { wipes: CONSOLE.map((w) => ({ ...w, words: ['console', ...w.words] })) },
  wp: {
    valued: new Set(['--path', '--url', '--user', '--skip-plugins', '--skip-themes', '--ssh', '--http']),
    wipes: [
      { words: ['db', 'reset'], what: DROPS },
      { words: ['db', 'drop'], what: DROPS },
      { words: ['db', 'clean'], what: 'drops every table of the WordPress site' },
      { words: ['site', 'empty'], what: 'deletes every post, page, comment and term of the site' },
    ],
  },
  drush: {
    valued: new Set(['-r', '--root', '-l', '--uri', '--database', '--target']),
    wipes: [
      { words: ['sql-drop'], what: EMPTIES },
      { words: ['sql:drop'], what: EMPTIES },
      { words: ['site-install'], what: 'installs the site again over its database, dropping every table' },
      { words: ['site:install'], what: 'installs the site again over its database, dropping every table' },
      { words: ['si'], what: 'installs the site again over its database, dropping every table' },
    ],
  },
  'mikro-orm': {
    wipes: [
      { words: ['schema:drop'], needs: (a) => a.includes('--run') || a.includes('-r'), what: EMPTIES },
      { words: ['schema:fresh'], needs: (a) => a.includes('--run') || a.includes('-r'), what: FRESH },
      { words: ['migration:fresh'], what: FRESH },
    ],
  },
  yii: {
    wipes: [
      { words: ['migrate/fresh'], what: FRESH },
      { words: ['migrate/down', 'all'], what: ALL_DOWN },
    ],
  },
  migrate: {
    valued: new Set(['-path', '--path', '-database', '--database', '-source', '--source', '-lock-timeout', '-prefetch', '-dir']),
    wipes: [
      { words: ['drop'], what: EMPTIES },
      { words: ['down'], needs: (a) => a.includes('-all') || a.includes('--all'), what: ALL_DOWN },
    ],
  },
  'sea-orm-cli': {
    valued: new Set(['-d', '--migration-dir', '-u', '--database-url', '-s', '--database-schema']),
    wipes: [
      { words: ['migrate', 'fresh'], what: FRESH },
      { words: ['migrate', 'refresh'], what: ALL_DOWN },
      { words: ['migrate', 'reset'], what: ALL_DOWN },
    ],
  },
  'graphile-migrate': { wipes: [{ words: ['reset'], needs: (a) => a.includes('--erase'), what: DROPS }] },
  hasura: {
    valued: new Set(['--endpoint', '--admin-secret', '--project', '--database-name', '--envfile']),
    wipes: [{ words: ['migrate', 'apply'], needs: valueIs(['--down'], 'all'), what: ALL_DOWN }],
  },
  flask: { valued: new Set(['-A', '--app', '-e', '--env-file']), wipes: [{ words: ['db', 'downgrade', 'base'], what: ALL_DOWN }] },
  payload: {
    wipes: [
      { words: ['migrate:fresh'], what: FRESH },
      { words: ['migrate:refresh'], what: ALL_DOWN },
      { words: ['migrate:reset'], what: ALL_DOWN },
    ],
  },
  sqitch: {
    valued: new Set(['-C', '--chdir', '--target', '-t', '--plan-file', '--registry', '--engine', '--db-name', '-d', '--db-user', '-u', '--db-host', '-h']),
    wipes: [
      {
        words: ['revert'],
        // a database URI names the target, not a change to revert to (`revert -y db:pg://host/prod`: every change)
        needs: (a) =>
          !a.some((x) => x === '--to' || x.startsWith('--to=') || x === '--to-change') && operandsAfter(a, 'revert').every((x) => x.startsWith('db:')),
        what: ALL_DOWN,
      },
    ],
  },
  tern: { wipes: [{ words: ['migrate'], needs: valueIs(['--destination', '-d'], '0'), what: ALL_DOWN }] },
  cargo: {
    wipes: [
      { words: ['sqlx', 'database', 'drop'], what: DROPS },
      { words: ['sqlx', 'database', 'reset'], what: DROPS },
    ],
  },
};

/** sqitch's operands after its verb (a change or a target named: `revert @HEAD^`). */
function operandsAfter(args: readonly string[], verb: string): string[] {
  const at = args.indexOf(verb);
  return operands(args.slice(at + 1), TABLE.sqitch!.valued);
}

/** The wipe of `program` its arguments name (see the module's comment), or null. */
export function frameworkWipe(program: string, args: readonly string[]): Hit | null {
  const tool = Object.hasOwn(TABLE, program) ? TABLE[program]! : null;
  if (!tool || hasOption(args, '--help') || args.includes('-h') || hasOption(args, '--dry-run')) return null;
  const words = operands(args, tool.valued);
  for (const w of tool.wipes) {
    if (!w.words.every((x, i) => words[i] === x) || (w.needs && !w.needs(args))) continue;
    const rule = `${program} ${w.words.join(' ')}`;
    return { rule, reason: `\`${rule}\` ${w.what}; the data comes back only from a backup` };
  }
  return null;
}

/** A PHP console script's own wipes: `php bin/console doctrine:database:drop --force`, `php yii migrate/fresh` (the script by its name). */
export function phpScriptWipe(script: string, args: readonly string[]): Hit | null {
  const name = programName(script);
  return name === 'console' || name === 'yii' ? frameworkWipe(name, args) : null;
}
