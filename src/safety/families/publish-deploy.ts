import { DEPLOY_ENVIRONMENTS } from '../../model/deploy-environments.ts';
import { matchesName } from '../patterns.ts';
import { dryRun, hasOption, operandAt, optionValues, type ToolCheck } from './args.ts';

/**
 * The publish family's releases and deployments: GitHub releases, deploy workflows and admin
 * merges through `gh`, and the deploy CLIs that replace what is live (Firebase, Vercel, Netlify,
 * Fly, Cloudflare, Serverless, CDK, Google Cloud).
 */

const GH_VALUED = new Set(['-R', '--repo', '--hostname']);
const WORKFLOW_RUN_VALUED = new Set(['-R', '--repo', '-r', '--ref', '-f', '--raw-field', '-F', '--field', '--json']);
const RELEASE_ACTIONS = new Set(['create', 'new', 'upload', 'edit', 'delete', 'delete-asset']);

/** The deploy-workflow globs, lower-cased once per policy list. */
const lowered = new WeakMap<readonly string[], string[]>();

const NON_PRODUCTION: ReadonlySet<string> = new Set(DEPLOY_ENVIRONMENTS.nonProduction);
const PRODUCTION: ReadonlySet<string> = new Set(DEPLOY_ENVIRONMENTS.production);

/**
 * Whether a workflow named by file (`.github/workflows/deploy.yml`) or by name matches
 * `github.deployWorkflows` (case-insensitive, with or without `.yml`) — unless its name names
 * only non-production environments (`deploy-staging.yml`, `Deploy to preview`) and the glob that
 * matched does not name that environment itself (model/deploy-environments.ts).
 */
export function isDeployWorkflow(workflow: string, globs: readonly string[]): boolean {
  let lower = lowered.get(globs);
  if (!lower) lowered.set(globs, (lower = globs.map((g) => g.toLowerCase())));
  const base = workflow.slice(workflow.lastIndexOf('/') + 1).toLowerCase();
  const bare = base.endsWith('.yml') ? base.slice(0, -4) : base.endsWith('.yaml') ? base.slice(0, -5) : base;
  const matched = lower.filter((g) => matchesName(base, [g]) !== null || (bare !== base && matchesName(bare, [g]) !== null));
  if (!matched.length) return false;
  const words = bare.split(/[^a-z0-9]+/).filter(Boolean);
  if (!onlyNonProduction(words)) return true;
  const environments = words.filter((w) => NON_PRODUCTION.has(w));
  return matched.some((g) => environments.some((e) => g.includes(e)));
}

/** Whether words (of a name, lower case) name a non-production environment and no production one (DEPLOY_ENVIRONMENTS). */
export function onlyNonProduction(words: readonly string[]): boolean {
  return words.some((w) => NON_PRODUCTION.has(w)) && !words.some((w) => PRODUCTION.has(w));
}

const gh: ToolCheck = (args, env) => {
  const i = operandAt(args, GH_VALUED);
  const group = args[i];
  const j = operandAt(args, GH_VALUED, i + 1);
  const action = args[j];
  if (group === 'release' && action !== undefined && RELEASE_ACTIONS.has(action)) {
    return {
      rule: `gh release ${action}`,
      reason: `\`gh release ${action}\` changes the project's published releases on GitHub, which users, download links and package managers pick up at once`,
    };
  }
  if (group === 'workflow' && action === 'run') {
    const name = args[operandAt(args, WORKFLOW_RUN_VALUED, j + 1)];
    if (name !== undefined && isDeployWorkflow(name, env.ctx.policy.deployWorkflows)) {
      return {
        rule: `gh workflow run ${name}`,
        reason: `\`gh workflow run ${name}\` starts a workflow that by its name deploys or releases (github.deployWorkflows): what it ships cannot be called back`,
      };
    }
  }
  if (group === 'pr' && action === 'merge' && hasOption(args, '--admin')) {
    return {
      rule: 'gh pr merge --admin',
      reason:
        '`gh pr merge --admin` merges past the branch protection — required reviews and checks — that exists to stop unreviewed changes reaching the branch',
    };
  }
  return null;
};

/** A deploy CLI whose `<sub>` (its first operand) replaces what is live; `does` says what that does. */
function deploys(program: string, subs: string[], valued: ReadonlySet<string>, does: string, skip?: (args: string[]) => boolean): ToolCheck {
  return (args) => {
    const s = args[operandAt(args, valued)];
    if (s === undefined || !subs.includes(s) || skip?.(args)) return null;
    return { rule: `${program} ${s}`, reason: `\`${program} ${s}\` ${does}` };
  };
}

const VERCEL_VALUED = new Set([
  '--token',
  '-t',
  '--scope',
  '-S',
  '--cwd',
  '-A',
  '--local-config',
  '-Q',
  '--global-config',
  '--team',
  '-T',
  '-e',
  '--env',
  '-b',
  '--build-env',
  '-m',
  '--meta',
  '--regions',
  '--archive',
  '--target',
]);
const NONE = new Set<string>();
/** `vercel rolling-release` steps that move production traffic (`configure`, `fetch`, `abort` do not). */
const ROLLING_STEPS = new Set(['start', 'approve', 'complete']);

const FIREBASE_VALUED = new Set(['-P', '--project', '--token', '--account', '-c', '--config']);
const FLY_VALUED = new Set(['-a', '--app', '-c', '--config', '-t', '--access-token']);
/** fly: `deploy`, and `secrets deploy` (the staged secrets, rolled out by restarting every machine). */
function fly(program: string): ToolCheck {
  const deploy = deploys(program, ['deploy'], FLY_VALUED, FLY_DOES);
  return (args, env) => {
    const i = operandAt(args, FLY_VALUED);
    if (args[i] !== 'secrets') return deploy(args, env);
    return args[operandAt(args, FLY_VALUED, i + 1)] === 'deploy'
      ? { rule: `${program} secrets deploy`, reason: `\`${program} secrets deploy\` ${FLY_DOES}, with the staged secrets` }
      : null;
  };
}

/** Serverless' options naming the stage a deploy goes to (none: the service's own default, which the command line does not tell). */
const SLS_STAGE = ['-s', '--stage'];

/**
 * A deploy whose option names only non-production stages or environments (`serverless deploy
 * --stage dev`, `railway up -e staging`): it ships to a stage a developer deploys to every day,
 * as `cap staging deploy` and `gh workflow run deploy-staging.yml` do (model/deploy-environments.ts).
 * Without the option, or naming a production one too (`--stage prod`), it is a deploy.
 */
function stagedOutsideProduction(options: readonly string[]): (args: string[]) => boolean {
  return (args) => {
    const named = optionValues(args, ...options);
    return named.length > 0 && named.every((n) => onlyNonProduction(nameWords(n)));
  };
}

const SLS_VALUED = new Set(['-s', '--stage', '-r', '--region', '-c', '--config', '--aws-profile']);
const SLS_DOES = 'updates the live functions and cloud stack of the stage it targets';
const FLY_DOES = "rolls a new release out to the app's running machines, in front of its users";
/** gcloud's global options that take a separate value. */
export const GCLOUD_VALUED = new Set([
  '--project',
  '--account',
  '--configuration',
  '--format',
  '--verbosity',
  '--impersonate-service-account',
  '--billing-project',
  '--flags-file',
  '--trace-token',
]);

/** gcloud commands (groups and verb, after `alpha`/`beta`) that replace what a live service runs. */
const GCLOUD_ROLLOUTS = new Set([
  'app deploy',
  'functions deploy',
  'run deploy',
  'run jobs deploy',
  'run services replace',
  'run jobs replace',
  'run multi-region-services replace',
  'endpoints services deploy',
  'ai endpoints deploy-model',
]);

/** gcloud's command words: its leading operands past the global options and a release track (`beta`), at most four. */
function gcloudCommand(args: readonly string[]): string[] {
  const words: string[] = [];
  for (let i = operandAt(args, GCLOUD_VALUED); i >= 0 && i < args.length && words.length < 4; i = operandAt(args, GCLOUD_VALUED, i + 1)) {
    const w = args[i]!;
    if (!/^[a-z][a-z0-9-]*$/.test(w)) break;
    if (!(words.length === 0 && (w === 'alpha' || w === 'beta'))) words.push(w);
  }
  return words;
}

const nameWords = (name: string) => name.toLowerCase().split(/[^a-z0-9]+/);

export const DEPLOY_TOOLS: Record<string, ToolCheck> = {
  gh,
  firebase: deploys(
    'firebase',
    ['deploy', 'hosting:rollback', 'appdistribution:distribute'],
    FIREBASE_VALUED,
    'replaces what is live on the Firebase project — hosting, functions, rules — for all its users, or hands a build to its testers',
  ),
  vercel: (args) => {
    const at = operandAt(args, VERCEL_VALUED);
    const s = args[at];
    if (s === 'promote') return { rule: 'vercel promote', reason: '`vercel promote` makes a deployment the production one, serving every visitor' };
    // `vercel rollback status` only reads
    if (s === 'rollback' && args[operandAt(args, VERCEL_VALUED, at + 1)] !== 'status')
      return { rule: 'vercel rollback', reason: '`vercel rollback` makes an earlier deployment the production one, serving every visitor' };
    const step = s === 'rolling-release' || s === 'rr' ? args[operandAt(args, VERCEL_VALUED, at + 1)] : undefined;
    if (step !== undefined && ROLLING_STEPS.has(step))
      return {
        rule: `vercel rolling-release ${step}`,
        reason: `\`vercel rolling-release ${step}\` moves production traffic onto a new deployment, in front of its visitors`,
      };
    const prod = hasOption(args, '--prod') || optionValues(args, '--target').includes('production');
    if (!prod || (s !== undefined && s !== 'deploy' && s !== 'redeploy' && !s.includes('/') && !s.startsWith('.'))) return null;
    return { rule: 'vercel --prod', reason: '`vercel --prod` deploys to the production domain, replacing the live site for every visitor' };
  },
  netlify: (args) =>
    args[operandAt(args)] === 'deploy' && (hasOption(args, '--prod', '--prod-if-unlocked') || args.includes('-p'))
      ? { rule: 'netlify deploy --prod', reason: '`netlify deploy --prod` replaces the live production site for every visitor' }
      : null,
  fly: fly('fly'),
  flyctl: fly('flyctl'),
  wrangler: (args, env) => {
    // `wrangler pages deploy`, `wrangler versions deploy`, `wrangler triggers deploy`: the same, for Pages, a Worker's versions or its routes and schedules
    const i = operandAt(args);
    const group = args[i] === 'pages' || args[i] === 'versions' || args[i] === 'triggers' ? args[i] : null;
    const hit = deploys(
      'wrangler',
      ['deploy', 'publish', 'rollback'],
      NONE,
      "replaces the live Cloudflare Worker or Pages site that serves its routes' traffic",
      dryRun,
    )(group ? args.slice(i + 1) : args, env);
    if (!hit || !group) return hit;
    const rule = `wrangler ${group} ${hit.rule.slice(9)}`;
    return { rule, reason: hit.reason.replace(`\`${hit.rule}\``, `\`${rule}\``) };
  },
  railway: deploys(
    'railway',
    ['up', 'deploy', 'redeploy'],
    new Set(['-s', '--service', '-e', '--environment', '-p', '--project']),
    'builds and rolls a new deployment out to the Railway service, replacing the one serving its traffic',
    stagedOutsideProduction(['-e', '--environment']),
  ),
  serverless: deploys('serverless', ['deploy'], SLS_VALUED, SLS_DOES, stagedOutsideProduction(SLS_STAGE)),
  sls: deploys('sls', ['deploy'], SLS_VALUED, SLS_DOES, stagedOutsideProduction(SLS_STAGE)),
  cdk: deploys('cdk', ['deploy'], NONE, 'changes the live CloudFormation stacks of the app; resources may be replaced or deleted along the way'),
  gcloud: (args) => {
    const words = gcloudCommand(args);
    // the command is the first words; the ones after it are its operands (`run deploy web`)
    const shown = [2, 3].map((n) => words.slice(0, n).join(' ')).find((c) => GCLOUD_ROLLOUTS.has(c) || c === 'deploy releases promote') ?? '';
    if (GCLOUD_ROLLOUTS.has(shown))
      return { rule: `gcloud ${shown}`, reason: `\`gcloud ${shown}\` rolls a new version out to the live Google Cloud service and sends its traffic there` };
    // `gcloud run services update web --image IMG`: new code in front of the service without the word, as `az containerapp update --image`
    const update = words.slice(0, 3).join(' ');
    if ((update === 'run services update' || update === 'run jobs update') && optionValues(args, '--image').length)
      return {
        rule: `gcloud ${update} --image`,
        reason: `\`gcloud ${update} --image\` rolls a new image out to the live Cloud Run ${update === 'run jobs update' ? 'job, which runs it from its next execution' : 'service and sends its traffic there'}`,
      };
    if (shown === 'deploy releases promote' && !onlyNonProduction(optionValues(args, '--to-target').flatMap(nameWords)))
      return {
        rule: 'gcloud deploy releases promote',
        reason: '`gcloud deploy releases promote` rolls a release out to the next target of its pipeline, production at the end',
      };
    return null;
  },
};
