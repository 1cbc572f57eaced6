import { type ArgsCheck, dockerSubcommand, type Hit, hasOption, operandAt, operands } from './args.ts';
import { KUBECTL_VALUED } from './infra-cloud.ts';

/**
 * The infra family's cluster changes past applies and mass deletes (docs/safety.md): a node taken
 * out of scheduling or its pods evicted (`kubectl cordon`, `uncordon`, `taint`), a node's root
 * reached (`kubectl debug node/x`: the host's files under /host; `kubectl run` whose `--overrides`
 * asks for a privileged or host-namespace pod), what holds data deleted by name (`kubectl delete
 * pvc|pv` — the volume goes with its claim under the default reclaim policy — and `delete node`),
 * what runs deleted by name where no controller puts it back (`kubectl delete deploy/api`, `svc`,
 * `secret`; a pod's controller starts another, so `delete pod` passes), docker swarm's changes to
 * what it runs (`docker stack deploy`, `docker service scale`);
 * a node reset out of its cluster (`kubeadm reset`), backups deleted (`velero backup delete`, `velero
 * delete backup`), the mesh or GitOps controller taken off the cluster (`flux|istioctl|cilium
 * uninstall`), and helmfile's applies and teardowns (`helmfile apply|sync|destroy|delete`). Their
 * reads pass: `kubectl get pvc`, `kubectl debug pod/x`, `kubeadm token list`, `velero backup get`,
 * `flux check`, `istioctl analyze`, `helmfile diff|template|lint`.
 */

function asked(rule: string, what: string): Hit {
  return { rule, reason: `\`${rule}\` ${what}` };
}

/** Resource types whose delete by name takes data or capacity with it. */
const HOLDS_DATA = new Set(['pvc', 'persistentvolumeclaim', 'persistentvolumeclaims', 'pv', 'persistentvolume', 'persistentvolumes', 'node', 'nodes', 'no']);
/**
 * Resource types whose delete by name takes down what runs, routes traffic to it or what it
 * reads, on whichever cluster the context points at: its controller does not bring it back, as a
 * pod's does (`kubectl delete pod x` passes: its deployment starts another).
 */
const RUNS_LIVE = new Set(
  [
    'deployment deployments deploy',
    'statefulset statefulsets sts',
    'daemonset daemonsets ds',
    'replicaset replicasets rs',
    'replicationcontroller replicationcontrollers rc',
    'cronjob cronjobs cj',
    'service services svc',
    'ingress ingresses ing',
    'secret secrets',
    'configmap configmaps cm',
    'serviceaccount serviceaccounts sa',
    'role roles rolebinding rolebindings clusterrole clusterroles clusterrolebinding clusterrolebindings',
    'networkpolicy networkpolicies netpol',
    'horizontalpodautoscaler horizontalpodautoscalers hpa',
    'poddisruptionbudget poddisruptionbudgets pdb',
    'mutatingwebhookconfiguration mutatingwebhookconfigurations validatingwebhookconfiguration validatingwebhookconfigurations',
    'storageclass storageclasses sc',
    'gateway gateways httproute httproutes',
    'deploymentconfig deploymentconfigs dc route routes',
  ].flatMap((names) => names.split(' ')),
);
/** kubectl's node verbs that change where pods run. */
const NODE_CHANGES = new Set(['cordon', 'uncordon', 'taint']);
/** What a pod spec asks for that reaches its node: privileged, the host's namespaces or files. */
const HOST_REACH = /"(privileged|hostPID|hostNetwork|hostIPC|hostPath)"\s*:\s*(true|\{)/;

function kubectl(program: string): ArgsCheck {
  return (args) => {
    const i = operandAt(args, KUBECTL_VALUED);
    const sub = args[i];
    const rest = [] as string[];
    for (let k = operandAt(args, KUBECTL_VALUED, i + 1); k >= 0; k = operandAt(args, KUBECTL_VALUED, k + 1)) rest.push(args[k]!);
    if (sub !== undefined && NODE_CHANGES.has(sub))
      return asked(`${program} ${sub}`, 'changes which pods a node runs: its workloads are kept off it or evicted, on whichever cluster the context points at');
    if (sub === 'debug' && rest.some((r) => /^(node|nodes|no)\//.test(r)))
      return asked(`${program} debug node`, "starts a pod with the node's root file system and namespaces: what runs in it changes the node itself");
    if (sub === 'run' && args.some((a, k) => (a.startsWith('--overrides=') ? HOST_REACH.test(a) : a === '--overrides' && HOST_REACH.test(args[k + 1] ?? ''))))
      return asked(`${program} run --overrides`, "starts a privileged pod or one in its node's namespaces: a root shell on the node");
    if (sub !== 'delete') return null;
    for (const word of rest)
      for (const part of word.split(',')) {
        const type = part.split('/')[0]!.toLowerCase();
        if (HOLDS_DATA.has(type))
          return asked(`${program} delete ${type}`, 'deletes a volume with the data in it, or a node with what it runs — nothing keeps a copy');
        // the group after a dot: `deployments.apps`, `ingress.networking.k8s.io`
        const kind = type.split('.')[0]!;
        if (RUNS_LIVE.has(kind))
          return asked(
            `${program} delete ${kind}`,
            'takes down what the cluster runs, routes to it or hands it (a workload, a service, a secret, a permission), on whichever cluster the context points at: no controller puts it back and its definition is kept nowhere',
          );
      }
    return null;
  };
}

/** `velero backup delete NAME`, `velero delete backup NAME`, `--all`: the backups a restore would need. */
const velero: ArgsCheck = (args) => {
  const [a, b] = operands(args);
  return (a === 'backup' && b === 'delete') || (a === 'delete' && b === 'backup')
    ? asked('velero backup delete', "deletes the cluster's backups and their stored data: what they would restore is gone")
    : null;
};

/** `kubeadm reset`: the node's cluster state, certificates and etcd data (on a control plane) wiped. */
const kubeadm: ArgsCheck = (args) =>
  operands(args)[0] === 'reset'
    ? asked('kubeadm reset', "wipes the node's cluster state — its certificates, kubelet setup and, on a control plane, etcd's data")
    : null;

/** `<program> uninstall`: the controller and its resources taken off the cluster. */
const uninstall =
  (program: string): ArgsCheck =>
  (args) =>
    operands(args).includes('uninstall') && !hasOption(args, '--dry-run')
      ? asked(`${program} uninstall`, 'removes the controller and its resources from the cluster: what it ran or routed stops')
      : null;

const HELMFILE_VALUED = new Set([
  '-e',
  '--environment',
  '-f',
  '--file',
  '-l',
  '--selector',
  '-n',
  '--namespace',
  '--kube-context',
  '--state-values-set',
  '--state-values-file',
]);
const HELMFILE_CHANGES = new Set(['apply', 'sync', 'destroy', 'delete', 'deps']);

/** `helmfile apply|sync` installs or upgrades every release; `destroy|delete` uninstalls them. */
const helmfile: ArgsCheck = (args) => {
  const sub = args[operandAt(args, HELMFILE_VALUED)];
  if (sub === undefined || !HELMFILE_CHANGES.has(sub) || sub === 'deps') return null;
  return asked(`helmfile ${sub}`, "installs, upgrades or uninstalls every release of the helmfile on the context's cluster");
};

const STACK_UPDATE = "creates or updates the stack's services on the swarm: their running tasks are replaced";
const STACK_REMOVE = "removes the stack's services, networks and secrets from the swarm: what they served stops";
const SERVICE_REMOVE = 'removes a service from the swarm: its tasks stop and its definition is kept nowhere';
const NODE_REMOVE = 'removes a node from the swarm with what it runs';

/** Docker swarm's verbs that change what the swarm runs, by group: what each does. */
const SWARM_CHANGES: Record<string, Record<string, string>> = {
  stack: { deploy: STACK_UPDATE, up: STACK_UPDATE, rm: STACK_REMOVE, remove: STACK_REMOVE, down: STACK_REMOVE },
  service: {
    create: 'starts a service on the swarm, on whichever swarm the context points at',
    rm: SERVICE_REMOVE,
    remove: SERVICE_REMOVE,
    scale: "changes how many of a service's tasks the swarm runs: scaled to 0 it serves nothing",
    update: "replaces a service's running tasks with a changed definition",
    rollback: "puts a service's previous definition back in front of its users",
  },
  node: {
    rm: NODE_REMOVE,
    remove: NODE_REMOVE,
    demote: "takes a manager's vote away: a swarm that loses its quorum can no longer be changed",
    update: 'changes a node of the swarm: drained, its tasks are moved off it',
  },
  swarm: { leave: 'takes this machine out of the swarm: a manager leaving can cost the swarm its quorum and state' },
};

/** `docker stack deploy|rm`, `docker service create|rm|scale|update|rollback`, `docker node rm|demote|update`, `docker swarm leave`. */
const docker: ArgsCheck = (args) => {
  const { compose, at } = dockerSubcommand('docker', args);
  if (compose || at < 0 || !Object.hasOwn(SWARM_CHANGES, args[at]!)) return null;
  const verbs = SWARM_CHANGES[args[at]!]!;
  const rest = args.slice(at + 1);
  const verb = rest[operandAt(rest)];
  return verb !== undefined && Object.hasOwn(verbs, verb) ? asked(`docker ${args[at]} ${verb}`, verbs[verb]!) : null;
};

/** kubectl and oc, checked after infra-cloud.ts's and infra-apply.ts's checks of the same program; docker's swarm after infra-app.ts's volumes. */
export const CLUSTER_TOOLS: Record<string, ArgsCheck> = { kubectl: kubectl('kubectl'), oc: kubectl('oc'), docker };

/**
 * Programs read here by some of their words only: the unknown-command rule keeps reading their
 * others (`velero restore delete`, `istioctl x precheck`), so they are not the family's own.
 */
export const CLUSTER_SOME_VERBS: Record<string, ArgsCheck> = {
  velero,
  kubeadm,
  flux: uninstall('flux'),
  istioctl: uninstall('istioctl'),
  cilium: uninstall('cilium'),
  // `linkerd uninstall` prints what `kubectl delete -f -` then removes: the mesh's control plane
  linkerd: uninstall('linkerd'),
  helmfile,
  // the uninstall scripts the k3s and RKE2 installers leave: the node's cluster, its containers and data
  ...Object.fromEntries(
    ['k3s-uninstall.sh', 'k3s-agent-uninstall.sh', 'rke2-uninstall.sh', 'rke2-agent-uninstall.sh'].map((script) => [
      script,
      (() => asked(script, "removes the node's cluster: its services, containers, images and data (etcd's or SQLite's state on a server)")) as ArgsCheck,
    ]),
  ),
};
