/**
 * The publish and infra rule families (src/safety/families/publish*.ts, infra*.ts): each
 * dangerous spelling next to a harmless neighbour that must stay allowed, then the policy knobs —
 * `families.<name>: off|ask|deny`, `github.deployWorkflows`, `bash.allowedPrefixes`.
 *
 * The context is corpus.test.ts's: the project /home/u/proj on branch main, home /home/u.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_RULES, type RulesData } from '../../src/model/safety-defaults.ts';
import { evaluateCommand } from '../../src/safety/evaluate.ts';
import { type Policy, policyFromRules } from '../../src/safety/policy.ts';
import { safetyContext } from './context.ts';

const ctx = safetyContext;

/** The default rules with some parts replaced. */
function policy(
  change: Partial<{ families: Partial<RulesData['families']>; deployWorkflows: string[]; allowedPrefixes: string[]; deniedPrefixes: string[] }> = {},
): Policy {
  return policyFromRules({
    ...DEFAULT_RULES,
    families: { ...DEFAULT_RULES.families, ...change.families },
    github: { ...DEFAULT_RULES.github, deployWorkflows: change.deployWorkflows ?? DEFAULT_RULES.github.deployWorkflows },
    bash: {
      ...DEFAULT_RULES.bash,
      allowedPrefixes: change.allowedPrefixes ?? [],
      deniedPrefixes: change.deniedPrefixes ?? DEFAULT_RULES.bash.deniedPrefixes,
    },
  });
}

/** The default policy without the deny lists, so that a hit can only come from a family. */
const familiesOnly = policy({ deniedPrefixes: [] });

/** [dangerous command, the family rule it hits, a harmless neighbour]. */
const PUBLISH: Array<[string, string, string]> = [
  ['npm publish --tag next', 'npm publish', 'npm publish --dry-run'],
  ['npm pu', 'npm publish', 'npm pack'],
  ['npm --registry https://r.example.com publish', 'npm publish', 'npm run publish-docs'],
  ['npm unpublish mypkg@1.0.0', 'npm unpublish', 'npm view mypkg versions'],
  ['npm dist-tag add mypkg@1.2.0 latest', 'npm dist-tag add', 'npm dist-tag ls mypkg'],
  ['pnpm -r --filter a publish', 'pnpm publish', 'pnpm publish --dry-run'],
  ['pnpm --filter x publish', 'pnpm publish', 'pnpm --filter x build'],
  ['yarn publish', 'yarn publish', 'yarn build'],
  ['yarn npm publish', 'yarn npm publish', 'yarn npm info react'],
  ['yarn workspaces foreach -A npm publish', 'yarn npm publish', 'yarn workspaces foreach -A run build'],
  ['bun publish', 'bun publish', 'bun publish --dry-run'],
  ['npx semantic-release', 'semantic-release', 'npx semantic-release --dry-run'],
  ['pnpm dlx semantic-release', 'semantic-release', 'pnpm dlx semantic-release -d'],
  ['yarn dlx semantic-release@22', 'semantic-release', 'yarn dlx @yarnpkg/sdks vscode'],
  ['bunx semantic-release', 'semantic-release', 'bunx prettier --check .'],
  ['./node_modules/.bin/semantic-release --no-ci', 'semantic-release', './node_modules/.bin/eslint .'],
  ['npx lerna publish from-package', 'lerna publish', 'npx lerna run build'],
  ['npx changeset publish', 'changeset publish', 'npx changeset status'],
  ['npx -p @changesets/cli changeset publish', 'changeset publish', 'npx -p @changesets/cli changeset version'],
  ['npx @vscode/vsce publish', 'vsce publish', 'npx @vscode/vsce package'],
  ['ovsx publish ext.vsix', 'ovsx publish', 'ovsx --help'],
  ['cargo publish -p mycrate', 'cargo publish', 'cargo publish --dry-run'],
  ['cargo +nightly publish', 'cargo publish', 'cargo +nightly fmt --all'],
  ['~/.cargo/bin/cargo publish', 'cargo publish', 'cargo package --list'],
  ['$(which cargo) publish', 'cargo publish', '$(which cargo) build'],
  ['gem push mygem-1.2.0.gem', 'gem push', 'gem build mygem.gemspec'],
  ['poetry publish --build', 'poetry publish', 'poetry publish --dry-run'],
  ['uv publish dist/*', 'uv publish', 'uv build'],
  ['uv run twine upload dist/*', 'twine upload', 'uv run twine check dist/*'],
  ['python3 -m twine upload dist/*', 'twine upload', 'python -m twine check dist/*'],
  ['hatch publish', 'hatch publish', 'hatch build'],
  ['flit publish', 'flit publish', 'flit build'],
  ['pdm publish', 'pdm publish', 'pdm build'],
  ['goreleaser release --clean', 'goreleaser release', 'goreleaser release --snapshot --clean'],
  ['goreleaser publish', 'goreleaser publish', 'goreleaser release --skip=validate,publish'],
  ['goreleaser release', 'goreleaser release', 'goreleaser release --skip-publish'],
  ['docker --context prod push acme/app', 'docker push', 'docker --context prod pull acme/app'],
  ['docker image push acme/app', 'docker image push', 'docker image ls'],
  ['docker manifest push acme/app:1', 'docker manifest push', 'docker manifest inspect acme/app:1'],
  ['docker buildx build --push -t acme/app .', 'docker buildx build --push', 'docker buildx build --load -t acme/app .'],
  ['docker buildx build -o type=registry -t acme/app .', 'docker buildx build --push', 'docker buildx build -o type=docker -t acme/app .'],
  ['docker buildx build --output=type=registry -t acme/app .', 'docker buildx build --push', 'docker buildx build --output=type=local,dest=out .'],
  ['docker buildx bake --push', 'docker buildx bake --push', 'docker buildx bake'],
  ['docker compose push', 'docker compose push', 'docker compose build'],
  ['buildah push quay.io/acme/app', 'buildah push', 'buildah images'],
  ['podman manifest push quay.io/acme/app', 'podman manifest push', 'podman manifest inspect quay.io/acme/app'],
  ['crane push image.tar acme/app', 'crane push', 'crane digest acme/app'],
  ['helm push app-1.2.0.tgz oci://ghcr.io/acme/charts', 'helm push', 'helm package ./chart'],
  ['gh -R o/r release create v1.2.0', 'gh release create', 'gh -R o/r release view v1.2.0'],
  ['gh release upload v1 dist/app.tgz', 'gh release upload', 'gh release download v1'],
  ['gh release delete v1 -y', 'gh release delete', 'gh release list'],
  ['gh workflow run deploy.yml', 'gh workflow run deploy.yml', 'gh workflow run ci.yml'],
  ['gh workflow run .github/workflows/Release.YAML', 'gh workflow run .github/workflows/Release.YAML', 'gh workflow view release.yml'],
  ['gh workflow run -f version=1 "Deploy to production"', 'gh workflow run Deploy to production', 'gh workflow run "Nightly tests"'],
  ['gh pr merge 123 --admin', 'gh pr merge --admin', 'gh pr merge 123 --squash'],
  ['mvn -P release clean deploy', 'mvn deploy', 'mvn clean install'],
  ['./mvnw deploy', 'mvn deploy', './mvnw verify'],
  ['./gradlew publish', 'gradle publish', './gradlew publishToMavenLocal'],
  ['./gradlew :lib:publishToMavenCentral', 'gradle publishToMavenCentral', './gradlew build -x publish'],
  ['gradle publishPlugins', 'gradle publishPlugins', 'gradle publish --dry-run'],
  ['./gradlew publishAllPublicationsToSonatypeRepository', 'gradle publishAllPublicationsToSonatypeRepository', './gradlew assemble'],
  ['dotnet nuget push app.nupkg', 'dotnet nuget push', 'dotnet pack'],
  ['nuget push app.nupkg', 'nuget push', 'nuget restore'],
  ['firebase deploy --only hosting', 'firebase deploy', 'firebase emulators:start'],
  ['npx firebase-tools deploy', 'firebase deploy', 'npx firebase-tools emulators:start'],
  ['vercel --prod', 'vercel --prod', 'vercel'],
  ['vercel deploy --prod', 'vercel --prod', 'vercel build --prod'],
  ['netlify deploy --prod', 'netlify deploy --prod', 'netlify deploy --dir dist'],
  ['fly deploy', 'fly deploy', 'fly status'],
  ['flyctl deploy --remote-only', 'flyctl deploy', 'flyctl logs'],
  ['wrangler deploy', 'wrangler deploy', 'wrangler deploy --dry-run'],
  ['npx wrangler publish', 'wrangler publish', 'npx wrangler dev'],
  ['serverless deploy --stage prod', 'serverless deploy', 'serverless package'],
  ['sls deploy', 'sls deploy', 'sls info'],
  ['cdk deploy', 'cdk deploy', 'cdk diff'],
  ['gcloud app deploy', 'gcloud app deploy', 'gcloud app browse'],
  ['gcloud run deploy api --image x', 'gcloud run deploy', 'gcloud run services list'],
];

const INFRA: Array<[string, string, string]> = [
  ['terraform destroy', 'terraform destroy', 'terraform plan'],
  ['terraform apply -destroy', 'terraform apply -destroy', 'terraform plan -destroy'],
  ['tofu apply --destroy', 'tofu apply -destroy', 'tofu plan -destroy=false'],
  ['terragrunt run-all destroy', 'terragrunt destroy', 'terragrunt run-all plan'],
  ['pulumi destroy --yes', 'pulumi destroy', 'pulumi preview'],
  ['pulumi stack rm dev', 'pulumi stack rm', 'pulumi stack ls'],
  ['kubectl delete namespace production', 'kubectl delete namespace', 'kubectl get namespace production'],
  ['kubectl -n prod delete ns staging', 'kubectl delete namespace', 'kubectl -n prod delete pod web-1'],
  ['kubectl delete pods --all', 'kubectl delete --all', 'kubectl delete pod web-1'],
  ['kubectl delete pods -A -l app=x', 'kubectl delete --all-namespaces', 'kubectl get pods -A'],
  ['kubectl delete all -l app=web', 'kubectl delete all', 'kubectl get all'],
  ['helm uninstall app -n prod', 'helm uninstall', 'helm status app -n prod'],
  ['helm del app', 'helm del', 'helm list'],
  ['aws s3 rb s3://b --force', 'aws s3 rb', 'aws s3 ls s3://b'],
  ['aws s3 rm s3://b --recursive', 'aws s3 rm --recursive', 'aws s3 rm s3://b/one.txt'],
  ['aws --profile prod rds delete-db-instance --db-instance-identifier db', 'aws rds delete-db-instance', 'aws --profile prod rds describe-db-instances'],
  ['aws ec2 terminate-instances --instance-ids i-1', 'aws ec2 terminate-instances', 'aws ec2 describe-instances'],
  ['gcloud sql instances delete prod-db', 'gcloud sql instances delete', 'gcloud sql instances describe prod-db'],
  ['gcloud storage rm -r gs://b', 'gcloud storage rm -r', 'gcloud storage rm gs://b/one.txt'],
  ['gsutil -m rm -r gs://b', 'gsutil rm -r', 'gsutil ls gs://b'],
  ['gsutil rb gs://b', 'gsutil rb', 'gsutil du -s gs://b'],
  ['az group delete -n prod-rg --yes', 'az group delete', 'az group list'],
  ['psql -c "DROP DATABASE prod"', 'psql DROP DATABASE', 'psql -c "select 1"'],
  ['psql <<< "drop schema public cascade"', 'psql DROP SCHEMA', 'psql <<< "select count(*) from users"'],
  ['mysql -e"DROP DATABASE shop"', 'mysql DROP DATABASE', 'mysql -e "show databases"'],
  ['mongosh --eval "db.dropDatabase()"', 'mongosh dropDatabase()', 'mongosh --eval "db.stats()"'],
  ['docker exec pg psql -U postgres -c "DROP DATABASE app"', 'psql DROP DATABASE', "docker exec pg psql -U postgres -c 'select 1'"],
  ['dropdb app_test', 'dropdb', 'createdb app_test'],
  ['redis-cli -h cache FLUSHALL', 'redis-cli FLUSHALL', 'redis-cli -h cache PING'],
  ['cdk destroy', 'cdk destroy', 'cdk synth'],
  ['redis-cli -n 2 flushdb', 'redis-cli FLUSHDB', 'redis-cli -n 2 dbsize'],
  ['redis-cli <<< FLUSHDB', 'redis-cli FLUSHDB', 'redis-cli <<< PING'],
  ["psql <<'SQL'\nDROP DATABASE app;\nSQL", 'psql DROP DATABASE', "psql <<'SQL'\nselect 1;\nSQL"],
  // docker data volumes
  ['docker volume rm pgdata', 'docker volume rm', 'docker volume inspect pgdata'],
  ['docker volume prune -f', 'docker volume prune', 'docker volume ls'],
  ['docker system prune -a --volumes', 'docker system prune --volumes', 'docker system prune -a'],
  ['docker compose down -v', 'docker compose down --volumes', 'docker compose down'],
  ['docker compose -f dc.yml down --volumes --remove-orphans', 'docker compose down --volumes', 'docker compose -f dc.yml down --remove-orphans'],
  ['docker-compose down -v', 'docker-compose down --volumes', 'docker-compose down'],
  // framework database drops and resets, also through runners
  ['rails db:drop', 'rails db:drop', 'rails db:migrate'],
  ['bin/rails db:reset', 'rails db:reset', 'bin/rails db:prepare'],
  ['bundle exec rake db:drop', 'rake db:drop', 'bundle exec rake db:migrate'],
  ['docker compose exec web bin/rails db:drop', 'rails db:drop', 'docker compose exec web bundle exec rails db:migrate'],
  ['npx prisma migrate reset', 'prisma migrate reset', 'npx prisma migrate dev'],
  ['pnpm dlx prisma migrate reset --force', 'prisma migrate reset', 'pnpm dlx prisma generate'],
  ['prisma db push --force-reset', 'prisma db push --force-reset', 'prisma db push'],
  ['python manage.py flush --noinput', 'manage.py flush', 'python manage.py migrate'],
  ['uv run python -m django flush', 'django-admin flush', 'uv run python -m django check'],
  ['supabase db reset', 'supabase db reset', 'supabase db push'],
  ['npx sequelize db:drop', 'sequelize db:drop', 'npx sequelize db:migrate'],
  ['knex migrate:rollback --all', 'knex migrate:rollback --all', 'knex migrate:rollback'],
  ['php artisan migrate:fresh --seed', 'artisan migrate:fresh', 'php artisan migrate'],
  ['mix ecto.reset', 'mix ecto.reset', 'mix ecto.migrate'],
  // GitHub
  ['gh repo delete acme/app --yes', 'gh repo delete', 'gh repo view acme/app'],
  ['gh api -X DELETE repos/acme/app', 'gh api -X DELETE', 'gh api repos/acme/app'],
  ['gh api --method=DELETE repos/acme/app/git/refs/heads/feat-old', 'gh api -X DELETE', 'gh api --method GET repos/acme/app/git/refs/heads/main'],
];

async function verdict(command: string, p: Policy = familiesOnly) {
  return evaluateCommand(command, p, ctx());
}

describe('the publish family', () => {
  for (const [danger, rule, neighbour] of PUBLISH) {
    test(`${danger}  |  ${neighbour}`, async () => {
      const v = await verdict(danger);
      assert.equal(v.decision, 'deny', danger);
      assert.equal(v.rule, `families.publish: ${rule}`);
      assert.match(v.reason ?? '', /axme safety set families\.publish ask/);
      const n = await verdict(neighbour);
      assert.equal(n.decision, 'allow', `${neighbour} -> ${n.rule} ${n.reason}`);
    });
  }
});

describe('the infra family', () => {
  for (const [danger, rule, neighbour] of INFRA) {
    test(`${danger}  |  ${neighbour}`, async () => {
      const v = await verdict(danger);
      assert.equal(v.decision, 'ask', danger);
      assert.equal(v.rule, `families.infra: ${rule}`);
      const n = await verdict(neighbour);
      assert.equal(n.decision, 'allow', `${neighbour} -> ${n.rule} ${n.reason}`);
    });
  }
});

describe('the publish and infra families follow the policy', () => {
  test('families.publish: off lets cargo publish through', async () => {
    assert.equal((await verdict('cargo publish')).decision, 'deny');
    assert.equal((await verdict('cargo publish', policy({ families: { publish: 'off' } }))).decision, 'allow');
  });

  test('families.publish: ask asks', async () => {
    const v = await verdict('cargo publish', policy({ families: { publish: 'ask' } }));
    assert.equal(v.decision, 'ask');
    assert.equal(v.rule, 'families.publish: cargo publish');
  });

  test('families.infra: deny turns terraform destroy into a deny', async () => {
    const v = await verdict('terraform destroy -auto-approve', policy({ families: { infra: 'deny' } }));
    assert.equal(v.decision, 'deny');
    assert.equal(v.rule, 'families.infra: terraform destroy');
    assert.equal((await verdict('terraform destroy', policy({ families: { infra: 'off' } }))).decision, 'allow');
  });

  test('a custom github.deployWorkflows list is honoured', async () => {
    const p = policy({ deployWorkflows: ['ship-*'], deniedPrefixes: [] });
    assert.equal((await verdict('gh workflow run ship-it.yml', p)).decision, 'deny');
    assert.equal((await verdict('gh workflow run SHIP-IT', p)).decision, 'deny');
    assert.equal((await verdict('gh workflow run deploy.yml', p)).decision, 'allow');
  });

  test('bash.allowedPrefixes exempts a command from the families', async () => {
    const p = policy({ allowedPrefixes: ['cargo publish', 'terraform destroy -target=module.sandbox'] });
    assert.equal((await verdict('cargo publish', p)).decision, 'allow');
    assert.equal((await verdict('cargo publish --allow-dirty', p)).decision, 'allow');
    assert.equal((await verdict('terraform destroy -target=module.sandbox', p)).decision, 'allow');
    assert.equal((await verdict('terraform destroy', p)).decision, 'ask');
    assert.equal((await verdict('npm publish', p)).decision, 'deny');
  });
});
