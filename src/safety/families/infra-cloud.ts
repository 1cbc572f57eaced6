import { type ArgsCheck, type Hit, hasOption, hasShort, operandAt } from './args.ts';
import { spansPath } from './infra-object-stores.ts';
import { GCLOUD_VALUED } from './publish-deploy.ts';

/**
 * The infra family's cluster and cloud CLIs: kubectl mass deletes, helm uninstall, and the
 * delete verbs of aws, gcloud, gsutil and az. What they delete — clusters, databases, buckets,
 * resource groups — takes its data along. And the cloud CLIs' grants, which change who may do
 * what in the live account (`aws iam attach-user-policy`, `gcloud projects add-iam-policy-binding`,
 * `az role assignment create`), and aws's and az's changes to what runs live (`aws ecs
 * update-service --desired-count 0`, `az webapp stop`).
 */

export const KUBECTL_VALUED = new Set([
  '-n',
  '--namespace',
  '--context',
  '--kubeconfig',
  '--cluster',
  '--user',
  '-s',
  '--server',
  '--token',
  '-l',
  '--selector',
  '-f',
  '--filename',
  '--field-selector',
  '--grace-period',
  '-o',
  '--output',
  '--timeout',
  '-k',
  '--kustomize',
  '--as',
  '--as-group',
  '--request-timeout',
  '--cascade',
]);
/** Resource types whose deletion takes everything in them along. */
const WHOLESALE = new Set([
  'namespace',
  'namespaces',
  'ns',
  'all',
  'project',
  'projects',
  'crd',
  'crds',
  'customresourcedefinition',
  'customresourcedefinitions',
]);

/** `kubectl delete` of namespaces, `all`, CRDs, or with `--all` / `--all-namespaces`. */
const kubectl =
  (program: string): ArgsCheck =>
  (args) => {
    const i = operandAt(args, KUBECTL_VALUED);
    if (args[i] !== 'delete') return null;
    const rule = (what: string): Hit => ({
      rule: `${program} delete ${what}`,
      reason: `\`${program} delete ${what}\` removes every resource it covers at once — workloads, their volumes and data with them — and nothing keeps a copy`,
    });
    if (hasOption(args, '--all')) return rule('--all');
    if (args.includes('-A') || hasOption(args, '--all-namespaces')) return rule('--all-namespaces');
    for (let k = operandAt(args, KUBECTL_VALUED, i + 1); k >= 0; k = operandAt(args, KUBECTL_VALUED, k + 1)) {
      // `ns`, `ns/staging`, `pods,ns`
      for (const part of args[k]!.split(',')) {
        const slash = part.indexOf('/');
        const type = (slash < 0 ? part : part.slice(0, slash)).toLowerCase();
        if (WHOLESALE.has(type)) return rule(type === 'ns' || type.startsWith('namespace') ? 'namespace' : type);
      }
    }
    return null;
  };

export const HELM_VALUED = new Set(['-n', '--namespace', '--kube-context', '--kubeconfig', '--registry-config', '--repository-config', '--repository-cache']);
const HELM_UNINSTALL = new Set(['uninstall', 'delete', 'del', 'un']);

/** aws options that take a separate value (before or after the service and operation). */
export const AWS_VALUED = new Set([
  '--profile',
  '--region',
  '--output',
  '--endpoint-url',
  '--query',
  '--cli-read-timeout',
  '--cli-connect-timeout',
  '--ca-bundle',
  '--color',
  '--cli-binary-format',
]);

/**
 * The aws operations that delete: `delete-*`, `terminate-*`, their batch forms (`ecr
 * batch-delete-image`), and `sqs purge-queue`,
 * which deletes every message of the queue.
 */
const AWS_DELETE_OPERATION = /^(?:batch-)?(?:delete|terminate)-|^purge-queue$/;

/** aws: `s3 rb`, `s3 rm --recursive`, every delete operation (AWS_DELETE_OPERATION), `iam`'s grants, and changes to what runs live. */
const aws: ArgsCheck = (args) => {
  const i = operandAt(args, AWS_VALUED);
  const service = args[i];
  const op = args[operandAt(args, AWS_VALUED, i + 1)];
  if (service === undefined || op === undefined) return null;
  const deletes = (service === 's3' && (op === 'rb' || (op === 'rm' && hasOption(args, '--recursive')))) || AWS_DELETE_OPERATION.test(op);
  if (deletes) {
    const rule = `aws ${service} ${op}${op === 'rm' ? ' --recursive' : ''}`;
    return { rule, reason: `\`${rule}\` deletes cloud resources and the data in them for good; AWS keeps no copy to restore` };
  }
  if (service === 'kms' && op === 'schedule-key-deletion')
    return {
      rule: 'aws kms schedule-key-deletion',
      reason: '`aws kms schedule-key-deletion` deletes a key after its waiting period, and every datum encrypted with it can never be read again',
    };
  if (service === 'iam' && AWS_IAM_GRANTS.test(op)) return accessHit(`aws iam ${op}`, 'AWS');
  const live = awsLiveChange(service, op);
  if (live) return live;
  // a lifecycle configuration replaces the bucket's rules; its expiry rules delete objects and old versions
  if (service === 's3api' && op === 'put-bucket-lifecycle-configuration')
    return {
      rule: 'aws s3api put-bucket-lifecycle-configuration',
      reason:
        "`aws s3api put-bucket-lifecycle-configuration` replaces the bucket's lifecycle rules; an expiry rule deletes the objects (and old versions) it covers",
    };
  return null;
};

/**
 * aws's operations that change or stop what runs live, as `kubectl scale|set|patch` do in a
 * cluster: an `update-*`, `modify-*`, `stop-*`, `reboot-*` or `failover-*` of any service (a
 * service scaled to nothing, `ecs update-service --desired-count 0`; a function's configuration
 * replaced, `lambda update-function-configuration`; an instance or a database stopped), and the
 * operations AWS_LIVE_CHANGES names, whose verb does not say so. Not `eks update-kubeconfig` (a
 * file of this machine) nor `dynamodb update-item` (a table's data, as `put-item` is). The
 * rollouts of new code among them are the publish family's (publish-clouds.ts).
 */
const AWS_CHANGE_VERB = /^(?:update|modify|stop|reboot|failover)-/;
const AWS_NOT_LIVE = new Set(['update-kubeconfig', 'update-item']);
const AWS_LIVE_CHANGES: Record<string, ReadonlySet<string>> = {
  autoscaling: new Set(['set-desired-capacity', 'suspend-processes', 'put-scaling-policy']),
  lambda: new Set(['put-function-concurrency', 'put-provisioned-concurrency-config', 'add-permission', 'create-function-url-config']),
  cloudformation: new Set(['create-stack', 'execute-change-set', 'rollback-stack']),
  ssm: new Set(['send-command', 'start-automation-execution']),
  route53: new Set(['change-resource-record-sets']),
  ec2: new Set(['authorize-security-group-ingress', 'revoke-security-group-ingress', 'replace-route']),
  secretsmanager: new Set(['put-secret-value', 'rotate-secret']),
  codepipeline: new Set(['put-approval-result', 'retry-stage-execution']),
};

function awsLiveChange(service: string, op: string): Hit | null {
  const named = Object.hasOwn(AWS_LIVE_CHANGES, service) && AWS_LIVE_CHANGES[service]!.has(op);
  if (!named && (!AWS_CHANGE_VERB.test(op) || AWS_NOT_LIVE.has(op))) return null;
  const rule = `aws ${service} ${op}`;
  return { rule, reason: `\`${rule}\` changes what runs live in the AWS account — scaled, stopped, reconfigured or let in — for everyone it serves` };
}

/**
 * az's commands that change or stop what runs (the cloud's `kubectl scale|set`): one ending in
 * `stop`, `restart`, `deallocate`, `scale`, `update` or `swap`, and an app's settings set (`webapp
 * config appsettings set`); not az's own settings and tools (`account`, `config`, `extension`,
 * `cloud`, `bicep`).
 */
const AZ_CHANGE_VERBS = new Set(['stop', 'restart', 'deallocate', 'scale', 'update', 'swap']);
const AZ_LOCAL_GROUPS = new Set(['account', 'config', 'extension', 'cloud', 'bicep', 'devops', 'upgrade']);

function azLiveChange(args: string[]): Hit | null {
  const path = commandPath(args, AZ_VALUED, (w, p) => AZ_CHANGE_VERBS.has(w) || (w === 'set' && /(?:appsettings|connection-string) set$/.test(p)));
  if (!path || AZ_LOCAL_GROUPS.has(path.split(' ')[0]!)) return null;
  return {
    rule: `az ${path}`,
    reason: `\`az ${path}\` changes what runs live in the Azure subscription — scaled, stopped or reconfigured — for everyone it serves`,
  };
}

/**
 * The command words of a gcloud or az line (nested groups, then the verb) up to the first that
 * `ends` takes as its verb: `sql instances delete`, `projects add-iam-policy-binding`; null when
 * none does before a word that is a value.
 */
function commandPath(args: string[], valued: ReadonlySet<string>, ends: (word: string, path: string) => boolean): string | null {
  let path = '';
  for (let k = operandAt(args, valued); k >= 0; k = operandAt(args, valued, k + 1)) {
    const w = args[k]!;
    if (!/^[a-z][a-z0-9-]*$/.test(w)) return null;
    path = path ? `${path} ${w}` : w;
    if (ends(w, path)) return path;
  }
  return null;
}

/**
 * A command of nested groups ending in `delete` (gcloud's and az's verb): `sql instances delete`,
 * `group delete`, `storage blob delete-batch`; for gcloud also `destroy` (`kms keys versions destroy`).
 */
function deleteVerb(args: string[], valued: ReadonlySet<string>, destroy = false): string | null {
  return commandPath(args, valued, (w) => w === 'delete' || w === 'delete-batch' || (destroy && w === 'destroy'));
}

/** Who may do what in a live cloud account changed: a grant, a new identity or a new key. */
function accessHit(rule: string, cloud: string): Hit {
  return {
    rule,
    reason: `\`${rule}\` changes who may do what in the live ${cloud} account — a permission granted, an identity or a key made — and whoever holds it can act at once`,
  };
}

/** aws iam's operations that grant permissions, make an identity or issue it credentials (a removal takes them away: `detach-*`, `remove-*`). */
const AWS_IAM_GRANTS = /^(?:attach|put|create|add|update|upload)-|^set-default-policy-version$|^reset-service-specific-credential$/;

/** gcloud's grants: any resource's `add-iam-policy-binding` or `set-iam-policy`, and `iam …` verbs that make or change an identity, a role or a key. */
function gcloudGrant(args: string[]): string | null {
  return commandPath(
    args,
    GCLOUD_VALUED,
    (w, path) =>
      w === 'add-iam-policy-binding' ||
      w === 'set-iam-policy' ||
      (/^(?:(?:alpha|beta) )?iam /.test(path) && (w === 'create' || w === 'update' || w === 'undelete' || w === 'enable' || w === 'upload')),
  );
}

/**
 * gcloud's commands that change or stop what runs, as az's (azLiveChange): one ending in
 * `update`, `update-traffic`, `stop`, `reset`, `resize`, `patch`, `suspend`, `failover` or
 * `restart` (`run services update --min-instances 0`, `compute instances stop`, `container
 * clusters resize`, `sql instances patch`); not gcloud's own settings and tools (`config`,
 * `components update`, `auth`).
 */
const GCLOUD_CHANGE_VERBS = new Set(['update', 'update-traffic', 'stop', 'reset', 'resize', 'patch', 'suspend', 'failover', 'restart']);
const GCLOUD_LOCAL_GROUPS = new Set(['config', 'components', 'auth']);

function gcloudLiveChange(args: string[]): Hit | null {
  const path = commandPath(args, GCLOUD_VALUED, (w) => GCLOUD_CHANGE_VERBS.has(w));
  if (!path || GCLOUD_LOCAL_GROUPS.has(path.replace(/^(?:alpha|beta) /, '').split(' ')[0]!)) return null;
  return {
    rule: `gcloud ${path}`,
    reason: `\`gcloud ${path}\` changes what runs live in the Google Cloud project — scaled, stopped or reconfigured — for everyone it serves`,
  };
}

const gcloud: ArgsCheck = (args) => {
  const i = operandAt(args, GCLOUD_VALUED);
  const sub = args[i];
  if (
    sub === 'storage' &&
    args[operandAt(args, GCLOUD_VALUED, i + 1)] === 'rm' &&
    (hasShort(args, 'r') || hasShort(args, 'R') || hasOption(args, '--recursive') || args.some(spansPath))
  ) {
    return { rule: 'gcloud storage rm -r', reason: '`gcloud storage rm -r` deletes every object under the path for good (unless the bucket keeps versions)' };
  }
  const path = deleteVerb(args, GCLOUD_VALUED, true);
  if (path) return { rule: `gcloud ${path}`, reason: `\`gcloud ${path}\` deletes a Google Cloud resource and the data in it; it cannot be undone from here` };
  const grant = gcloudGrant(args);
  return grant ? accessHit(`gcloud ${grant}`, 'Google Cloud') : gcloudLiveChange(args);
};

const GSUTIL_VALUED = new Set(['-h', '-o', '-u', '-i']);

const gsutil: ArgsCheck = (args) => {
  const i = operandAt(args, GSUTIL_VALUED);
  const sub = args[i];
  if (sub === 'rb') return { rule: 'gsutil rb', reason: '`gsutil rb` deletes a Cloud Storage bucket' };
  // `gsutil rm 'gs://b/**'`: a pattern spanning the path is every object under it, as `-r`
  if (sub === 'rm' && (hasShort(args, 'r') || hasShort(args, 'R') || hasOption(args, '--recursive') || args.slice(i + 1).some(spansPath))) {
    return { rule: 'gsutil rm -r', reason: '`gsutil rm -r` deletes every object under the path for good (unless the bucket keeps versions)' };
  }
  return null;
};

/** az global options that take a separate value. */
export const AZ_VALUED = new Set(['--subscription', '-o', '--output', '--query']);

const az: ArgsCheck = (args) => {
  const path = deleteVerb(args, AZ_VALUED);
  if (path?.endsWith('delete-batch'))
    return {
      rule: `az ${path}`,
      reason: `\`az ${path}\` deletes every blob or file of the container or share that its pattern matches, for good unless soft delete is on`,
    };
  if (path)
    return {
      rule: `az ${path}`,
      reason: `\`az ${path}\` deletes an Azure resource and everything in it; a deleted resource group takes all its resources along`,
    };
  // `role assignment create`, `role definition update`, `ad sp create-for-rbac` (a service principal, its secret and its role)
  const grant = commandPath(args, AZ_VALUED, (w, path) => (path.startsWith('role ') && (w === 'create' || w === 'update')) || path === 'ad sp create-for-rbac');
  return grant ? accessHit(`az ${grant}`, 'Azure') : azLiveChange(args);
};

export const CLOUD_TOOLS: Record<string, ArgsCheck> = {
  kubectl: kubectl('kubectl'),
  oc: kubectl('oc'),
  helm: (args) => {
    const sub = args[operandAt(args, HELM_VALUED)];
    return sub !== undefined && HELM_UNINSTALL.has(sub)
      ? {
          rule: `helm ${sub}`,
          reason: `\`helm ${sub}\` removes a release and every resource it installed — workloads, services, and volumes whose data goes with them`,
        }
      : null;
  },
  aws,
  gcloud,
  gsutil,
  az,
};
