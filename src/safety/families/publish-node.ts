import { dryRun, type Hit, hasOption, operandAt, type ToolCheck } from './args.ts';

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
  if (sub === 'unpublish' && !dryRun(args)) {
    return {
      rule: 'npm unpublish',
      reason: '`npm unpublish` takes a published version away from everyone who installs it, and its version number can never be used again',
    };
  }
  if ((sub === 'dist-tag' || sub === 'dist-tags') && args[operandAt(args, NPM_VALUED, i + 1)] === 'add') {
    return { rule: 'npm dist-tag add', reason: '`npm dist-tag add` moves a registry tag such as `latest`: every install from then on gets that version' };
  }
  return null;
};

const pnpm: ToolCheck = (args) => {
  let i = operandAt(args, PNPM_VALUED);
  if (i < 0) return null;
  if (args[i] === 'recursive' || args[i] === 'multi' || args[i] === 'm') i = operandAt(args, PNPM_VALUED, i + 1);
  return args[i] === 'publish' && !dryRun(args) ? registryHit('pnpm publish') : null;
};

const yarn: ToolCheck = (args) => {
  const i = operandAt(args, YARN_VALUED);
  if (i < 0) return null;
  if (args[i] === 'publish') return dryRun(args) ? null : registryHit('yarn publish');
  if (args[i] === 'npm') return args[operandAt(args, YARN_VALUED, i + 1)] === 'publish' && !dryRun(args) ? registryHit('yarn npm publish') : null;
  return null;
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
  ovsx: subcommand(['publish'], () => 'ovsx publish', '`ovsx publish` uploads an extension version to the Open VSX Registry for good'),
};
