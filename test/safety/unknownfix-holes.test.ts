/**
 * The unknown-command rule leaves a program a family checks to that family again: reading the other
 * verbs of gcloud, az, pulumi, supabase and vercel by their words asked or denied everyday
 * sub-resource commands (`remove-iam-policy-binding`, `credential reset`, `config rm --stack dev`,
 * `pubsub topics publish`). The few destroying or publishing verbs that reading was for are each
 * named by their family's own check, and the publishing holes found beside them are closed. Every
 * dangerous row has an everyday neighbour that must pass. The context is context.ts's: the project
 * /home/u/proj on branch main, home /home/u.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decide, testAsks, testHoles } from './context.ts';

describe("a known program's sub-resource verbs are its family's to judge", () => {
  const everyday = [
    'gcloud pubsub topics publish my-topic --message=hello',
    'gcloud pubsub lite-topics publish t --location=us-central1-a --message=hi',
    'gcloud beta pubsub topics publish t --message=hi',
    'gcloud projects remove-iam-policy-binding my-proj --member=user:a@b.c --role=roles/viewer',
    'gcloud iam service-accounts remove-iam-policy-binding sa@p.iam.gserviceaccount.com --member=user:a@b.c --role=r',
    'gcloud storage buckets remove-iam-policy-binding gs://b --member=user:a@b.c --role=r',
    'gcloud compute instances remove-metadata my-vm --keys=startup-script',
    'gcloud compute instances remove-tags my-vm --tags=http --zone us-central1-a',
    'gcloud compute disks remove-labels d --labels=env --zone us-central1-a',
    'gcloud sql instances reset-ssl-config db1',
    'gcloud sql instances promote-replica r',
    'gcloud dns record-sets transaction remove --zone z',
    'az ad app credential reset --id x',
    'az ad group member remove --group g --member-id x',
    'az vm user reset-ssh --resource-group rg -n vm',
    'az storage account network-rule remove --account-name a --ip-address 1.2.3.4',
    'pulumi config rm key --stack dev',
    'pulumi stack tag rm env',
    'pulumi state unprotect urn:x --stack dev',
    'supabase functions delete hello --project-ref abcdefghijkl',
    'supabase domains delete --project-ref abcdefghijkl',
    'vercel redeploy https://app-git-feat-x.vercel.app',
  ];
  for (const command of everyday) {
    test(`${command}  passes`, async () => {
      assert.equal(await decide(command), 'allow', command);
    });
  }
});

/** [an everyday command, a neighbour a person is asked about] of the infra family (asked by default). */
const ASKED: ReadonlyArray<readonly [string, string]> = [
  ['terraform workspace select prod', 'terraform -chdir=infra workspace delete -force feat'],
  ['terragrunt run-all plan', 'terragrunt destroy-all'],
  ['supabase functions delete hello --project-ref abcdefghijkl', 'supabase projects delete abcdefghijkl'],
  ['pulumi stack tag rm env', 'pulumi stack rm dev --force'],
  ['az storage blob upload-batch --account-name acme -d site -s dist', 'az storage blob delete-batch --account-name acme -s site'],
];

testAsks({ 'the destroying verbs the reading was for are named by the infra check': ASKED });

testHoles({
  // what the general reading denied on purpose, now each named by the publish check of its program
  'the publishing verbs the reading was for are named by the publish check': [
    ['vercel redeploy https://app-git-feat-x.vercel.app', 'vercel promote https://app-x1.vercel.app'],
    ['vercel redeploy https://app-git-feat-x.vercel.app --target preview', 'vercel redeploy https://app-x1.vercel.app --target production'],
    ['vercel rolling-release fetch', 'vercel rolling-release start --dpl https://app-x1.vercel.app'],
    ['vercel rolling-release abort', 'vercel rolling-release approve --dpl https://app-x1.vercel.app'],
    ['fly secrets set --stage KEY=v', 'fly secrets deploy'],
    ['wrangler triggers list', 'wrangler triggers deploy'],
    ['gcloud deploy releases list --delivery-pipeline=p', 'gcloud deploy releases promote --release=r1 --delivery-pipeline=p'],
    ['gcloud ai endpoints list --region=us-central1', 'gcloud ai endpoints deploy-model 123 --model=456 --region=us-central1'],
    ['eas deploy', 'eas deploy --prod'],
    ['sbt test', 'sbt release'],
    ['maturin build --release', 'maturin publish'],
    ['uvx maturin develop', 'uvx maturin publish'],
  ],
  // P3: PyPI through rye, an over-the-air channel pointed at production users, sbt and mix tasks in one word or chain
  'publishing beside the reading': [
    ['rye run pytest', 'rye publish'],
    ['rye build', 'rye publish --yes dist/*'],
    ['eas channel:list', 'eas channel:edit production --branch release-1'],
    ['eas channel:edit preview --branch release-1', 'eas channel:rollout production --percent 50'],
    ['eas update --branch preview', 'eas update:roll-back-to-embedded --branch production'],
    ['eas update:roll-back-to-embedded --branch staging', 'npx eas-cli channel:rollout production --percent 10'],
    ['sbt test', 'sbt "release with-defaults"'],
    ['sbt "testOnly acme.ReleaseSpec"', 'sbt "release cross"'],
    ['mix do deps.get, compile', 'mix do compile, hex.publish'],
    ['mix do deps.get + compile', 'mix do hex.publish'],
    ['mix do compile, hex.publish --dry-run', 'mix do compile + hex.publish --yes'],
  ],
  // gcloud's deploys of the groups the family knows, wherever the verb stands
  'gcloud rolls a new version out to a live service': [
    ['gcloud run services list', 'gcloud run jobs deploy j --image us-docker.pkg.dev/p/r/i'],
    ['gcloud run services describe x', 'gcloud run services replace service.yaml'],
    ['gcloud run jobs execute j', 'gcloud beta run jobs deploy j --source .'],
    ['gcloud endpoints services list', 'gcloud endpoints services deploy openapi.yaml'],
  ],
});
