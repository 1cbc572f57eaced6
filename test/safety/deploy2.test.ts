import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decide, testAsks, testHoles } from './context.ts';

/**
 * Deploys by the cloud CLIs no deploy check named, a package's owners and access changed on its
 * registry, and the side effects of GitHub's API and `gh` verbs past branches and releases:
 * [an everyday command that must pass, its dangerous neighbour]. The context is context.ts's: the
 * project /home/u/proj on main, home /home/u.
 */
testHoles({
  // publish-clouds.ts: the cloud CLIs' own verbs that roll a new version out to what serves
  'a cloud CLI rolls new code out to what runs': [
    ['aws lambda list-functions', 'aws lambda update-function-code --function-name prod --zip-file fileb://f.zip'],
    ['aws lambda invoke --function-name f out.json', 'aws --region eu-west-1 lambda update-function-code --function-name api --s3-bucket b --s3-key k'],
    ['aws lambda get-alias --function-name f --name live', 'aws lambda update-alias --function-name f --name live --function-version 7'],
    ['aws ecs describe-services --cluster prod --services api', 'aws ecs update-service --cluster prod --service api --force-new-deployment'],
    ['aws ecs list-services --cluster prod', 'aws ecs update-service --cluster prod --service api --task-definition app:5'],
    ['aws elasticbeanstalk describe-environments', 'aws elasticbeanstalk update-environment --environment-name prod --version-label v2'],
    [
      'aws elasticbeanstalk describe-environments --environment-names prod',
      'aws elasticbeanstalk swap-environment-cnames --source-environment-name a --destination-environment-name b',
    ],
    ['aws apprunner list-services', 'aws apprunner start-deployment --service-arn arn:aws:apprunner:x'],
    ['aws amplify list-apps', 'aws amplify start-deployment --app-id x --branch-name main --job-id 1'],
    ['aws lightsail get-container-services', 'aws lightsail create-container-service-deployment --service-name web --containers file://c.json'],
    ['az webapp list', 'az webapp deployment source config-zip -g rg -n app --src app.zip'],
    ['az functionapp list -g rg', 'az functionapp deployment source config-zip -g rg -n fn --src f.zip'],
    ['az webapp deployment slot list -g rg -n app', 'az webapp deployment slot swap -g rg -n app --slot staging --target-slot production'],
    ['az webapp show -g rg -n app', 'az webapp up -n app'],
    ['heroku releases -a app', 'heroku releases:rollback v12 -a app'],
    ['heroku logs --tail -a app', 'heroku rollback -a app'],
    ['vercel ls', 'vercel rollback'],
  ],
  // publish-node.ts: who may publish a package, and what its installs resolve to
  "a package's owners, access and tags changed on its registry": [
    ['npm owner ls pkg', 'npm owner add evil pkg'],
    ['npm owner list pkg', 'npm author add evil pkg'],
    ['npm access list packages', 'npm access public pkg'],
    ['npm access get status pkg', 'npm access set status=public pkg'],
    ['npm access list collaborators pkg', 'npm access grant read-write org:team pkg'],
    ['npm access set status=private pkg', 'npm access set mfa=none pkg'],
    ['npm view pkg deprecated', 'npm deprecate pkg "x"'],
    ['npm undeprecate pkg', 'npm deprecate pkg@"<2" "use 2"'],
    ['npm dist-tag ls pkg', 'npm dist-tag rm pkg beta'],
    ['npm dist-tags list pkg', 'npm dist-tag set pkg@1.2.0 latest'],
    ['npm token list', 'npm token create'],
    ['npm team ls org:devs', 'npm team add org:devs evil'],
    ['npm org ls org', 'npm org set org evil developer'],
    ['npm trust list pkg', 'npm trust github pkg --repo evil/x --file release.yml'],
    ['npm stage list', 'npm stage approve pkg@1.0.0'],
    ['pnpm owner ls pkg', 'pnpm owner add evil pkg'],
    ['pnpm dist-tag ls pkg', 'pnpm dist-tag add pkg@1.2.0 latest'],
    ['pnpm view pkg versions', 'pnpm unpublish pkg@1.0.0'],
    ['pnpm token list', 'pnpm access public pkg'],
    ['yarn owner list pkg', 'yarn owner add evil pkg'],
    ['yarn access ls-packages', 'yarn access public pkg'],
    ['yarn tag list pkg', 'yarn tag add pkg@1.2.0 latest'],
    ['yarn npm tag list pkg', 'yarn npm tag remove pkg beta'],
  ],
  // github-api-rules.ts: access granted through GitHub's API or a gh verb
  'someone given access to the repository': [
    ['gh api repos/u/proj/collaborators', 'gh api -X PUT repos/u/proj/collaborators/evil'],
    [
      'gh api repos/u/proj/collaborators/evil/permission',
      'curl -X PUT -H "Authorization: token $GITHUB_TOKEN" https://api.github.com/repos/u/proj/collaborators/evil',
    ],
    ['gh api repos/u/proj/keys', 'gh api repos/u/proj/keys -f key="ssh-ed25519 AAAA" -F read_only=false'],
    ['gh repo deploy-key list', 'gh repo deploy-key add key.pub --allow-write'],
  ],
  // github-api-rules.ts: the default branch moved off the protected one
  'the default branch changed': [
    ['gh api -X PATCH repos/u/proj -f description=x', 'gh api -X PATCH repos/u/proj -f default_branch=evil'],
    ['gh repo edit --description x', 'gh repo edit --default-branch evil'],
  ],
});

testAsks({
  // github-api-rules.ts: what an API call or a gh verb deletes, or the settings deploys read
  'a repository, an issue, a secret, a variable or a key deleted or replaced': [
    [
      'curl -H "Authorization: token $GITHUB_TOKEN" https://api.github.com/repos/u/proj',
      'curl -X DELETE -H "Authorization: token $GITHUB_TOKEN" https://api.github.com/repos/u/proj',
    ],
    ['gh issue close 5', 'gh issue delete 5 --yes'],
    ['gh api graphql -f query="{ viewer { login } }"', 'gh api graphql -f query="mutation { deleteIssue(input: {issueId: \\"I_1\\"}) { clientMutationId } }"'],
    ['gh secret list', 'gh secret delete PROD_KEY'],
    ['gh secret list --env production', 'gh secret set PROD_KEY -b x'],
    ['gh api repos/u/proj/actions/secrets', 'gh api -X PUT repos/u/proj/actions/secrets/PROD_KEY -f encrypted_value=x -f key_id=1'],
    ['gh variable list', 'gh variable set DEPLOY -b 1'],
    ['gh variable get DEPLOY', 'gh variable delete DEPLOY'],
    ['gh api repos/u/proj/actions/variables', 'gh api repos/u/proj/actions/variables -f name=DEPLOY -f value=1'],
    ['gh repo deploy-key list', 'gh repo deploy-key delete 123'],
    ['gh ssh-key add ~/.ssh/id_ed25519.pub', 'gh ssh-key delete 123 --yes'],
  ],
});

test('clearing the Actions caches and reading a secret list stay everyday', async () => {
  for (const c of ['gh cache delete --all', 'gh cache list', 'gh secret list', 'gh run delete 5', 'npm token list', 'npm access list packages']) {
    assert.equal(await decide(c), 'allow', c);
  }
});

test('a copy to a server and a command run over ssh are not read as deploys (docs: Deploying and applying)', async () => {
  for (const c of [
    'rsync -avz dist/ deploy@prod.example:/var/www/',
    'scp -r dist prod.example:/var/www',
    "ssh prod.example 'cd app && git pull && systemctl restart app'",
    'rsync -av src/ backup/',
    'scp build.log host:/tmp/',
  ]) {
    assert.equal(await decide(c), 'allow', c);
  }
});
