import { type Hit, hasOption, operandAt, optionValues, type ToolCheck } from './args.ts';
import { AWS_VALUED, AZ_VALUED } from './infra-cloud.ts';

/**
 * The publish family's rollouts through the big clouds' own CLIs, whose every other word the
 * unknown-command rule still reads (`aws cloudformation deploy`, `az webapp deploy`, `heroku
 * container:release`): the operations that put a new version of the code in front of what a
 * service serves — `aws lambda update-function-code`, `aws ecs update-service
 * --force-new-deployment`, `az webapp deployment source config-zip`, a slot swap, `heroku
 * releases:rollback` — named here because no deploy verb says so.
 */

function rollout(rule: string, does = 'puts a new version of the code in front of everyone the live service serves'): Hit {
  return { rule, reason: `\`${rule}\` ${does}; what it ships cannot be called back` };
}

/** aws: by service, the operations that roll code out; a function says when an operation does (`update-service` with a new task definition or a forced deployment). */
const AWS_ROLLOUTS: Record<string, Record<string, true | ((args: readonly string[]) => boolean)>> = {
  lambda: { 'update-function-code': true, 'update-alias': true },
  ecs: { 'update-service': (args) => hasOption(args, '--force-new-deployment', '--task-definition') },
  elasticbeanstalk: { 'update-environment': (args) => hasOption(args, '--version-label'), 'swap-environment-cnames': true },
  apprunner: { 'start-deployment': true },
  amplify: { 'start-deployment': true },
  lightsail: { 'create-container-service-deployment': true },
  // a release pipeline run (the console's "Release change"), a revision deployed to its instances
  codepipeline: { 'start-pipeline-execution': true },
  codedeploy: { 'create-deployment': true },
};

const aws: ToolCheck = (args) => {
  const i = operandAt(args, AWS_VALUED);
  const service = args[i];
  const op = args[operandAt(args, AWS_VALUED, i + 1)];
  if (service === undefined || op === undefined || !Object.hasOwn(AWS_ROLLOUTS, service)) return null;
  const ops = AWS_ROLLOUTS[service]!;
  const when = Object.hasOwn(ops, op) ? ops[op] : undefined;
  if (when === undefined || (when !== true && !when(args))) return null;
  return rollout(`aws ${service} ${op}`);
};

/** az's command words: the leading operands, up to the first option after them (`webapp deployment source config-zip`). */
function azCommand(args: readonly string[]): string[] {
  const words: string[] = [];
  for (let k = operandAt(args, AZ_VALUED); k >= 0 && k < args.length; k++) {
    const w = args[k]!;
    if (!/^[a-z][a-z0-9-]*$/.test(w)) break;
    words.push(w);
  }
  return words;
}

/** az commands (after the app kind) that roll code out; `webapp deploy` and the like are read by their verb. */
const AZ_APP_ROLLOUTS = new Set(['deployment source config-zip', 'deployment source sync', 'deployment slot swap', 'up']);

const az: ToolCheck = (args) => {
  const [kind, ...words] = azCommand(args);
  const rest = words.join(' ');
  if ((kind === 'webapp' || kind === 'functionapp' || kind === 'containerapp') && AZ_APP_ROLLOUTS.has(rest))
    return rollout(`az ${kind} ${rest}`, rest === 'deployment slot swap' ? 'swaps the slot into production, in front of every visitor' : undefined);
  if (kind === 'containerapp' && rest === 'update' && optionValues(args, '--image', '-i').length) return rollout('az containerapp update --image');
  // `az acr build` builds in the cloud and pushes the image (unless `--no-push`); `az acr import` puts one in the registry: `docker push`'s
  if (kind === 'acr' && ((rest === 'build' && !hasOption(args, '--no-push')) || rest === 'import'))
    return rollout(`az acr ${rest}`, 'pushes an image into the registry, where what pulls it takes it');
  return null;
};

const HEROKU_VALUED = new Set(['-a', '--app', '-r', '--remote']);

/** heroku: `releases:rollback` (also `rollback`), an earlier release put back in front of the app's users. */
const heroku: ToolCheck = (args) => {
  const sub = args[operandAt(args, HEROKU_VALUED)];
  return sub === 'releases:rollback' || sub === 'rollback'
    ? rollout(`heroku ${sub}`, "puts an earlier release back in front of the app's users, replacing the one that serves them")
    : null;
};

/** By program; the unknown-command rule reads their other words (publish.ts SOME_VERBS). */
export const CLOUD_ROLLOUTS: Record<string, ToolCheck> = { aws, az, heroku };
