import { programName } from '../command.ts';
import { GH_LINE_VALUED } from '../github-api.ts';
import { type ArgsCheck, dockerSubcommand, type Hit, hasOption, hasShort, operandAt, optionValues } from './args.ts';
import { phpScriptWipe } from './infra-framework-wipes.ts';

/**
 * The infra family's application-level teardowns: the frameworks' own verbs that drop or wipe a
 * database (`rails db:drop`, `prisma migrate reset`, `manage.py flush`, `supabase db reset`,
 * `sequelize db:drop`, `artisan migrate:fresh`) or recreate or empty every table (`rails db:schema:load`,
 * `manage.py migrate <app> zero`), a hosted Supabase project or branch or its storage, a Firestore
 * database's collections (`firebase firestore:delete -r`), docker's data volumes (`docker volume rm`,
 * `compose down -v`), and a GitHub repository deleted, archived, renamed, transferred or made public
 * or private through `gh` (any other call of GitHub's API is github-api-rules.ts's). The runners that start such
 * a tool (`npx`, `bundle exec`, `uv run`, `pnpm dlx`) are peeled off first (runners.ts).
 */

function dbHit(rule: string, what = 'drops or empties the database and every table in it'): Hit {
  return { rule, reason: `\`${rule}\` ${what}; the data comes back only from a backup` };
}

/** Rails/rake tasks that drop or recreate the database. */
const RAILS_TASK = /^db:(?:drop|reset|purge|migrate:reset)(?::[\w:]*)?$/;
/** Rails/rake tasks that recreate every table from the schema file, or empty every table, in a database that stays. */
const RAILS_TABLES = /^db:(?:schema:load|structure:load|setup|truncate_all|seed:replant)(?::[\w:]*)?$/;

function railsTasks(program: string): ArgsCheck {
  return (args) => {
    let migrate = false;
    for (const a of args) {
      if (a === '--') break;
      const task = a.replace(/\[.*$/, '');
      if (RAILS_TASK.test(task)) return dbHit(`${program} ${task}`);
      if (RAILS_TABLES.test(task))
        return dbHit(
          `${program} ${task}`,
          /truncate|replant/.test(task)
            ? 'deletes every row of every table'
            : 'recreates every table of the schema file, dropping the ones there and their rows',
        );
      if (task === 'db:migrate') migrate = true;
    }
    // `db:migrate VERSION=0`: every migration run down
    return migrate && args.includes('VERSION=0')
      ? dbHit(`${program} db:migrate VERSION=0`, 'rolls every migration back, dropping the tables they created')
      : null;
  };
}

const PRISMA_VALUED = new Set(['--schema']);

const prisma: ArgsCheck = (args) => {
  const i = operandAt(args, PRISMA_VALUED);
  const sub = args[i];
  const verb = args[operandAt(args, PRISMA_VALUED, i + 1)];
  if (sub === 'migrate' && verb === 'reset') return dbHit('prisma migrate reset');
  if (sub === 'db' && verb === 'push' && hasOption(args, '--force-reset')) return dbHit('prisma db push --force-reset');
  return null;
};

const SUPABASE_VALUED = new Set(['--workdir', '--profile', '--db-url', '--version', '-o', '--output']);

/** `supabase db reset`; `projects delete` and `branches delete`: a hosted project or a preview branch, each with its own database. */
const supabase: ArgsCheck = (args) => {
  const i = operandAt(args, SUPABASE_VALUED);
  const verb = args[operandAt(args, SUPABASE_VALUED, i + 1)];
  if (args[i] === 'db' && verb === 'reset')
    return dbHit('supabase db reset', "recreates the database from the migrations, deleting its data (`--linked`: the remote project's)");
  if (args[i] === 'projects' && verb === 'delete')
    return dbHit('supabase projects delete', 'deletes the hosted Supabase project — its database, storage, auth users and functions');
  if (args[i] === 'branches' && verb === 'delete') return dbHit('supabase branches delete', 'deletes a preview branch and the database it has of its own');
  if (args[i] === 'storage' && verb === 'rm' && (hasShort(args, 'r') || hasOption(args, '--recursive')))
    return dbHit('supabase storage rm -r', 'deletes every object under the path of the storage bucket');
  return null;
};

const FIREBASE_VALUED = new Set(['-P', '--project', '--token', '--account', '-c', '--config', '--database']);

/** `firebase firestore:delete` of a collection and all below it (`-r`) or of every collection (`--all-collections`); one document passes. */
const firebase: ArgsCheck = (args) => {
  if (args[operandAt(args, FIREBASE_VALUED)] !== 'firestore:delete') return null;
  if (hasOption(args, '--all-collections'))
    return dbHit('firebase firestore:delete --all-collections', 'deletes every document of every collection of the Firestore database');
  return hasShort(args, 'r') || hasOption(args, '--recursive')
    ? dbHit('firebase firestore:delete -r', 'deletes the documents of the collection and of every collection below them')
    : null;
};

/** The checks of programs whose other verbs the unknown-command rule reads (infra.ts SOME_VERBS). */
export const SOME_VERBS_TOOLS: Record<string, ArgsCheck> = { firebase };

const sequelize: ArgsCheck = (args) => {
  const sub = args[operandAt(args)];
  if (sub === 'db:drop') return dbHit('sequelize db:drop');
  if (sub === 'db:migrate:undo:all') return dbHit('sequelize db:migrate:undo:all', 'undoes every migration, dropping the tables they created');
  return null;
};

const knex: ArgsCheck = (args) =>
  args[operandAt(args, new Set(['--knexfile', '--cwd', '--env', '--client', '--connection', '--migrations-directory']))] === 'migrate:rollback' &&
  hasOption(args, '--all')
    ? dbHit('knex migrate:rollback --all', 'undoes every migration, dropping the tables they created')
    : null;

const typeorm: ArgsCheck = (args) => (args[operandAt(args)] === 'schema:drop' ? dbHit('typeorm schema:drop', 'drops every table of the database') : null);

const mix: ArgsCheck = (args) => {
  const task = args[operandAt(args)];
  if (task === 'ecto.rollback' && hasOption(args, '--all'))
    return dbHit('mix ecto.rollback --all', 'rolls every migration back, dropping the tables they created');
  return task === 'ecto.drop' || task === 'ecto.reset' ? dbHit(`mix ${task}`) : null;
};

const DJANGO_VALUED = new Set(['--settings', '--pythonpath', '--database', '-v', '--verbosity']);
const DJANGO_WIPES = new Set(['flush', 'reset_db']);

/**
 * `manage.py flush` / `django-admin flush` (and django-extensions' `reset_db`), and `migrate <app>
 * zero` (every migration of the app unapplied), given the arguments after the script.
 */
const django =
  (script: string): ArgsCheck =>
  (args) => {
    if (hasOption(args, '--help') || args.includes('-h')) return null;
    const at = operandAt(args, DJANGO_VALUED);
    const sub = args[at];
    if (sub === 'migrate' && args[operandAt(args, DJANGO_VALUED, operandAt(args, DJANGO_VALUED, at + 1) + 1)] === 'zero' && !hasOption(args, '--plan'))
      return dbHit(`${script} migrate zero`, 'unapplies every migration of the app, dropping its tables and their rows');
    return sub !== undefined && DJANGO_WIPES.has(sub)
      ? dbHit(`${script} ${sub}`, sub === 'flush' ? 'deletes every row of every table of the database' : 'drops and recreates the database')
      : null;
  };

const PYTHON_VALUED = new Set(['-W', '-X', '-Q', '--check-hash-based-pycs']);

/** `python manage.py flush`, `python -m django flush`. */
const python: ArgsCheck = (args) => {
  const i = operandAt(args, PYTHON_VALUED);
  if (i < 0) return null;
  if (args[i - 1] === '-m') return args[i] === 'django' ? django('django-admin')(args.slice(i + 1)) : null;
  return programName(args[i]!) === 'manage.py' ? django('manage.py')(args.slice(i + 1)) : null;
};

const LARAVEL_WIPES = new Set(['db:wipe', 'migrate:fresh', 'migrate:reset', 'migrate:refresh']);

/** `php artisan migrate:fresh|db:wipe|migrate:reset|migrate:refresh`; another console script's wipes (infra-framework-wipes.ts). */
const php: ArgsCheck = (args) => {
  const i = operandAt(args);
  if (i < 0) return null;
  // `php bin/console doctrine:database:drop --force`, `php yii migrate/fresh` (infra-framework-wipes.ts)
  if (programName(args[i]!) !== 'artisan') return phpScriptWipe(args[i]!, args.slice(i + 1));
  const sub = args[operandAt(args, undefined, i + 1)];
  return sub !== undefined && LARAVEL_WIPES.has(sub) ? dbHit(`artisan ${sub}`, 'drops every table of the database (or rolls every migration back)') : null;
};

/** `dotnet ef database drop`. */
const dotnet: ArgsCheck = (args) => {
  const i = operandAt(args);
  return args[i] === 'ef' && args[operandAt(args, undefined, i + 1)] === 'database' && args.includes('drop') && !hasOption(args, '--dry-run')
    ? dbHit('dotnet ef database drop')
    : null;
};

function volumesHit(rule: string): Hit {
  return { rule, reason: `\`${rule}\` deletes docker volumes — the databases and uploads kept in them — and nothing keeps a copy` };
}

/**
 * Docker's data volumes: `volume rm|prune`, `system prune --volumes`, `compose down -v`, and a
 * container removed with its anonymous volumes (`rm -v`, `container rm -v`, `compose rm -v`: where
 * a database image keeps its data). The containers alone are not data: `rm -f $(docker ps -aq)`,
 * `container prune` and `system prune -a` pass.
 */
function docker(program: string): ArgsCheck {
  return (args) => {
    const { compose, at: i } = dockerSubcommand(program, args);
    if (i < 0) return null;
    const sub = args[i]!;
    const rest = args.slice(i + 1);
    const volumes = hasOption(rest, '--volumes') || hasShort(rest, 'v');
    if (compose) {
      const composed = program === 'docker-compose' ? 'docker-compose' : `${program} compose`;
      return (sub === 'down' || sub === 'rm') && volumes ? volumesHit(`${composed} ${sub} --volumes`) : null;
    }
    const verb = rest[operandAt(rest)];
    if (sub === 'volume' && (verb === 'rm' || verb === 'remove' || verb === 'prune')) return volumesHit(`${program} volume ${verb}`);
    if (sub === 'system' && verb === 'prune' && hasOption(rest, '--volumes')) return volumesHit(`${program} system prune --volumes`);
    const removal = sub === 'rm' || (sub === 'container' && (verb === 'rm' || verb === 'remove'));
    return removal && volumes ? volumesHit(`${program} ${sub === 'rm' ? 'rm' : `container ${verb}`} --volumes`) : null;
  };
}

/** `gh repo` verbs that change the repository everyone works in: what each does. */
const GH_REPO_CHANGES: Record<string, string> = {
  archive: 'makes the GitHub repository read-only for everyone: no pushes, merges or new issues until an admin unarchives it',
  rename: "renames the GitHub repository: every clone's remote, every link and every integration that names it points at the old name",
  transfer: 'hands the GitHub repository to another owner, who decides from then on who may reach it',
};

/** `gh repo delete|archive|rename|transfer`, `gh repo sync --force`, `gh repo edit --visibility` (a `DELETE` through `gh api` is github-api-rules.ts's, judged by its endpoint). */
const gh: ArgsCheck = (args) => {
  const i = operandAt(args, GH_LINE_VALUED);
  const sub = args[i];
  const verb = sub === 'repo' ? args[operandAt(args, GH_LINE_VALUED, i + 1)] : undefined;
  if (verb === 'delete') {
    return { rule: 'gh repo delete', reason: '`gh repo delete` deletes a GitHub repository with its issues, pull requests, releases and wiki' };
  }
  // `gh repo sync [fork] --force`: the branch reset to its source's, a hard reset or a force push
  if (verb === 'sync' && hasOption(args, '--force')) {
    return {
      rule: 'gh repo sync --force',
      reason: "`gh repo sync --force` overwrites the branch (a fork's on GitHub, or the local one) with its source's: the commits only it had are discarded",
    };
  }
  if (verb !== undefined && Object.hasOwn(GH_REPO_CHANGES, verb)) return { rule: `gh repo ${verb}`, reason: `\`gh repo ${verb}\` ${GH_REPO_CHANGES[verb]}` };
  if (verb === 'edit' && hasOption(args, '--visibility')) {
    const to = optionValues(args, '--visibility')[0] ?? '';
    return {
      rule: `gh repo edit --visibility ${to}`.trimEnd(),
      reason:
        to === 'private'
          ? '`gh repo edit --visibility private` hides the GitHub repository: its stars and watchers are erased for good and public forks are detached'
          : `\`gh repo edit --visibility ${to}\` shows the GitHub repository and its whole history — every file and secret ever committed — to everyone it now reaches; what they copy cannot be taken back`,
    };
  }
  return null;
};

export const APP_TOOLS: Record<string, ArgsCheck> = {
  rails: railsTasks('rails'),
  rake: railsTasks('rake'),
  prisma,
  supabase,
  sequelize,
  'sequelize-cli': sequelize,
  knex,
  typeorm,
  mix,
  'django-admin': django('django-admin'),
  'django-admin.py': django('django-admin'),
  python,
  python3: python,
  php,
  dotnet,
  docker: docker('docker'),
  podman: docker('podman'),
  nerdctl: docker('nerdctl'),
  'docker-compose': docker('docker-compose'),
  'podman-compose': docker('docker-compose'),
  gh,
};
