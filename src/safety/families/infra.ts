import { programName } from '../command.ts';
import { containerOperandAt } from '../container-cli.ts';
import { informational } from '../informational.ts';
import { runnerInner } from '../runners.ts';
import type { Redirect } from '../syntax.ts';
import { type ArgsCheck, dockerSubcommand, type Hit, hasOption, operandAt, values } from './args.ts';
import { APP_TOOLS, SOME_VERBS_TOOLS } from './infra-app.ts';
import { APPLY_TOOLS } from './infra-apply.ts';
import { BACKUP_TOOLS } from './infra-backups.ts';
import { CLOUD_TOOLS, KUBECTL_VALUED } from './infra-cloud.ts';
import { CLUSTER_SOME_VERBS, CLUSTER_TOOLS } from './infra-cluster.ts';
import { checkDbShell, checkRedis, DB_SHELLS, DB_TOOLS, REDIS_CLIENTS } from './infra-db.ts';
import { openedToEveryone } from './infra-exposure.ts';
import { FORGE_SOME_VERBS } from './infra-forges.ts';
import { frameworkWipe } from './infra-framework-wipes.ts';
import { httpDataWipe } from './infra-http-data.ts';
import { HYPERVISOR_TOOLS } from './infra-hypervisors.ts';
import { MIGRATION_TOOLS } from './infra-migrations.ts';
import { OBJECT_STORE_TOOLS } from './infra-object-stores.ts';
import { overwritesLiveData } from './infra-overwrites.ts';
import { checkSqlVerb } from './infra-sql-commands.ts';
import { WINDOWS_BACKUP_TOOLS } from './system-desktops.ts';
import type { FamilyCheck } from './types.ts';

/**
 * The infra family (docs/safety.md): commands that tear down infrastructure and the data in it —
 * `terraform destroy`, `pulumi destroy`, state that forgets what it manages (`terraform state rm`), kubectl mass deletes, `helm uninstall`, the delete verbs
 * of the cloud CLIs (infra-cloud.ts), dropping a whole database (infra-db.ts), the frameworks'
 * database drops and resets, docker's data volumes and the `gh repo` verbs (infra-app.ts), the
 * migration and restore tools' wipes (infra-migrations.ts), backups, snapshots and data stores
 * deleted (infra-backups.ts); and changes applied to live
 * infrastructure: `terraform apply`, `pulumi up` (here), cluster and configuration tools'
 * applies (infra-apply.ts). Asked by default: a person decides. Planning and read-only verbs
 * (`terraform plan -destroy`, `kubectl get`, `aws s3 ls`, `gcloud … list`) stay silent.
 */
export const checkInfra: FamilyCheck = (cmd, inv) => (inv ? check(inv.program, values(inv), cmd.redirects, inv.via.includes('xargs')) : null);

/** `fed`: xargs hands the program more arguments, read from its input. */
function check(program: string, args: string[], redirects: readonly Redirect[], fed: boolean, depth = 0): Hit | null {
  // `--help`, `--version`, `--dry-run` tear nothing down (informational.ts)
  if (depth > 4 || informational(program, args)) return null;
  const name = /^python[\d.]*$/.test(program) ? 'python' : program;
  // `kubectl get pods -o name | xargs kubectl delete`: the names a listing prints, every one of them
  if (fed && (program === 'kubectl' || program === 'oc') && args[operandAt(args, KUBECTL_VALUED)] === 'delete')
    return { rule: `${program} delete (fed by xargs)`, reason: `\`${program} delete\` fed by xargs deletes every resource the listing before it prints` };
  const hit =
    TOOLS.get(name)?.(args) ??
    APPLIES.get(name)?.(args) ??
    CLUSTER.get(name)?.(args) ??
    SOME_VERBS.get(name)?.(args) ??
    openedToEveryone(name, args) ??
    overwritesLiveData(name, args);
  if (hit) return hit;
  if (DB_SHELLS.has(program)) return checkDbShell(program, args, redirects);
  // `bq query 'DROP SCHEMA x CASCADE'`, `aws rds-data execute-statement --sql …`: SQL a cloud CLI runs (infra-sql-commands.ts)
  const sql = checkSqlVerb(program, args, redirects);
  if (sql) return sql;
  // `wp db reset`, `drush sql-drop`, `sqitch revert`: a framework's or migration tool's wipe (infra-framework-wipes.ts); their other verbs stay the unknown-command rule's
  const wipe = frameworkWipe(program, args);
  if (wipe) return wipe;
  if (REDIS_CLIENTS.has(program)) return checkRedis(program, args, redirects, fed);
  // `docker exec db psql -c 'DROP DATABASE x'`: the command run in the container, fed the same stdin
  const inner = execIn(program, args);
  if (inner && inner.length) return check(programName(inner[0]!), inner.slice(1), redirects, fed, depth + 1);
  // `npx prisma migrate reset`, `bundle exec rails db:drop`: the program the runner starts
  const run = runnerInner(program, args);
  return run ? check(run[0], run[1], redirects, fed, depth + 1) : null;
}

/** The command `docker exec <container> …`, `docker compose exec|run <service> …`, `kubectl exec <pod> -- …` or `oc rsh <pod> …` runs, else null. */
function execIn(program: string, args: string[]): string[] | null {
  if (program === 'kubectl' || program === 'oc') {
    const dashes = args.indexOf('--');
    if (dashes >= 0 && args.includes('exec')) return args.slice(dashes + 1);
    // `oc rsh pg-0 psql -c …`: the command after the pod
    const sub = operandAt(args, KUBECTL_VALUED);
    if (program !== 'oc' || args[sub] !== 'rsh') return null;
    const pod = operandAt(args, KUBECTL_VALUED, sub + 1);
    return pod < 0 ? null : args.slice(pod + 1);
  }
  if (program !== 'docker' && program !== 'podman' && program !== 'nerdctl' && program !== 'docker-compose') return null;
  const { compose, at: i } = dockerSubcommand(program, args);
  // `docker run` starts a fresh container; `compose run` joins the project's network and databases
  if (args[i] !== 'exec' && !(compose && args[i] === 'run')) return null;
  const target = containerOperandAt(args, i + 1);
  return target < 0 ? null : args.slice(target + 1);
}

/**
 * terraform, tofu, terragrunt: `destroy`, `apply -destroy` (`terragrunt run-all destroy`,
 * `terragrunt run -- destroy`, the older `terragrunt destroy-all`), and `workspace delete`; then
 * `apply` itself (`apply-all`, `run-all apply`), which changes, replaces or deletes what its plan
 * says on the live resources — but `apply -refresh-only`, which only updates the state.
 */
function terraform(program: string): ArgsCheck {
  return (args) => {
    let i = operandAt(args);
    if (args[i] === 'run-all' || args[i] === 'run') i = operandAt(args, undefined, i + 1);
    const sub = args[i];
    if (sub === 'workspace' && args[operandAt(args, undefined, i + 1)] === 'delete') {
      return {
        rule: `${program} workspace delete`,
        reason: `\`${program} workspace delete\` deletes a workspace and its state; with \`-force\` one that still manages resources, which are left running with nothing to manage them`,
      };
    }
    // `-dry-run` lists what it would take out
    if (sub === 'state' && args[operandAt(args, undefined, i + 1)] === 'rm' && !hasOption(args, '-dry-run')) return forgotten(`${program} state rm`);
    const state = stateOverwrite(program, sub, args[operandAt(args, undefined, i + 1)], args);
    if (state) return state;
    const apply = sub === 'apply' || (program === 'terragrunt' && sub === 'apply-all');
    const destroy = sub === 'destroy' || (program === 'terragrunt' && sub === 'destroy-all');
    const what = destroy ? sub : apply && hasOption(args, '-destroy', '--destroy') ? 'apply -destroy' : null;
    if (what)
      return {
        rule: `${program} ${what}`,
        reason: `\`${program} ${what}\` deletes every resource the configuration manages — servers, databases and the data in them — and the data does not come back`,
      };
    return apply && !hasOption(args, '-refresh-only', '--refresh-only')
      ? {
          rule: `${program} ${sub}`,
          reason: `\`${program} ${sub}\` changes the live resources as its plan says — a change that needs a new resource replaces it, a resource gone from the configuration is deleted, data included`,
        }
      : null;
  };
}

const PULUMI_VALUED = new Set(['-C', '--cwd', '-s', '--stack']);

const pulumi: ArgsCheck = (args) => {
  const i = operandAt(args, PULUMI_VALUED);
  const sub = args[i];
  if (sub === 'destroy' || sub === 'down')
    return {
      rule: 'pulumi destroy',
      reason: '`pulumi destroy` deletes every resource of the stack — servers, databases and the data in them — and the data does not come back',
    };
  if (sub === 'state' && args[operandAt(args, PULUMI_VALUED, i + 1)] === 'delete') return forgotten('pulumi state delete');
  const state = stateOverwrite('pulumi', sub, args[operandAt(args, PULUMI_VALUED, i + 1)], args);
  if (state) return state;
  if (sub === 'up' || sub === 'update')
    return {
      rule: `pulumi ${sub}`,
      reason: `\`pulumi ${sub}\` changes the stack's live resources as its preview says — replacing those that must be and deleting those gone from the program, data included`,
    };
  if (sub === 'stack' && args[operandAt(args, PULUMI_VALUED, i + 1)] === 'rm') {
    return {
      rule: 'pulumi stack rm',
      reason: '`pulumi stack rm` removes a stack with its configuration and state history; with `--force` its resources are left behind unmanaged',
    };
  }
  return null;
};

/**
 * The state overwritten or its safeguards taken off: `state push` (the remote state replaced by a
 * file), `force-unlock` (a lock another run holds broken), `taint` (the resource replaced, data
 * and all, at the next apply), `init -force-copy` / `-migrate-state` (the state copied into
 * another backend, which then holds it); pulumi's `stack import` (the state replaced) and `cancel` (a running update cut
 * off, its resources left half changed).
 */
function stateOverwrite(program: string, sub: string | undefined, next: string | undefined, args: string[]): Hit | null {
  const what =
    sub === 'state' && next === 'push'
      ? 'replaces the remote state with a file: resources it does not list are forgotten, and the next apply recreates or deletes them'
      : sub === 'force-unlock'
        ? 'breaks the lock another run holds on the state: two applies at once corrupt it'
        : sub === 'taint'
          ? 'marks the resource for replacement: the next apply deletes and recreates it, with the data in it'
          : sub === 'init' && hasOption(args, '-force-copy', '-migrate-state')
            ? 'copies the state into the backend the options name, without asking: whoever holds that backend holds the state and its secrets'
            : sub === 'stack' && next === 'import'
              ? "replaces the stack's state with a file: resources it does not list are forgotten, and the next update recreates or deletes them"
              : program === 'pulumi' && sub === 'cancel'
                ? 'cuts off a running update: its resources are left half changed, and the state may not match them'
                : null;
  if (!what) return null;
  const rule = `${program} ${sub}${(sub === 'state' || sub === 'stack') && next ? ` ${next}` : ''}`;
  return { rule, reason: `\`${rule}\` ${what}` };
}

/** Resources taken out of the state (`terraform state rm`, `pulumi state delete`): they keep running, and nothing manages or tears them down any more. */
function forgotten(rule: string): Hit {
  return {
    rule,
    reason: `\`${rule}\` takes resources out of the state: they keep running, with their data and costs, and nothing manages or tears them down any more`,
  };
}

/** Stacks torn down by the deploy CLIs' own verbs. */
function teardown(program: string, verb: string, what: string): ArgsCheck {
  return (args) => (args[operandAt(args)] === verb ? { rule: `${program} ${verb}`, reason: `\`${program} ${verb}\` ${what}` } : null);
}

/** Whether the infra family has a check of its own for this program (the unknown-command rule leaves it alone). */
export function knowsInfra(program: string): boolean {
  return TOOLS.has(/^python[\d.]*$/.test(program) ? 'python' : program) || DB_SHELLS.has(program) || REDIS_CLIENTS.has(program);
}

/**
 * Programs whose data deletes this family names (`firebase firestore:delete -r`) while the
 * unknown-command rule still reads their other verbs (`firebase database:remove /`): not in
 * knowsInfra.
 */
const SOME_VERBS = new Map<string, ArgsCheck>(Object.entries({ ...SOME_VERBS_TOOLS, ...CLUSTER_SOME_VERBS, ...FORGE_SOME_VERBS, curl: httpDataWipe }));

/** kubectl's and oc's node, volume and pod-spec checks (infra-cluster.ts), after TOOLS' and APPLIES'. */
const CLUSTER = new Map<string, ArgsCheck>(Object.entries(CLUSTER_TOOLS));

const SLS_REMOVE = "deletes the stage's whole cloud stack — functions, tables, buckets and the data in them";

const TOOLS = new Map<string, ArgsCheck>(
  Object.entries({
    terraform: terraform('terraform'),
    tofu: terraform('tofu'),
    terragrunt: terraform('terragrunt'),
    pulumi,
    cdk: teardown('cdk', 'destroy', "deletes the app's CloudFormation stacks and the resources in them, data included"),
    serverless: teardown('serverless', 'remove', SLS_REMOVE),
    sls: teardown('sls', 'remove', SLS_REMOVE),
    sam: teardown('sam', 'delete', "deletes the application's CloudFormation stack and the resources in it, data included"),
    ...CLOUD_TOOLS,
    ...DB_TOOLS,
    ...MIGRATION_TOOLS,
    ...APP_TOOLS,
    ...BACKUP_TOOLS,
    ...OBJECT_STORE_TOOLS,
    ...WINDOWS_BACKUP_TOOLS,
    ...HYPERVISOR_TOOLS,
  }),
);

/**
 * The applies of cluster and configuration tools (infra-apply.ts), checked after TOOLS' teardowns
 * of the same program (kubectl, helm). A program only here (argocd, skaffold) keeps the
 * unknown-command rule for its other verbs: `argocd app delete` is asked by its verb.
 */
const APPLIES = new Map<string, ArgsCheck>(Object.entries(APPLY_TOOLS));
