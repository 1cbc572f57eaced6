/**
 * The rule families past the lists (docs/safety.md, "Rule families past the lists"): one table
 * from which the defaults (DEFAULT_RULES.families), the family names, the schema of
 * `safety/rules.yaml` (SafetyRules.families), the `families.<name>` settings, the words of the
 * hook's deny and ask messages and the agent's context are all derived. Plain data: the
 * pre-tool-use hook's fast path reads it without loading a schema, and nothing here imports the
 * engine (src/safety/families/index.ts maps each `check` to its function).
 */

import { INFRA_CLI_VERBS } from './infra-clis.ts';
import { PUBLISH_CLI_VERBS } from './publish-clis.ts';
import type { VerbRule } from './unknown-commands.ts';

/** What a rule family does with a command it matches: deny it, ask a person, or nothing. */
export const FAMILY_ACTIONS = ['deny', 'ask', 'off'] as const;
export type FamilyAction = (typeof FAMILY_ACTIONS)[number];

export interface FamilySpec {
  name: string;
  /** the default action (docs/safety.md) */
  action: Exclude<FamilyAction, 'off'>;
  /** the promise of docs/safety.md's threat model it keeps */
  promise: string;
  /** what it covers, for `safety/rules.yaml`'s schema and `axme safety` */
  description: string;
  /** the same in a few words: the hook's deny and ask messages and the agent's context say this */
  words: string;
  /** which check of src/safety/families/ runs it, and what it reads: a command, a parsed git call, an interpreter's code */
  check: { id: 'publish' | 'infra' | 'system' | 'gitHistory' | 'interpreter'; reads: 'command' | 'git' | 'code' };
  /** how a command no check knows is judged for this family */
  unknown?: VerbRule;
}

export const FAMILIES = [
  {
    name: 'publish',
    action: 'deny',
    promise: 'P3',
    description:
      "publishing, releasing, deploying: npm-compatible clients, cargo, gem, PyPI tools, go release tools, build tools' publishing goals, image and chart pushes and deletes, gh release, deploy workflows and deployments, gh pr merge --admin, deploy CLIs (Vercel, Netlify, Fly, Firebase), the clouds' rollouts (aws lambda update-function-code, ecs --force-new-deployment, az webapp deploy, a slot swap), app store and model hub uploads, a GitHub repository made public or access to it granted",
    words: 'publishing, releasing, deploying',
    check: { id: 'publish', reads: 'command' },
    unknown: {
      verbs: ['publish', 'deploy', 'release', 'ship', 'promote', 'redeploy'],
      targeted: ['push', 'upload', 'copy', 'cp', 'sync'],
      targets: ['registry', 'repository'],
      registries: ['docker://', 'oci://'],
      programs: PUBLISH_CLI_VERBS,
    },
  },
  {
    name: 'infra',
    action: 'ask',
    promise: 'P4',
    description:
      "destroying or changing live infrastructure: terraform/tofu/pulumi destroy, kubectl delete of namespaces or --all, helm uninstall, cloud CLIs deleting buckets, databases, clusters, SQL that drops or empties a database or table (DROP DATABASE, TRUNCATE, DELETE without WHERE) through a database shell or any program handed it, framework and migration tools dropping every table, docker data volumes, backups and snapshots deleted, gh repo delete and any DELETE through GitHub's API, secrets set, cloud IAM grants; terraform apply, pulumi up, kubectl apply, helm upgrade, ansible-playbook",
    words: 'destroying or changing live infrastructure',
    check: { id: 'infra', reads: 'command' },
    unknown: {
      verbs: ['destroy', 'teardown', 'nuke', 'undeploy'],
      targeted: ['delete', 'remove', 'rm', 'drop', 'purge', 'uninstall', 'reset', 'wipe', 'erase', 'terminate', 'truncate'],
      targets: [
        'cluster',
        'clusters',
        'database',
        'databases',
        'db',
        'pg',
        'postgres',
        'mysql',
        'redis',
        'mongo',
        'project',
        'projects',
        'stack',
        'stacks',
        'namespace',
        'namespaces',
        'bucket',
        'buckets',
        'registry',
        'repo',
        'repository',
        'environment',
        'volume',
        'volumes',
        'instance',
        'instances',
        'app',
        'apps',
        'application',
        'group',
        'account',
        'org',
        'organization',
        'droplet',
        'droplets',
        'linode',
        'linodes',
        'server',
        'servers',
        'keyspace',
        'dataset',
        'datasets',
        'index',
        'indices',
        // a message broker's topics, a search engine's or a document store's collections: their messages and documents go with them
        'topic',
        'topics',
        'collection',
        'collections',
        'table',
        'tables',
        'service',
        'site',
        'sites',
        'zone',
        'vpc',
        'workspace',
        'd1',
      ],
      programs: INFRA_CLI_VERBS,
      // mongosh's `db.dropDatabase()`, arangosh's `db._dropDatabase()`, `db._drop(coll)`, `db._truncate(coll)`
      // NebulaGraph's `DROP SPACE` (a graph space, every vertex and edge in it)
      statements: ['dropdatabase(', '._drop(', '._truncate(', 'flushall', 'flushdb', 'drop space'],
      statementOptions: [
        '-c',
        '-e',
        '-q',
        '-s',
        '--eval',
        '--execute',
        '--exec',
        '--query',
        '--command',
        '--sql',
        '--statement',
        '--javascript.execute-string',
      ],
    },
  },
  {
    name: 'gitHistory',
    action: 'deny',
    promise: 'P2',
    description:
      "git history and local work: deleting, renaming or force-moving protected branches by any verb or through GitHub's API (a delete of every branch a listing prints too), filter-branch/filter-repo, dropping reflogs, gc --prune=now, stash clear, uncommitted work removed with its worktree or submodule (worktree remove --force), local branches overwritten by a forced fetch",
    words: 'deleting or rewriting protected branches and git recovery data',
    check: { id: 'gitHistory', reads: 'git' },
  },
  {
    name: 'system',
    action: 'deny',
    promise: 'P1',
    description:
      "the machine and the home folder: writes into system paths and dotfiles by any program, chown/chmod -R of them, crontab -r, firewall flushes, every process killed, disks wiped or repartitioned, volumes destroyed, essential packages removed, containers given the host's root, what starts at boot or login or on a schedule (systemctl enable, launchd jobs, scheduled tasks, loginctl enable-linger, a key added to authorized_keys), fork bombs",
    words: 'writing system files and dotfiles',
    check: { id: 'system', reads: 'command' },
  },
  {
    name: 'interpreter',
    action: 'deny',
    promise: 'P1–P3',
    description:
      'interpreter one-liners and heredoc programs (python -c, node -e, perl -e, ruby -e, php -r, deno eval, awk, osascript -e): their shell-outs and the files they delete, write or read are checked as commands, and code that sends the environment off the machine as the shell line that sends it',
    words: 'the same actions from python -c / node -e one-liners',
    check: { id: 'interpreter', reads: 'code' },
  },
] as const satisfies readonly FamilySpec[];

export type FamilyName = (typeof FAMILIES)[number]['name'];
export type FamilyActions = { [K in FamilyName]: FamilyAction };

export const FAMILY_NAMES: readonly FamilyName[] = FAMILIES.map((f) => f.name);

/** A family's row by name. */
export function familySpec(name: FamilyName): FamilySpec {
  return FAMILIES.find((f) => f.name === name)!;
}

/** The default action of every family: `families` of the default rules. */
export function defaultFamilyActions(): FamilyActions {
  return Object.fromEntries(FAMILIES.map((f) => [f.name, f.action])) as FamilyActions;
}
