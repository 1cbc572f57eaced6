import { type ArgsCheck, type Hit, hasOption, hasShort, operandAt } from './args.ts';
import { HELM_VALUED, KUBECTL_VALUED } from './infra-cloud.ts';

/**
 * The infra family's changes applied to live infrastructure by the cluster and configuration
 * tools: kubectl's writes (`apply`, `create`, `replace`, `patch`, `edit`, `scale`, `autoscale`,
 * `set`, `drain`, `rollout restart|undo|pause|resume`), `helm install|upgrade|rollback`,
 * `argocd app sync|rollback`, `skaffold run|apply` and `ansible-playbook` (not `--check`). The IaC
 * engines' applies (`terraform apply`, `pulumi up`) are infra.ts's, beside their destroys. What
 * these change may be a sandbox or a local cluster, so a person decides. Their reads (`get`,
 * `diff`, `template`, `lint`), dry runs and a deploy loop of development (`skaffold dev`) pass.
 */

function applied(rule: string, what: string): Hit {
  return { rule, reason: `\`${rule}\` ${what}` };
}

/** kubectl's subcommands that change what the cluster runs. */
const KUBECTL_WRITES = new Set(['apply', 'create', 'replace', 'patch', 'edit', 'scale', 'autoscale', 'set', 'drain']);
/** `kubectl rollout` steps that change a rollout (`status`, `history` only read). */
const ROLLOUT_CHANGES = new Set(['restart', 'undo', 'pause', 'resume']);

/** `kubectl apply …`, `kubectl rollout restart …` (oc too); `apply view-last-applied` only reads. */
function kubectl(program: string): ArgsCheck {
  return (args) => {
    const i = operandAt(args, KUBECTL_VALUED);
    const sub = args[i];
    if (sub === undefined) return null;
    const next = args[operandAt(args, KUBECTL_VALUED, i + 1)];
    if (sub === 'rollout' && next !== undefined && ROLLOUT_CHANGES.has(next))
      return applied(`${program} rollout ${next}`, 'changes the live workload at once: its pods are replaced or its rollout stopped or turned back');
    if (!KUBECTL_WRITES.has(sub) || (sub === 'apply' && next === 'view-last-applied')) return null;
    // `kubectl set env deploy/x --list` prints the variables
    if (sub === 'set' && next === 'env' && hasOption(args, '--list')) return null;
    return applied(
      `${program} ${sub}`,
      sub === 'drain'
        ? 'evicts every pod from the node; what they serve goes down until they are scheduled elsewhere'
        : 'changes what the cluster runs, on whichever cluster the context points at — replacing, rescaling or removing live workloads',
    );
  };
}

const HELM_CHANGES = new Set(['install', 'upgrade', 'rollback']);

const helm: ArgsCheck = (args) => {
  const sub = args[operandAt(args, HELM_VALUED)];
  return sub !== undefined && HELM_CHANGES.has(sub)
    ? applied(`helm ${sub}`, "changes the release's live resources on the cluster: workloads are replaced and resources the chart no longer has are deleted")
    : null;
};

const ARGOCD_VALUED = new Set([
  '--server',
  '--auth-token',
  '--config',
  '--header',
  '-H',
  '--loglevel',
  '--logformat',
  '--kube-context',
  '--port-forward-namespace',
  '--client-crt',
  '--client-crt-key',
  '--grpc-web-root-path',
  '--server-crt',
]);

/** `argocd app sync|rollback`: the manual gate of an application whose sync is not automatic. */
const argocd: ArgsCheck = (args) => {
  const i = operandAt(args, ARGOCD_VALUED);
  const verb = args[operandAt(args, ARGOCD_VALUED, i + 1)];
  return args[i] === 'app' && (verb === 'sync' || verb === 'rollback')
    ? applied(`argocd app ${verb}`, 'applies the application to its live cluster (with `--prune`, deleting what git no longer has)')
    : null;
};

const SKAFFOLD_VALUED = new Set([
  '-p',
  '--profile',
  '-f',
  '--filename',
  '--kube-context',
  '--kubeconfig',
  '-n',
  '--namespace',
  '-m',
  '--module',
  '-d',
  '--default-repo',
]);

/** `skaffold run|apply`: built images or hydrated manifests deployed to the current context, left running (its `deploy` verb is publishing's). */
const skaffold: ArgsCheck = (args) => {
  const sub = args[operandAt(args, SKAFFOLD_VALUED)];
  return sub === 'run' || sub === 'apply'
    ? applied(`skaffold ${sub}`, "deploys to the current kube context's cluster and leaves it running there, replacing what ran")
    : null;
};

/** `ansible-playbook` but a check run (`--check`, `-C`) or a listing (`--syntax-check`, `--list-tasks`…). */
const ansiblePlaybook: ArgsCheck = (args) =>
  hasOption(args, '--check', '--syntax-check', '--list-hosts', '--list-tasks', '--list-tags') || hasShort(args, 'C')
    ? null
    : applied('ansible-playbook', "runs the playbook against the inventory's live hosts: whatever its tasks install, change, restart or remove happens there");

/** By program. kubectl, oc and helm also have infra-cloud.ts's teardown checks (infra.ts chains them). */
export const APPLY_TOOLS: Record<string, ArgsCheck> = {
  kubectl: kubectl('kubectl'),
  oc: kubectl('oc'),
  helm,
  argocd,
  skaffold,
  'ansible-playbook': ansiblePlaybook,
};
