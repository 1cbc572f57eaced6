import { dryRun, type Hit, hasOption, operandAt, type ToolCheck, type ToolEnv } from './args.ts';

/**
 * The publish family's JavaScript tools: the npm-compatible clients (npm, pnpm, yarn, bun), the
 * runners that start a package's program (`npx`, `pnpm dlx`, `yarn dlx`, `bunx`, `npm exec`),
 * and the release tools they usually start (semantic-release, np, release-it, lerna, changesets, vsce, ovsx).
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
const FOREACH_VALUED = new Set(['--include', '--exclude', '--from', '-j', '--jobs']);
const BUN_VALUED = new Set(['--cwd', '-c', '--config']);
const RUNNER_VALUED = new Set(['-p', '--package', '--registry', '--cache', '-w', '--workspace', '--prefix', '--userconfig', '--from', '--with', '--python']);

/** A package name as the program it installs: `@vscode/vsce@2` is `vsce`, `aws-cdk` is `cdk`. */
const PACKAGE_BINS: Record<string, string> = {
  '@changesets/cli': 'changeset',
  'firebase-tools': 'firebase',
  'aws-cdk': 'cdk',
  'netlify-cli': 'netlify',
  '@semantic-release/cli': 'semantic-release',
};

function binOf(pkg: string): string {
  const at = pkg.indexOf('@', 1);
  const name = at > 0 ? pkg.slice(0, at) : pkg;
  return PACKAGE_BINS[name] ?? name.slice(name.lastIndexOf('/') + 1);
}

/** `npx [options] <tool> args`: the tool checked as if run directly (`npx -c '...'` is not followed). */
export function runner(args: string[], env: ToolEnv, from = 0): Hit | null {
  const i = operandAt(args, RUNNER_VALUED, from);
  if (i < 0) return null;
  for (let k = from; k < i; k++) if (args[k] === '-c' || args[k] === '--call' || args[k] === '--shell-mode') return null;
  return env.run(binOf(args[i]!), args.slice(i + 1));
}

const npm: ToolCheck = (args, env) => {
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
  if (sub === 'exec' || sub === 'x') return runner(args, env, i + 1);
  return null;
};

const pnpm: ToolCheck = (args, env) => {
  let i = operandAt(args, PNPM_VALUED);
  if (i < 0) return null;
  if (args[i] === 'recursive' || args[i] === 'multi' || args[i] === 'm') i = operandAt(args, PNPM_VALUED, i + 1);
  const sub = args[i] ?? '';
  if (sub === 'publish') return dryRun(args) ? null : registryHit('pnpm publish');
  if (sub === 'dlx' || sub === 'exec') return runner(args, env, i + 1);
  // `pnpm <bin>` runs a script of that name or else the package's program
  return i < 0 ? null : runner(args, env, i);
};

const yarn: ToolCheck = (args, env) => {
  const i = operandAt(args, YARN_VALUED);
  if (i < 0) return null;
  const sub = args[i]!;
  const next = operandAt(args, YARN_VALUED, i + 1);
  if (sub === 'publish') return dryRun(args) ? null : registryHit('yarn publish');
  if (sub === 'npm') return args[next] === 'publish' && !dryRun(args) ? registryHit('yarn npm publish') : null;
  // `yarn workspaces foreach -A npm publish`, `yarn workspace @acme/web publish`: yarn again, per workspace
  if (sub === 'workspaces' && args[next] === 'foreach') {
    const k = operandAt(args, FOREACH_VALUED, next + 1);
    return k < 0 ? null : env.run('yarn', args.slice(k));
  }
  if (sub === 'workspace') return next < 0 ? null : env.run('yarn', args.slice(next + 1));
  if (sub === 'dlx' || sub === 'exec' || sub === 'run') return runner(args, env, i + 1);
  // `yarn <bin>` runs a script of that name or else the package's program
  return runner(args, env, i);
};

const bun: ToolCheck = (args, env) => {
  const i = operandAt(args, BUN_VALUED);
  if (i < 0) return null;
  if (args[i] === 'publish') return dryRun(args) ? null : registryHit('bun publish');
  if (args[i] === 'x' || args[i] === 'run') return runner(args, env, i + 1);
  return runner(args, env, i);
};

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
  npx: (args, env) => runner(args, env),
  pnpx: (args, env) => runner(args, env),
  bunx: (args, env) => runner(args, env),
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
