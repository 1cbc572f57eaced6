/**
 * GitHub's REST and GraphQL API used to do what the guard forbids git and `gh`'s verbs to do
 * (src/safety/github-api.ts reads the call, github-api-rules.ts judges it): a commit on a
 * protected branch without git, its ref moved, forced, deleted or renamed, its protection removed,
 * a pull request merged at once, a deploy workflow or deployment started, a release changed, the
 * repository made public — through `gh api`, `hub api` or `curl` alike: the endpoint decides.
 * Every row pairs an everyday call that must pass with a dangerous neighbour. The context is
 * context.ts's: the project /home/u/proj on branch main, home /home/u.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_RULES, type RulesData } from '../../src/model/safety-defaults.ts';
import { evaluateCommand } from '../../src/safety/evaluate.ts';
import { type Policy, policyFromRules } from '../../src/safety/policy.ts';
import { decide, safetyContext, testAsks, testHoles } from './context.ts';

const COMMIT = "-f message=x -f content='eA=='";
const mutation = (body: string) => `gh api graphql -f query='mutation { ${body} { clientMutationId } }'`;

testHoles({
  // PUT/DELETE contents/<path> is a commit; without `branch` it lands on the default branch
  'a commit through the contents endpoint is a push to the branch it names': [
    [`gh api -X PUT repos/o/r/contents/src/a.ts ${COMMIT} -f branch=feature`, `gh api -X PUT repos/o/r/contents/src/a.ts ${COMMIT} -f branch=main`],
    [`gh api repos/o/r/contents/x -X PUT ${COMMIT} -f branch=feature`, `gh api repos/o/r/contents/x -X PUT ${COMMIT}`],
    ['gh api repos/o/r/contents/src/a.ts', `gh api -XPUT /repos/{owner}/{repo}/contents/README.md ${COMMIT}`],
    ['gh api repos/o/r/contents/x?ref=main', `gh api --method=PUT 'repos/o/r/contents/a.ts?x=1' --raw-field=branch=main -f message=x`],
    [`gh api -X PUT repos/o/r/contents/x ${COMMIT} --field branch=feature`, `gh api -X PUT repos/o/r/contents/x ${COMMIT} --field branch=refs/heads/main`],
    [
      `gh api -X PUT repos/o/r/contents/a.ts --input - <<< '{"message":"m","content":"eA==","branch":"feature"}'`,
      `gh api -X PUT repos/o/r/contents/a.ts --input - <<< '{"message":"m","content":"eA==","branch":"main"}'`,
    ],
    // a body the command line does not show may name any branch
    [
      `echo '{"message":"m","content":"eA==","branch":"feature"}' | gh api -X PUT repos/o/r/contents/a.ts --input -`,
      'gh api -X PUT repos/o/r/contents/a.ts --input body.json',
    ],
    ['gh api --paginate repos/o/r/commits', 'gh api -X DELETE repos/o/r/contents/a.ts -f message=x -f sha=abc'],
  ],
  'a merge through the merges endpoint is a push to its base': [
    ['gh api -X POST repos/o/r/merges -f base=feature -f head=main', 'gh api -X POST repos/o/r/merges -f base=main -f head=feature'],
    ['gh api -X POST repos/o/r/pulls -f head=feature -f base=main -f title=x', 'gh api repos/o/r/merges -f base=main -f head=feature'],
  ],
  'a ref of a protected branch moved, forced, created, deleted or renamed through the API': [
    ['gh api -X PATCH repos/o/r/git/refs/heads/feature -f sha=abc', 'gh api -X PATCH repos/o/r/git/refs/heads/main -F force=true -f sha=abc'],
    ['gh api repos/o/r/git/refs/heads/main', 'gh api -X PATCH repos/o/r/git/refs/heads/main -f sha=abc'],
    ['gh api -X POST repos/o/r/git/refs -f ref=refs/heads/feature -f sha=abc', 'gh api -X POST repos/o/r/git/refs -f ref=refs/heads/main -f sha=abc'],
    ['gh api repos/o/r/git/ref/heads/main', 'gh api -X DELETE repos/o/r/git/refs/heads/main'],
    ['gh api --method GET repos/o/r/git/refs/heads/main', 'gh api --method=DELETE /repos/o/r/git/refs/heads/main'],
    ['gh api -X POST repos/o/r/branches/feature/rename -f new_name=feature-2', 'gh api -X POST repos/o/r/branches/main/rename -f new_name=trunk'],
  ],
  // git push --force is denied for any branch (git.allowForcePush)
  'a forced ref update through the API is a force push': [
    ['gh api -X PATCH repos/o/r/git/refs/heads/feature -F force=false -f sha=abc', 'gh api -X PATCH repos/o/r/git/refs/heads/feature -F force=true -f sha=abc'],
  ],
  "removing a protected branch's protection gets around P2": [
    ['gh api repos/o/r/branches/main/protection', 'gh api -X DELETE repos/o/r/branches/main/protection'],
    ['gh api -X POST repos/o/r/branches/main/protection/enforce_admins', 'gh api -X DELETE repos/o/r/branches/main/protection/enforce_admins'],
    ['gh api repos/o/r/branches/main/protection/required_status_checks', 'gh api -X PUT repos/o/r/branches/main/protection --input protection.json'],
    ['gh api repos/o/r/rulesets', 'gh api -X DELETE repos/o/r/rulesets/42'],
  ],
  // `gh pr merge` waits for the checks; the endpoint merges at once, as `gh pr merge --admin`
  'a pull request merged through the API is `gh pr merge --admin`': [
    ['gh api -X PATCH repos/o/r/pulls/12 -f title=x', 'gh api -X PUT repos/o/r/pulls/12/merge'],
    ['gh api -X PUT repos/o/r/pulls/12/update-branch', 'gh api repos/o/r/pulls/12/merge -X PUT -f merge_method=squash'],
    ['gh api repos/o/r/pulls/12/merge', 'hub api -X PUT repos/o/r/pulls/12/merge'],
  ],
  'a deploy workflow, deployment or release started through the API': [
    [
      'gh api -X POST repos/o/r/actions/workflows/ci.yml/dispatches -f ref=main',
      'gh api -X POST repos/o/r/actions/workflows/deploy.yml/dispatches -f ref=main',
    ],
    [
      'gh api -X POST repos/o/r/actions/workflows/deploy-staging.yml/dispatches -f ref=main',
      'gh api repos/o/r/actions/workflows/release.yml/dispatches -f ref=main',
    ],
    ['gh api repos/o/r/actions/workflows/deploy.yml/runs', 'gh api -X POST repos/o/r/dispatches -f event_type=deploy'],
    ['gh api -X POST repos/o/r/dispatches -f event_type=run-tests', 'gh api -X POST repos/o/r/deployments -f ref=main'],
    ['gh api -X POST repos/o/r/deployments -f ref=main -f environment=staging', 'gh api -X POST repos/o/r/deployments -f ref=main -f environment=production'],
    ['gh api repos/o/r/releases', 'gh api -X POST repos/o/r/releases -f tag_name=v1'],
    ['gh api -X POST repos/o/r/releases/generate-notes -f tag_name=v1', 'gh api -X PATCH repos/o/r/releases/7 -F draft=false'],
  ],
  'a tag created through the API is a tag push': [['gh api repos/o/r/git/refs/tags/v1', 'gh api -X POST repos/o/r/git/refs -f ref=refs/tags/v1 -f sha=abc']],
  'a repository made public publishes its code and history': [
    ['gh api -X PATCH repos/o/r -f description=x', 'gh api -X PATCH repos/o/r -f visibility=public'],
    ['gh api -X PATCH repos/o/r -f visibility=private', 'gh api -X PATCH repos/o/r -F private=false'],
    ['gh repo edit --homepage https://acme.example', 'gh repo edit --visibility public'],
    ['gh repo edit --description x', 'gh repo edit acme/app --visibility=public'],
    ['gh repo create x --private --source . --push', 'gh repo create x --public --source . --push'],
    ['gh repo create x --public', 'gh repo create acme/x --public --source=. --remote=origin --push'],
  ],
  'GraphQL mutations that do what git may not': [
    [
      'gh api graphql -f query=\'query { repository(owner:"o", name:"r") { ref(qualifiedName:"refs/heads/main") { name } } }\'',
      mutation('mergePullRequest(input:{pullRequestId:"x"})'),
    ],
    [mutation('enablePullRequestAutoMerge(input:{pullRequestId:"x"})'), mutation('m: mergePullRequest(input:{pullRequestId:"x"})')],
    [
      mutation('addComment(input:{subjectId:"x", body:"y"})'),
      mutation('createCommitOnBranch(input:{branch:{branchName:"main"}, message:{headline:"x"}, expectedHeadOid:"y"})'),
    ],
    [
      "gh api graphql -f query='mutation($b: String!) { createCommitOnBranch(input:{branch:{branchName:$b}}) { commit { oid } } }' -f b=feature",
      "gh api graphql -f query='mutation($b: String!) { createCommitOnBranch(input:{branch:{branchName:$b}}) { commit { oid } } }' -f b=main",
    ],
    [
      "gh api graphql -f query='mutation($input: CreateCommitOnBranchInput!) { createCommitOnBranch(input: $input) { commit { oid } } }' -F 'input[branch][branchName]=feature'",
      "gh api graphql -f query='mutation($input: CreateCommitOnBranchInput!) { createCommitOnBranch(input: $input) { commit { oid } } }' -F 'input[branch][branchName]=main'",
    ],
    [
      mutation('createRef(input:{repositoryId:"x", name:"refs/heads/feature", oid:"y"})'),
      mutation('createRef(input:{repositoryId:"x", name:"refs/heads/main", oid:"y"})'),
    ],
    [
      mutation('mergeBranch(input:{repositoryId:"x", base:"feature", head:"main"})'),
      mutation('mergeBranch(input:{repositoryId:"x", base:"main", head:"feature"})'),
    ],
    // a ref named by its node ID may be a protected branch's
    ["gh api graphql -f query='query { viewer { login } }'", mutation('updateRef(input:{refId:"x", oid:"y", force:true})')],
    ["gh api graphql -f query='{ viewer { login } }'", mutation('deleteRef(input:{refId:"x"})')],
    [mutation('updatePullRequest(input:{pullRequestId:"x", title:"y"})'), mutation('deleteBranchProtectionRule(input:{branchProtectionRuleId:"x"})')],
    // a document the shell builds is read as written: its mutations by name, its arguments as unknown
    [
      `gh api graphql -f query="$(cat <<'EOF'\nmutation {\n  addComment(input: {subjectId: \"x\", body: \"y\"}) { clientMutationId }\n}\nEOF\n)"`,
      `gh api graphql -f query="$(cat <<'EOF'\nmutation {\n  mergePullRequest(input: {pullRequestId: \"x\"}) { clientMutationId }\n}\nEOF\n)"`,
    ],
    [
      'gh api graphql -f query="mutation { addComment(input:{subjectId:\\"x\\", body:\\"$MSG\\"}) { clientMutationId } }"',
      'gh api graphql -f query="mutation { createCommitOnBranch(input:{branch:{branchName:\\"$B\\"}}) { commit { oid } } }"',
    ],
  ],
  // pflag's `-X=PUT`, a ref's `%2F`, a branch only the shell knows
  'other spellings of the same calls': [
    ['gh api -X=GET repos/o/r/pulls/1/merge', 'gh api -X=PUT repos/o/r/pulls/1/merge'],
    ['gh api repos/o/r/git/refs/heads%2Fmain', 'gh api -X DELETE repos/o/r/git/refs/heads%2Fmain'],
    [`gh api -X PUT repos/o/r/contents/x ${COMMIT} -f branch="feature-$N"`, `gh api -X PUT repos/o/r/contents/x ${COMMIT} -f branch="$B"`],
  ],
  // the endpoint decides, whatever sends it
  'the same calls sent by curl': [
    [
      'curl -s https://api.github.com/repos/o/r | jq .stargazers_count',
      `curl -X PUT -H "Authorization: token $T" https://api.github.com/repos/o/r/contents/a.ts -d '{"message":"x","content":"eA=="}'`,
    ],
    ['curl -X POST https://api.github.com/repos/o/r/issues -d \'{"title":"x"}\'', 'curl -X PUT https://api.github.com/repos/o/r/pulls/12/merge'],
    ['curl -sS https://api.github.com/repos/o/r/git/refs/heads/main', 'curl -X DELETE https://api.github.com/repos/o/r/git/refs/heads/main'],
    [
      'curl -X PATCH https://api.github.com/repos/o/r -d \'{"description":"x"}\'',
      'curl --request PATCH api.github.com/repos/o/r --data \'{"visibility":"public"}\'',
    ],
    [
      'curl -d \'{"query":"query { viewer { login } }"}\' https://api.github.com/graphql',
      'curl -d \'{"query":"mutation { mergePullRequest(input:{pullRequestId:\\"x\\"}) { clientMutationId } }"}\' https://api.github.com/graphql',
    ],
    [
      'curl -X PUT https://ghe.example.com/api/v3/repos/o/r/contents/a.ts -d \'{"message":"x","content":"eA==","branch":"feature"}\'',
      'curl -X PUT https://ghe.example.com/api/v3/repos/o/r/contents/a.ts -d \'{"message":"x","content":"eA=="}\'',
    ],
  ],
});

// the infra family keeps its ask for deleting what is not a protected branch
testAsks({
  "deleting other resources stays the infra family's ask": [
    ['gh api repos/o/r/git/refs/heads/feature', 'gh api -X DELETE repos/o/r/git/refs/heads/feature'],
    ['gh api repos/o/r/branches/feature/protection', 'gh api -X DELETE repos/o/r/branches/feature/protection'],
    [`gh api -X PUT repos/o/r/contents/a.ts ${COMMIT} -f branch=feature`, 'gh api -X DELETE repos/o/r/contents/a.ts -f message=x -f sha=abc -f branch=feature'],
  ],
});

describe('everyday GitHub API calls pass', () => {
  for (const command of [
    'gh api repos/o/r/pulls',
    'gh api user',
    'gh api -X POST repos/o/r/issues -f title=x',
    'gh api -X POST repos/o/r/pulls -f head=feature -f base=main',
    'gh api -X POST repos/o/r/issues/12/comments -f body=x',
    'gh api graphql -f query=\'query { repository(owner: "o", name: "r") { pullRequests(first: 5) { nodes { title } } } }\'',
    `gh api -X PUT repos/o/r/contents/x -f branch=feature ${COMMIT}`,
    'gh api --paginate repos/o/r/commits',
    'gh api -X PATCH repos/o/r/pulls/12 -f title=x',
    'gh api graphql -F query=@queries/prs.graphql',
    "gh api repos/o/r/pulls --jq '.[].number'",
    'hub api repos/o/r/issues',
  ])
    test(command, async () => assert.equal(await decide(command), 'allow'));
});

/** The default rules with some parts replaced. */
function policy(change: { git?: Partial<RulesData['git']>; families?: Partial<RulesData['families']>; allowedPrefixes?: string[] }): Policy {
  return policyFromRules({
    ...DEFAULT_RULES,
    git: { ...DEFAULT_RULES.git, ...change.git },
    families: { ...DEFAULT_RULES.families, ...change.families },
    bash: { ...DEFAULT_RULES.bash, allowedPrefixes: change.allowedPrefixes ?? DEFAULT_RULES.bash.allowedPrefixes },
  });
}

async function under(p: Policy, command: string): Promise<string> {
  const v = await evaluateCommand(command, p, safetyContext());
  return v.decision === 'allow' ? 'allow' : `${v.decision} [${v.rule}]`;
}

describe('bodies and documents of any shape are read, not thrown on', () => {
  const nested = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
  test('a JSON body nested past reading: a field it names is read, one it may hide is unknown', async () => {
    assert.equal(await decide(`gh api -X PUT repos/o/r/contents/a.ts --input - <<< '{"message":${nested},"branch":"feature"}'`), 'allow');
    assert.equal(await decide(`gh api -X PATCH repos/o/r --input - <<< '{"description":${nested}}'`), 'allow');
    assert.equal(await decide(`gh api -X PUT repos/o/r/contents/a.ts --input - <<< '{"message":${nested}}'`), 'deny [git.protectedBranches]');
  });
});

describe('the GitHub API rules follow the policy the git rules use', () => {
  test('git.protectedBranches names the branches: a commit on release/1 is denied once it is listed', async () => {
    const put = `gh api -X PUT repos/o/r/contents/a.ts ${COMMIT} -f branch=release/1`;
    assert.equal(await decide(put), 'allow');
    assert.equal(await under(policy({ git: { protectedBranches: ['main', 'release/*'] } }), put), 'deny [git.protectedBranches]');
  });

  test('git.allowDirectPushToMain lets a commit on main through, never a deletion', async () => {
    const direct = policy({ git: { allowDirectPushToMain: true, requirePrForMain: false } });
    assert.equal(await under(direct, `gh api -X PUT repos/o/r/contents/a.ts ${COMMIT} -f branch=main`), 'allow');
    assert.equal(await under(direct, 'gh api -X DELETE repos/o/r/git/refs/heads/main'), 'deny [git.protectedBranches]');
  });

  test('git.allowForcePush lets a forced feature ref through; a forced protected one stays the history family', async () => {
    const force = policy({ git: { allowForcePush: true } });
    assert.equal(await under(force, 'gh api -X PATCH repos/o/r/git/refs/heads/feature -F force=true -f sha=abc'), 'allow');
    const direct = policy({ git: { allowForcePush: true, allowDirectPushToMain: true, requirePrForMain: false } });
    assert.match(
      await under(direct, 'gh api -X PATCH repos/o/r/git/refs/heads/main -F force=true -f sha=abc'),
      /^deny \[families\.gitHistory: force-move main\]$/,
    );
  });

  test('families.publish: ask asks; bash.allowedPrefixes exempts the publishing calls, never a protected branch', async () => {
    assert.equal(
      await under(policy({ families: { publish: 'ask' } }), 'gh api -X PUT repos/o/r/pulls/12/merge'),
      'ask [families.publish: gh api -X PUT repos/o/r/pulls/12/merge]',
    );
    const allowed = policy({ allowedPrefixes: ['gh api'] });
    assert.equal(await under(allowed, 'gh api -X PUT repos/o/r/pulls/12/merge'), 'allow');
    assert.equal(await under(allowed, `gh api -X PUT repos/o/r/contents/a.ts ${COMMIT}`), 'deny [git.protectedBranches]');
  });
});
