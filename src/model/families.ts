/**
 * The rule families past the lists (docs/safety.md, "Rule families past the lists"): one table
 * from which the defaults (DEFAULT_RULES.families), the family names, the schema of
 * `safety/rules.yaml` (SafetyRules.families), the `families.<name>` settings, the words of the
 * hook's deny and ask messages and the agent's context are all derived. Plain data: the
 * pre-tool-use hook's fast path reads it without loading a schema, and nothing here imports the
 * engine (src/safety/families/index.ts maps each `check` to its function).
 */

/** What a rule family does with a command it matches: deny it, ask a person, or nothing. */
export const FAMILY_ACTIONS = ['deny', 'ask', 'off'] as const;
export type FamilyAction = (typeof FAMILY_ACTIONS)[number];

/**
 * The rule for commands no family check knows (docs/safety.md, "How an unknown command is
 * judged"): a program whose subcommand words hold one of `verbs` does the family's thing; one of
 * `targeted` does only toward one of `targets` (named by a subcommand word or an option,
 * `delete cluster`, `--stack-name`) or, for uploads, toward a registry (`docker://`, `oci://`, an
 * image reference `host.tld/name:tag`). The code a `statementOptions` option hands a program is
 * read as SQL (`-c 'DROP DATABASE x'`, `-e 'TRUNCATE users'`); `statements` are found in it or
 * alone as an argument (`FLUSHALL`).
 */
export interface VerbRule {
  verbs: readonly string[];
  targeted: readonly string[];
  targets: readonly string[];
  /** URL schemes that name a registry as the destination of an upload */
  registries?: readonly string[];
  /** statements besides SQL's that do the family's thing (lower case): a command alone as an argument or starting the code an option hands a program (`FLUSHALL`), a call anywhere in that code (`dropDatabase(`) */
  statements?: readonly string[];
  /** the options whose value is code: SQL, read as SQL for what destroys data in bulk (`-c 'DROP DATABASE x'`, `-e 'TRUNCATE users'`), or a database shell's script */
  statementOptions?: readonly string[];
}

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
        'server',
        'servers',
        'keyspace',
        'dataset',
        'datasets',
        'index',
        'indices',
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
      statements: ['dropdatabase(', 'flushall', 'flushdb'],
      statementOptions: ['-c', '-e', '-q', '-s', '--eval', '--execute', '--exec', '--query', '--command', '--sql', '--statement'],
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

/**
 * What the unknown-command rule needs besides each family's verbs: the subcommand words that
 * only read (a verb beside them is a listing: `release list`, `deploy list-deployments`), the
 * words that run a project's own script or a program (`run`, `exec`, `task`: what runs is the
 * project's, docs/safety.md "What it does not promise"), and the programs whose words after the
 * program are data, patterns, scripts, file or resource names rather than subcommands — or that a
 * family checks in full (kubectl, docker, git, the npm clients).
 */
export const UNKNOWN_COMMANDS = {
  /** at most this many leading subcommand words are read */
  depth: 5,
  readVerbs: [
    'list',
    'ls',
    'get',
    'show',
    'view',
    'describe',
    'status',
    'info',
    'logs',
    'log',
    'history',
    'diff',
    'plan',
    'template',
    'lint',
    'validate',
    'check',
    'help',
    'version',
    'inspect',
    'search',
    'download',
    'pull',
    'fetch',
    'watch',
    'open',
    'browse',
    'explain',
    'notes',
    'changelog',
  ],
  /** subcommand words after which a verb is a name (`rails new release`, `ng generate component release-notes`, `systemctl restart deploy`) */
  nameVerbs: [
    'new',
    'generate',
    'g',
    'init',
    'create',
    'add',
    'make',
    'scaffold',
    'install',
    'rename',
    'set',
    'use',
    'switch',
    'select',
    'edit',
    'restart',
    'start',
    'stop',
    'enable',
    'disable',
    'kill',
    'attach',
    'connect',
    'login',
    'logout',
    'cat',
    'tail',
    'passwd',
  ],
  runners: ['run', 'run-script', 'run-many', 'exec', 'x', 'dlx', 'task', 'tasks', 'test', 'start', 'serve', 'dev', 'build', 'watch'],
  exempt: [
    // text and data: their words are what they print, search for or compute
    'echo',
    'printf',
    'print',
    'grep',
    'egrep',
    'fgrep',
    'rg',
    'ag',
    'ack',
    'sed',
    'awk',
    'gawk',
    'jq',
    'yq',
    'cat',
    'less',
    'more',
    'head',
    'tail',
    'tee',
    'sort',
    'uniq',
    'wc',
    'cut',
    'tr',
    'diff',
    'cmp',
    'comm',
    'join',
    'paste',
    'nl',
    'tac',
    'rev',
    'strings',
    'hexdump',
    'find',
    'fd',
    'ls',
    'tree',
    'test',
    '[',
    'man',
    'help',
    'info',
    'tldr',
    'which',
    'type',
    'whereis',
    'apropos',
    'whatis',
    'say',
    'logger',
    'notify-send',
    'column',
    'fold',
    'fmt',
    'xxd',
    'od',
    'base64',
    'sha256sum',
    'sha1sum',
    'md5sum',
    'shasum',
    'date',
    'cowsay',
    'seq',
    'expr',
    'basename',
    'dirname',
    'realpath',
    'readlink',
    'stat',
    'file',
    'du',
    'df',
    'pwd',
    'sleep',
    'wait',
    'yes',
    'openssl',
    'gpg',
    'export',
    'declare',
    'local',
    'readonly',
    'alias',
    'unset',
    'set',
    'read',
    'source',
    '.',
    'eval',
    'exec',
    'command',
    'builtin',
    'mkdir',
    'touch',
    'cd',
    'pushd',
    'popd',
    'true',
    'false',
    ':',
    // files, archives, editors: their words are file names
    'cp',
    'mv',
    'rm',
    'rmdir',
    'ln',
    'install',
    'chmod',
    'chown',
    'chgrp',
    'tar',
    'zip',
    'unzip',
    'gzip',
    'gunzip',
    'bzip2',
    'xz',
    'zstd',
    '7z',
    'patch',
    'open',
    'xdg-open',
    'code',
    'vim',
    'vi',
    'nvim',
    'nano',
    'emacs',
    'ed',
    'ex',
    // users, processes, services: their words are user, process and service names
    'su',
    'id',
    'groups',
    'getent',
    'passwd',
    'useradd',
    'userdel',
    'usermod',
    'groupadd',
    'groupdel',
    'chpasswd',
    'runuser',
    'ps',
    'pgrep',
    'pkill',
    'kill',
    'killall',
    'top',
    'htop',
    'lsof',
    'systemctl',
    'service',
    'journalctl',
    'launchctl',
    'loginctl',
    'crontab',
    'createuser',
    'dropuser',
    'kubens',
    'kubectx',
    'stern',
    'k9s',
    'kustomize',
    'rails',
    // the project's own scripts and task runners
    'make',
    'gmake',
    'just',
    'task',
    'rake',
    'invoke',
    'nox',
    'tox',
    'turbo',
    'mage',
    'earthly',
    'bazel',
    'bazelisk',
    'buck2',
    'pants',
    'ansible-playbook',
    'fastlane',
    'gulp',
    'grunt',
    'composer',
    // interpreters and shells: their words are scripts and code
    'python',
    'python3',
    'node',
    'nodejs',
    'deno',
    'ruby',
    'perl',
    'php',
    'lua',
    'bash',
    'sh',
    'zsh',
    'dash',
    'fish',
    'pwsh',
    'osascript',
    // checked in full by a family, or their words are images, containers, resources, refs, messages
    'git',
    'gh',
    'kubectl',
    'oc',
    'docker',
    'podman',
    'nerdctl',
    'buildah',
    'docker-compose',
    'helm',
    'npm',
    'pnpm',
    'yarn',
    'bun',
    'npx',
    'pnpx',
    'bunx',
    'terraform',
    'tofu',
    'terragrunt',
    'pulumi',
    'cargo',
    'dotnet',
    'go',
    'mvn',
    'mvnw',
    'gradle',
    'gradlew',
    'pip',
    'pip3',
    'pipx',
    'uv',
    'uvx',
    'poetry',
    'pdm',
    'hatch',
    'rye',
    'pipenv',
    'bundle',
    'gem',
    'brew',
    'apt',
    'apt-get',
    'dnf',
    'yum',
    'pacman',
    'apk',
    'snap',
    'choco',
    'winget',
    'scoop',
    'ssh',
    'scp',
    'rsync',
    'curl',
    'wget',
    'http',
    'tmux',
    'screen',
    'watch',
    'xargs',
    'parallel',
    'time',
    'timeout',
    'sudo',
    'env',
  ],
} as const;

/**
 * `gh workflow run` and `github.deployWorkflows`: a workflow whose name or file names a
 * non-production environment only (`deploy-staging.yml`, `preview-deploy`) starts no production
 * deploy, unless its name also holds a production word or the glob that matched it names that
 * environment itself (a user's `*staging*` entry). Words are the name's runs of letters and digits.
 */
export const DEPLOY_ENVIRONMENTS = {
  nonProduction: ['staging', 'stage', 'stg', 'preview', 'dev', 'develop', 'development', 'test', 'testing', 'qa', 'sandbox', 'review', 'demo', 'local', 'ci'],
  production: ['prod', 'production', 'prd', 'live', 'release', 'releases', 'publish'],
} as const;
