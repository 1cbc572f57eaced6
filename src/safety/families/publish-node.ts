import { dryRun, type Hit, hasOption, operandAt, operands, type ToolCheck } from './args.ts';

/**
 * The publish family's JavaScript tools: the npm-compatible clients (npm, pnpm, yarn, bun) and
 * the release tools their runners usually start (semantic-release, np, release-it, lerna,
 * changesets, vsce, ovsx); what a runner (`npx`, `pnpm dlx`, `yarn dlx`, `bunx`, `npm exec`)
 * starts is runners.ts's, checked in turn by publish.ts.
 */

/** A version uploaded to an npm-compatible registry. */
function registryHit(rule: string): Hit {
  return {
    rule,
    reason: `\`${rule}\` uploads a package version to the npm registry for good: that version number can never be used again, even after an unpublish`,
  };
}

/** A published version taken away. */
function unpublishHit(rule: string): Hit {
  return { rule, reason: `\`${rule}\` takes a published version away from everyone who installs it, and its version number can never be used again` };
}

/** `npm pu`, `npm pub`... are `npm publish` (bash-rules.ts canonical). */
const NPM_PUBLISH = /^pu(b(l(i(sh?)?)?)?)?$/;
const NPM_VALUED = new Set([
  '-w',
  '--workspace',
  '--registry',
  '--prefix',
  '-C',
  '--userconfig',
  '--globalconfig',
  '--cache',
  '--loglevel',
  '--otp',
  '--tag',
  '--access',
  '--scope',
  '--auth-type',
]);
const PNPM_VALUED = new Set([
  '--filter',
  '-F',
  '--filter-prod',
  '-C',
  '--dir',
  '--workspace-dir',
  '--reporter',
  '--loglevel',
  '--registry',
  '--tag',
  '--access',
  '--otp',
  '--changed-files-ignore-pattern',
  '--test-pattern',
]);
const YARN_VALUED = new Set(['--cwd']);
const BUN_VALUED = new Set(['--cwd', '-c', '--config']);

const npm: ToolCheck = (args) => {
  const i = operandAt(args, NPM_VALUED);
  const sub = args[i] ?? '';
  if (NPM_PUBLISH.test(sub)) return dryRun(args) ? null : registryHit('npm publish');
  if (sub === 'unpublish' && !dryRun(args)) return unpublishHit('npm unpublish');
  return registryChange('npm', sub, operands(args, NPM_VALUED, i + 1));
};

/** `npm dist-tag` verbs (and their aliases) that move a tag, and those that delete one. */
const TAG_MOVES = new Set(['add', 'a', 'set', 's']);
const TAG_REMOVES = new Set(['rm', 'r', 'del', 'd', 'remove']);
/** `npm trust` providers: each gives a CI identity the right to publish. */
const TRUSTED_PUBLISHERS = new Set(['github', 'gitlab', 'circleci']);

/**
 * What an npm-compatible client changes on the registry besides a version: who may publish the
 * package (`owner add`, `access grant`, `team add`, `org set`, `trust github`), who may see it
 * (`access public`), what its installs resolve to or warn of (`dist-tag add|rm`, `deprecate`),
 * a new publish credential printed (`token create`) and a staged version approved; yarn's own
 * `owner`, `access`, `team` and `tag` (npm's `dist-tag`) alike. `words` are
 * the operands after `sub`; a change that narrows access (`owner rm`, `access revoke`, `set
 * status=private`) passes.
 */
function registryChange(client: string, sub: string, words: readonly string[]): Hit | null {
  const [verb, ...rest] = words;
  const said = (what: string, does: string) => ({ rule: `${client} ${what}`, reason: `\`${client} ${what}\` ${does}` });
  const grants = 'gives someone the right to publish versions of the package, which every install then takes';
  // yarn's `tag` is npm's `dist-tag`
  if (sub === 'dist-tag' || sub === 'dist-tags' || sub === 'tag') {
    const tag = sub === 'tag' ? 'tag' : 'dist-tag';
    if (verb !== undefined && TAG_MOVES.has(verb))
      return said(`${tag} add`, 'moves a registry tag such as `latest`: every install from then on gets that version');
    if (verb !== undefined && TAG_REMOVES.has(verb)) return said(`${tag} rm`, 'deletes a registry tag: every install of `pkg@<tag>` fails from then on');
    return null;
  }
  if ((sub === 'owner' || sub === 'author') && verb === 'add') return said('owner add', grants);
  if (sub === 'team' && verb === 'add') return said('team add', `adds a user to a team of the organization, which ${grants.slice(6)}`);
  if (sub === 'org' && (verb === 'set' || verb === 'add')) return said(`org ${verb}`, "adds a user to the organization, or raises the user's role in it");
  if (sub === 'trust' && verb !== undefined && TRUSTED_PUBLISHERS.has(verb))
    return said(`trust ${verb}`, "lets the CI workflow it names publish the package with the registry's trust, no token needed");
  if (sub === 'stage' && verb === 'approve') return said('stage approve', 'publishes a staged package version: that version number can never be used again');
  if (sub === 'token' && verb === 'create')
    return said('token create', 'creates a new registry token, one that can publish, and prints it where the agent and its transcript read it');
  if (sub === 'deprecate' && rest.some((m) => m !== ''))
    return said('deprecate', 'marks published versions deprecated: every install of them warns with the message from then on');
  if (sub === 'access') return accessChange(said, verb, rest);
  return null;
}

/** `npm access public|grant`, `set status=public`, and 2FA loosened (`set mfa=none|automation`, `2fa-not-required`). */
function accessChange(said: (what: string, does: string) => Hit, verb: string | undefined, rest: readonly string[]): Hit | null {
  if (verb === 'public' || (verb === 'set' && rest[0] === 'status=public'))
    return said(`access ${verb === 'set' ? 'set status=public' : 'public'}`, "makes the package's code public to anyone, with every version already published");
  if (verb === 'grant') return said('access grant', 'gives a team the right to read or publish the package');
  const mfa = verb === 'set' ? /^(?:mfa|2fa)=(.*)$/.exec(rest[0] ?? '') : null;
  if ((mfa && mfa[1] !== 'publish') || verb === '2fa-not-required')
    return said('access set mfa', 'loosens the second factor the registry asks before a version of the package is published');
  return null;
}

const pnpm: ToolCheck = (args) => {
  let i = operandAt(args, PNPM_VALUED);
  if (i < 0) return null;
  if (args[i] === 'recursive' || args[i] === 'multi' || args[i] === 'm') i = operandAt(args, PNPM_VALUED, i + 1);
  if (args[i] === 'publish') return dryRun(args) ? null : registryHit('pnpm publish');
  if (args[i] === 'unpublish' && !dryRun(args)) return unpublishHit('pnpm unpublish');
  // pnpm hands the registry commands it has none of its own for to npm
  return registryChange('pnpm', args[i]!, operands(args, PNPM_VALUED, i + 1));
};

const yarn: ToolCheck = (args) => {
  const i = operandAt(args, YARN_VALUED);
  if (i < 0) return null;
  if (args[i] === 'publish') return dryRun(args) ? null : registryHit('yarn publish');
  if (args[i] !== 'npm') return registryChange('yarn', args[i]!, operands(args, YARN_VALUED, i + 1));
  // yarn 2+: `yarn npm publish`, `yarn npm tag add|remove`
  const j = operandAt(args, YARN_VALUED, i + 1);
  if (args[j] === 'publish') return dryRun(args) ? null : registryHit('yarn npm publish');
  return j < 0 ? null : registryChange('yarn npm', args[j]!, operands(args, YARN_VALUED, j + 1));
};

const bun: ToolCheck = (args) => (args[operandAt(args, BUN_VALUED)] === 'publish' && !dryRun(args) ? registryHit('bun publish') : null);

/** A tool whose `<sub>` (its first operand) publishes: `lerna publish`, `vsce publish`. */
function subcommand(subs: string[], rule: (sub: string) => string, reason: string): ToolCheck {
  return (args) => {
    const sub = args[operandAt(args)];
    return sub !== undefined && subs.includes(sub) ? { rule: rule(sub), reason } : null;
  };
}

export const NODE_TOOLS: Record<string, ToolCheck> = {
  npm,
  pnpm,
  yarn,
  bun,
  'semantic-release': (args) =>
    dryRun(args) || args.includes('-d')
      ? null
      : {
          rule: 'semantic-release',
          reason: '`semantic-release` tags a release, publishes the packages and posts release notes in one go; none of it can be taken back',
        },
  np: (args) =>
    hasOption(args, '--preview')
      ? null
      : {
          rule: 'np',
          reason: '`np` bumps the version, tags it, pushes and publishes the package to the npm registry in one go; the published version is there for good',
        },
  'release-it': (args) =>
    dryRun(args) || args.includes('-d') || hasOption(args, '--release-version', '--changelog')
      ? null
      : {
          rule: 'release-it',
          reason: '`release-it` bumps the version, tags and pushes it, publishes the package and creates the release; none of it can be taken back',
        },
  lerna: subcommand(['publish'], () => 'lerna publish', '`lerna publish` tags and uploads every changed package of the monorepo to the registry for good'),
  changeset: subcommand(
    ['publish'],
    () => 'changeset publish',
    '`changeset publish` uploads every package version not yet on the registry and tags it; published versions are there for good',
  ),
  vsce: subcommand(
    ['publish', 'unpublish'],
    (s) => `vsce ${s}`,
    "`vsce` changes the Visual Studio Marketplace: an uploaded extension version reaches users' editors at once and cannot be replaced",
  ),
  ovsx: subcommand(
    ['publish', 'unpublish'],
    (s) => `ovsx ${s}`,
    "`ovsx` changes the Open VSX Registry: an uploaded extension version reaches users' editors at once, and one taken away is gone for all of them",
  ),
};
