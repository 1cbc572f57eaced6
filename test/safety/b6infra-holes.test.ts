/**
 * What the sixth fresh battery's writer found the docs did not decide, in the infra family's
 * reach: the migration and restore tools' verbs that destroy a database's tables or data, changes
 * applied to live infrastructure (IaC applies, cluster applies, playbooks), and the `gh repo`
 * verbs that rename, archive, transfer or change the visibility of a GitHub repository.
 * Every row pairs an everyday command that must pass silently with a neighbour a person is asked
 * about. The context is context.ts's: the project /home/u/proj on branch main, home /home/u.
 */
import { testAsks, testHoles } from './context.ts';

testAsks({
  // migration tools' verbs that drop every object of a schema or roll every migration back
  "a migration tool's verb that drops the schema or undoes every migration": [
    ['flyway info', 'flyway clean'],
    ['flyway migrate', 'flyway -url=jdbc:postgresql://db:5432/app -cleanDisabled=false clean'],
    ['flyway validate', 'npx flyway clean'],
    ['mvn flyway:migrate', 'mvn flyway:clean'],
    ['mvn flyway:info -Dflyway.url=jdbc:postgresql://localhost/app', './mvnw -Dflyway.cleanDisabled=false flyway:clean flyway:migrate'],
    ['mvn org.flywaydb:flyway-maven-plugin:10.0.0:info', 'mvn org.flywaydb:flyway-maven-plugin:10.0.0:clean'],
    ['mvn liquibase:update', 'mvn liquibase:dropAll'],
    ['./gradlew flywayMigrate', './gradlew flywayClean'],
    ['./gradlew build -x flywayClean', 'gradle :db:flywayClean'],
    ['./gradlew update', './gradlew dropAll'],
    ['liquibase status --verbose', 'liquibase dropAll'],
    ['liquibase update', 'liquibase --url=jdbc:postgresql://db/app drop-all'],
    ['dbmate up', 'dbmate drop'],
    ['dbmate status', 'dbmate -u "$DATABASE_URL" drop'],
    ['goose status', 'goose reset'],
    ['goose -dir migrations postgres "$DATABASE_URL" up', 'goose -dir migrations postgres "$DATABASE_URL" reset'],
    ['goose down-to 20240101120000', 'goose down-to 0'],
    ['atlas schema inspect -u "$DATABASE_URL"', 'atlas schema clean -u "$DATABASE_URL"'],
    ['atlas migrate diff --env local', 'atlas schema clean --env local --auto-approve'],
    ['alembic upgrade head', 'alembic downgrade base'],
    ['alembic downgrade -1', 'alembic -c alembic.ini downgrade base'],
    ['alembic downgrade base --sql', 'python -m alembic downgrade base'],
    ['python manage.py migrate', 'python manage.py migrate shop zero'],
    ['python manage.py migrate shop 0003', 'django-admin migrate shop zero --settings=app.settings'],
  ],
  // loading a schema file recreates every table, emptying it; truncating or replanting empties them
  "a framework's task that recreates or empties every table": [
    ['bin/rails db:migrate', 'bin/rails db:schema:load'],
    ['rails db:prepare', 'rake db:schema:load'],
    ['bin/rails db:test:prepare', 'bin/rails db:structure:load'],
    ['bin/rails db:seed', 'bin/rails db:seed:replant'],
    ['bin/rails db:migrate:status', 'bin/rails db:truncate_all'],
    ['bin/rails db:create', 'bin/rails db:setup'],
    ['bin/rails db:migrate VERSION=20240101120000', 'bin/rails db:migrate VERSION=0'],
  ],
  // a restore that drops what the database holds before it loads the dump
  'a restore that drops first': [
    ['mongorestore dump/', 'mongorestore --drop dump/'],
    ['mongorestore --uri "$MONGO_URL" dump/', 'mongorestore --uri "$MONGO_URL" --drop --nsInclude "app.*" dump/'],
    ['mongoimport --db app --collection users --file users.json', 'mongoimport --db app --collection users --drop --file users.json'],
    ['pg_restore -l tmp/app.dump', 'pg_restore --clean -d app tmp/app.dump'],
    ['pg_restore --no-owner -d app_dev tmp/app_dev.dump', 'pg_restore -c -d app_dev tmp/app_dev.dump'],
    ['pg_restore -c -f tmp/restore.sql tmp/app.dump', 'pg_restore --clean --if-exists --dbname=app tmp/app.dump'],
    ['pg_dump -Fc app_dev > tmp/app_dev.dump', 'pg_restore -cC -d postgres tmp/app.dump'],
  ],
  // the keys xargs hands `redis-cli del` are every key the scan lists
  'a redis delete of the keys a scan lists': [
    ["redis-cli --scan --pattern 'cache:*'", 'redis-cli --scan | xargs redis-cli del'],
    ['redis-cli del session:42', "redis-cli --scan --pattern 'sess:*' | xargs -n 100 redis-cli unlink"],
    ['redis-cli get session:42', 'redis-cli -n 2 keys "*" | xargs redis-cli -n 2 del'],
  ],
  // IaC applies: what the plan changes, replaces or deletes happens to the live resources
  "an IaC tool's apply": [
    ['terraform plan', 'terraform apply'],
    ['terraform validate', 'terraform apply -auto-approve'],
    ['terraform fmt -check', 'terraform apply tfplan'],
    ['terraform init -upgrade', 'terraform -chdir=infra apply -auto-approve'],
    ['terraform output -json', 'tofu apply -auto-approve'],
    ['terraform show tfplan', 'terragrunt apply'],
    ['terragrunt run-all plan', 'terragrunt run-all apply --terragrunt-non-interactive'],
    ['terragrunt plan', 'terragrunt apply-all'],
    ['terraform apply -refresh-only -auto-approve', 'terraform apply -replace=aws_instance.web'],
    ['pulumi preview', 'pulumi up'],
    ['pulumi stack ls', 'pulumi up --yes --stack prod'],
    ['pulumi refresh --preview-only', 'pulumi update -y'],
  ],
  // cluster writes: what runs is replaced, restarted, rescaled or rolled back
  'a change applied to a cluster': [
    ['kubectl get deploy -n prod', 'kubectl apply -f k8s/'],
    ['kubectl diff -f k8s/', 'kubectl apply -k overlays/prod'],
    ['kubectl apply --dry-run=server -f k8s/', 'kubectl --context prod apply -f deploy.yaml'],
    ['kubectl apply view-last-applied deploy/web', 'kubectl replace --force -f deploy.yaml'],
    ['kubectl describe deploy web', 'kubectl patch deploy web -p \'{"spec":{"replicas":0}}\''],
    ['kubectl logs deploy/web', 'kubectl scale deploy web --replicas=0 -n prod'],
    ['kubectl rollout status deploy/web', 'kubectl rollout restart deploy/web'],
    ['kubectl rollout history deploy/web', 'kubectl rollout undo deploy/web'],
    ['kubectl explain deployment.spec', 'kubectl set image deploy/web web=ghcr.io/acme/web:2'],
    ['kubectl top pods', 'kubectl create -f job.yaml'],
    ['kubectl get nodes', 'kubectl drain node-1 --ignore-daemonsets'],
    ['kubectl config use-context kind-dev', 'kubectl autoscale deploy web --min=1 --max=3'],
    ['kustomize build overlays/prod', 'kustomize build overlays/prod | kubectl apply -f -'],
    ['oc get pods', 'oc apply -f template.yaml'],
    ['helm template web ./chart', 'helm install web ./chart'],
    ['helm lint ./chart', 'helm upgrade web ./chart'],
    ['helm diff upgrade web ./chart', 'helm upgrade --install web ./chart -n prod'],
    ['helm install web ./chart --dry-run', 'helm rollback web 3'],
    ['helm history web', 'helm -n prod upgrade -i web ./chart --atomic'],
    ['argocd app get web', 'argocd app sync web'],
    ['argocd app diff web', 'argocd app sync web --prune'],
    ['argocd app history web', 'argocd app rollback web 5'],
    ['skaffold build', 'skaffold run'],
    ['skaffold dev --port-forward', 'skaffold run -p prod --tail'],
    ['ansible-playbook --check site.yml', 'ansible-playbook site.yml'],
    ['ansible-playbook -i inventory/hosts site.yml --syntax-check', 'ansible-playbook -i inventory/hosts site.yml'],
    ['ansible-playbook -C -i hosts deploy.yml', 'ansible-playbook -i hosts deploy.yml --limit web'],
    ['ansible-playbook site.yml --list-tasks', 'ansible-playbook -b site.yml'],
  ],
  // a GitHub repository renamed, archived, handed over, or made visible to others (or hidden, dropping its stars)
  "a GitHub repository's name, owner, archive state or visibility": [
    ['gh repo view', 'gh repo archive'],
    ['gh repo unarchive acme/old', 'gh repo archive acme/old --yes'],
    ['gh repo list acme', 'gh repo rename app2'],
    ['gh repo clone acme/app', 'gh repo rename -R acme/app app2 --yes'],
    ['gh repo fork acme/app', 'gh repo transfer acme/app other-org'],
    ['gh repo edit --add-topic cli', 'gh repo edit --visibility private --accept-visibility-change-consequences'],
  ],
});

// made public, the repository's code and history are published (h/ghapi, the publish family): denied, not asked
testHoles({
  'a repository made public is published': [
    ['gh repo edit --description "The app"', 'gh repo edit --visibility public --accept-visibility-change-consequences'],
    ['gh repo edit --enable-issues', 'gh repo edit acme/app --visibility=public --accept-visibility-change-consequences'],
  ],
});

// The other side of the line docs/safety.md draws: a tool's own `deploy` verb stays publishing's (denied)
testHoles({
  "a tool's deploy verb stays publishing": [
    ['sam build', 'sam deploy --no-confirm-changeset'],
    ['aws cloudformation describe-stacks', 'aws cloudformation deploy --template-file t.yaml --stack-name web'],
    ['cdk diff', 'cdk deploy --all'],
    ['skaffold diagnose', 'skaffold deploy'],
  ],
});
