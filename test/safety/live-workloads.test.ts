import { testAsks } from './context.ts';

/**
 * What runs on a cluster or a swarm taken down or changed by name (families/infra-cluster.ts),
 * found by an everyday corpus of twenty repositories' scripts and docs (everyday-unseen10.txt): a
 * named delete of a deployment, a service or a secret passed while `kubectl apply` asked, and
 * docker swarm's verbs were read by no rule. Each row: [an everyday command that must pass, its
 * neighbour that a person decides].
 */
testAsks({
  'kubectl delete by name of what no controller puts back': [
    ['kubectl delete pod api-7d9f -n prod', 'kubectl delete deployment api -n prod'],
    ['kubectl get deploy/api -o yaml', 'kubectl delete deploy/api'],
    ['kubectl rollout status deployment.apps/web', 'kubectl delete deployments.apps web'],
    ['kubectl get statefulset postgres', 'kubectl delete sts postgres --namespace data'],
    ['kubectl describe svc ingress-nginx-controller -n ingress-nginx', 'kubectl delete svc -n ingress-nginx ingress-nginx-controller'],
    ['kubectl get secret db-creds -o name', 'kubectl delete secret db-creds'],
    ['kubectl delete secret db-creds --dry-run=client -o yaml', 'kubectl -n prod delete configmap app-config'],
    ['kubectl get ingress -A', 'kubectl delete ingress web,api'],
    ['kubectl get clusterrolebinding admin-binding', 'kubectl delete clusterrolebinding admin-binding'],
    ['kubectl get mutatingwebhookconfiguration', 'kubectl delete mutatingwebhookconfiguration ingress-nginx-admission --ignore-not-found'],
    ['kubectl delete -f k8s/job.yaml', 'kubectl delete cronjob nightly-report'],
    ['kubectl delete job db-migrate-42', 'oc delete dc/frontend svc/frontend'],
    ['kubectl delete pods -l app=web --field-selector=status.phase=Failed', 'kubectl delete service -l app=kubernetes-bootcamp'],
  ],
  "docker swarm's changes to what the swarm runs": [
    ['docker stack ls', 'docker stack deploy -c docker-compose.yml traefik'],
    ['docker stack ps traefik', 'docker stack rm traefik'],
    ['docker service ls', 'docker service rm api'],
    ['docker service logs -f api', 'docker service scale api=0'],
    ['docker service ps api', 'docker service update --image registry/api:2 api'],
    ['docker service inspect api', 'docker service rollback api'],
    ['docker node ls', 'docker node rm --force worker-2'],
    ['docker node inspect self', 'docker node update --availability drain worker-1'],
    ['docker swarm init --advertise-addr 127.0.0.1', 'docker swarm leave --force'],
    ['docker compose up -d', 'docker service create --name web -p 80:80 nginx'],
  ],
});
