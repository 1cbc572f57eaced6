import { listed } from './bash-rules.ts';
import type { Invocation } from './command.ts';
import { UNKNOWN } from './expand.ts';
import { familyFinding } from './families/index.ts';
import { isDeployWorkflow, onlyNonProduction } from './families/publish-deploy.ts';
import { readGhVerb } from './gh-verb-calls.ts';
import type { Finding } from './git-rules.ts';
import { fieldValues, type GithubApiCall, ghRepoVisibility, readGithubApi } from './github-api.ts';
import { matchesName, starGlob } from './patterns.ts';
import type { Policy } from './policy.ts';

/**
 * What a call to GitHub's API does that the git rules forbid git to do (docs/safety.md, P2 and
 * P3), judged on the call as github-api.ts reads it whatever sends it: a commit on a protected
 * branch without git (`PUT contents/…`, `POST merges`, `createCommitOnBranch`), moving, forcing,
 * deleting or renaming a protected branch's ref, loosening its protection, merging a pull request
 * at once (`gh pr merge --admin`), starting a deploy workflow or a deployment, changing releases,
 * making the repository public. The infra family keeps its ask for deleting other resources.
 */

/** The branch a contents write lands on when it names none: the default one, which the guard takes as protected. */
const DEFAULT_BRANCH = '\uE001default';

type BranchChangeKind = 'write' | 'force' | 'delete' | 'protection' | 'tag';

/** One thing a call does to a branch (or a tag): `branch` may be DEFAULT_BRANCH or hold UNKNOWN. */
interface BranchChange {
  kind: BranchChangeKind;
  branch: string;
  /** what the call is, for the message: `gh api -X PUT repos/o/r/contents/a.ts` */
  what: string;
}

const NONE: readonly Finding[] = [];

/**
 * The findings for one command: its GitHub API call, or the `gh repo` verbs that make a
 * repository public. `exempt` says whether `bash.allowedPrefixes` matches it (asked only for such
 * a command): the families and lists are then off for it, protected branches and force never.
 */
export function checkGithubApi(inv: Invocation, policy: Policy, exempt: () => boolean): readonly Finding[] {
  if (inv.program !== 'gh' && inv.program !== 'hub' && inv.program !== 'curl') return NONE;
  const visibility = ghRepoVisibility(inv);
  const call = visibility ? null : (readGithubApi(inv) ?? readGhVerb(inv));
  if (!visibility && !call) return NONE;
  const isExempt = exempt();
  const publish = !isExempt && policy.families.publish !== 'off';
  const infra = !isExempt && policy.families.infra !== 'off';
  if (visibility) {
    if (!publish) return NONE;
    const rule = visibility === 'edit' ? 'gh repo edit --visibility public' : 'gh repo create --public --push';
    const does = visibility === 'edit' ? 'makes the repository public' : 'creates a public repository and pushes this one into it';
    return [familyFinding('publish', { rule, reason: `\`${rule}\` ${does}: its code and whole history are then published to anyone` }, policy)];
  }
  const out: Finding[] = [];
  for (const change of branchChanges(call!)) judgeChange(change, policy, isExempt, out);
  defaultBranchChange(call!, policy, out);
  if (publish) for (const hit of [...publishHits(call!, policy), ...accessGrants(call!), ...webhooks(call!)]) out.push(familyFinding('publish', hit, policy));
  if (infra) for (const hit of deletesAndSettings(call!)) out.push(familyFinding('infra', hit, policy));
  return out;
}

/** The endpoint after `repos/<owner>/<repo>/`, or null when the call is not about one repository. */
function repoEndpoint(call: GithubApiCall): string[] | null {
  return call.path[0] === 'repos' && call.path.length >= 3 ? call.path.slice(3) : null;
}

/** How the messages name a call: `gh api -X PUT repos/o/r/contents/a.ts`, `curl -X PUT …/repos/o/r/pulls/1/merge`, `gh api graphql createCommitOnBranch`. */
function named(call: GithubApiCall, mutation?: string): string {
  if (call.command) return call.command;
  const via = call.via === 'curl' ? 'curl …/' : `${call.via} `;
  return mutation ? `${via}graphql ${mutation}` : `${call.via} -X ${call.method} ${call.via === 'curl' ? '…/' : ''}${call.path.join('/')}`;
}

/** `refs/heads/main`, `heads/main` -> `main`; null for a tag or another kind of ref. */
function headsBranch(ref: string): string | null {
  if (ref.includes(UNKNOWN)) return ref;
  const m = /^(?:refs\/)?heads\/(.+)$/.exec(ref);
  return m ? m[1]! : null;
}

function isTagRef(ref: string): boolean {
  return /^(?:refs\/)?tags\//.test(ref);
}

/** What a REST or GraphQL call does to branches and tags. */
function branchChanges(call: GithubApiCall): BranchChange[] {
  const out: BranchChange[] = [];
  const add = (kind: BranchChangeKind, branches: readonly string[], what: string) => {
    for (const branch of branches) out.push({ kind, branch, what });
  };
  const forced = fieldValues(call, 'force').some((v) => v === 'true' || v.includes(UNKNOWN));
  for (const m of call.mutations) {
    const what = named(call, m);
    const orUnknown = (values: string[]) => (values.length ? values : [UNKNOWN]);
    if (m === 'createCommitOnBranch') add('write', orUnknown(fieldValues(call, 'branchName')), what);
    else if (m === 'mergeBranch') add('write', orUnknown(fieldValues(call, 'base')), what);
    else if (m === 'createRef' || m === 'updateRefs')
      for (const ref of orUnknown(fieldValues(call, 'name'))) {
        if (isTagRef(ref)) add('tag', [ref], what);
        else add(forced && m === 'updateRefs' ? 'force' : 'write', [headsBranch(ref) ?? ref], what);
      }
    // a ref named by its node ID may be a protected branch's
    else if (m === 'updateRef') add(forced ? 'force' : 'write', [UNKNOWN], what);
    else if (m === 'deleteRef') add('delete', [UNKNOWN], what);
    else if (/^(?:delete|update)(?:BranchProtectionRule|RepositoryRuleset)$/.test(m)) add('protection', [UNKNOWN], what);
  }
  const rest = repoEndpoint(call);
  if (!rest) return out;
  const method = call.method;
  const what = named(call);
  const [first, second] = rest;
  if (first === 'contents' && (method === 'PUT' || method === 'DELETE')) {
    const branches = fieldValues(call, 'branch');
    add('write', branches.length ? branches : [DEFAULT_BRANCH], what);
  } else if ((first === 'merges' || first === 'merge-upstream') && method === 'POST') {
    add('write', fieldValues(call, first === 'merges' ? 'base' : 'branch'), what);
  } else if (first === 'git' && (second === 'refs' || second === 'ref')) {
    const ref = rest.slice(2).join('/');
    if (ref === '' && method === 'POST') for (const r of fieldValues(call, 'ref')) add(isTagRef(r) ? 'tag' : 'write', [headsBranch(r) ?? r], what);
    else if (isTagRef(ref) && method === 'PATCH') add('tag', [ref], what);
    else if (headsBranch(ref) !== null && method === 'PATCH') add(forced ? 'force' : 'write', [headsBranch(ref)!], what);
    else if (headsBranch(ref) !== null && method === 'DELETE') add('delete', [headsBranch(ref)!], what);
  } else if (first === 'branches' && rest.length > 2 && method !== 'GET' && method !== 'HEAD') {
    // a branch name may hold slashes (`branches/release/1.0/protection`; `%2F` is read as one)
    const at = rest.indexOf('protection', 2);
    if (at > 0 && method !== 'POST') add('protection', [rest.slice(1, at).join('/')], what);
    else if (rest.at(-1) === 'rename' && method === 'POST') {
      add('delete', [rest.slice(1, -1).join('/')], `${what} (renamed away)`);
      add('write', fieldValues(call, 'new_name'), what);
    }
  } else if (first === 'rulesets' && second !== undefined && (method === 'PUT' || method === 'DELETE')) add('protection', [UNKNOWN], what);
  return out;
}

/**
 * Whether a branch a call names is protected: the default branch may be, and so may a name the
 * shell completes (`"$B"`, `"release-$V"`) wherever its unknown part could spell a protected one.
 */
function isProtected(branch: string, policy: Policy): boolean {
  if (branch === DEFAULT_BRANCH) return true;
  const name = branch.replace(/^refs\/heads\//, '');
  if (!name.includes(UNKNOWN)) return matchesName(name, policy.protectedBranches) !== null;
  // git allows no `*` in a branch name: each one here is where the shell fills in a value
  const could = starGlob(name.replaceAll(UNKNOWN, '*'), '.*');
  return policy.protectedBranches.some((b) => could.test(b));
}

function branchWords(branch: string): string {
  if (branch === DEFAULT_BRANCH) return 'the default branch (taken as protected: name a feature branch with `-f branch=…`)';
  if (branch.includes(UNKNOWN)) return 'a branch the command line does not name (it may be a protected one: name it)';
  return `the protected branch ${branch}`;
}

/** The findings of one branch change, in the order git push gives them: protected branches, force, the history family, tags. */
function judgeChange(c: BranchChange, policy: Policy, exempt: boolean, out: Finding[]): void {
  if (c.kind === 'tag') {
    if (!exempt && listed(policy, 'git tag'))
      out.push({ rule: 'bash.deniedPrefixes: git tag', reason: `\`${c.what}\` creates or moves a tag, a release step: ask the user to tag` });
    return;
  }
  const prot = isProtected(c.branch, policy);
  const directAllowed = policy.allowDirectPushToMain && !policy.requirePrForMain;
  const where = branchWords(c.branch);
  if (prot && c.kind === 'delete')
    out.push({ rule: 'git.protectedBranches', reason: `\`${c.what}\` deletes ${where} on GitHub, as \`git push --delete\` would; that is not allowed` });
  else if (prot && c.kind === 'protection')
    out.push({
      rule: 'git.protectedBranches',
      reason: `\`${c.what}\` removes or changes the protection of ${where}, which is how pushes to it are kept out; that is the user's call`,
    });
  else if (prot && !directAllowed && (c.kind === 'write' || c.kind === 'force'))
    out.push({
      rule: 'git.protectedBranches',
      reason: `\`${c.what}\` commits to ${where} through GitHub's API, a push to it without git (git.allowDirectPushToMain=${policy.allowDirectPushToMain}, git.requirePrForMain=${policy.requirePrForMain}). Commit to a feature branch and open a pull request`,
    });
  if (c.kind !== 'force') return;
  if (!policy.allowForcePush)
    out.push({
      rule: 'git.allowForcePush',
      reason: `\`${c.what}\` force-moves a branch on GitHub, a force push that rewrites its history (git.allowForcePush=false)`,
    });
  if (prot && !exempt && policy.families.gitHistory !== 'off')
    out.push(
      familyFinding(
        'gitHistory',
        {
          rule: `force-move ${c.branch.includes(UNKNOWN) ? 'a ref' : c.branch}`,
          reason: `\`${c.what}\` force-moves ${where}, dropping the commits it pointed past`,
        },
        policy,
      ),
    );
}

/** What a call publishes or deploys (P3): a merge at once, a deploy workflow or deployment, a release, the repository made public. */
function publishHits(call: GithubApiCall, policy: Policy): Array<{ rule: string; reason: string }> {
  const out: Array<{ rule: string; reason: string }> = [];
  const mergeReason = (what: string) =>
    `\`${what}\` merges the pull request at once, past the required checks and reviews wherever the token may bypass them: what \`gh pr merge --admin\` does. Use \`gh pr merge\` (it waits for the checks) or ask the user`;
  if (call.mutations.includes('mergePullRequest')) out.push({ rule: named(call, 'mergePullRequest'), reason: mergeReason(named(call, 'mergePullRequest')) });
  if (call.mutations.includes('createDeployment') && deploysToProduction(fieldValues(call, 'environment')))
    out.push({ rule: named(call, 'createDeployment'), reason: deployReason(named(call, 'createDeployment')) });
  const rest = repoEndpoint(call);
  if (!rest || call.method === 'GET' || call.method === 'HEAD') return out;
  const what = named(call);
  const [first, second] = rest;
  if (first === 'pulls' && rest[2] === 'merge' && call.method === 'PUT') out.push({ rule: what, reason: mergeReason(what) });
  else if (first === 'actions' && second === 'workflows' && rest[3] === 'dispatches' && isDeployWorkflow(rest[2] ?? '', policy.deployWorkflows))
    out.push({
      rule: what,
      reason: `\`${what}\` starts a workflow that by its name deploys or releases (github.deployWorkflows), as \`gh workflow run ${rest[2]}\` would: what it ships cannot be called back`,
    });
  else if (first === 'dispatches' && fieldValues(call, 'event_type').some((e) => isDeployWorkflow(e, policy.deployWorkflows)))
    out.push({
      rule: what,
      reason: `\`${what}\` sends an event whose name says it deploys or releases (github.deployWorkflows) to the workflows that listen for it`,
    });
  else if (first === 'deployments' && rest.length === 1 && call.method === 'POST' && deploysToProduction(fieldValues(call, 'environment')))
    out.push({ rule: what, reason: deployReason(what) });
  else if (first === 'releases' && second !== 'generate-notes' && !rest.includes('reactions'))
    out.push({
      rule: what,
      reason: `\`${what}\` changes the project's published releases on GitHub, as \`gh release create|edit|delete|upload\` would: users, download links and package managers pick it up at once`,
    });
  else if (rest.length === 0 && call.method === 'PATCH' && makesPublic(call))
    out.push({ rule: what, reason: `\`${what}\` makes the repository public: its code and whole history are then published to anyone` });
  return out;
}

/** A deployment's environments (none: GitHub's default, production) name a production one, or one the command line does not tell. */
function deploysToProduction(environments: string[]): boolean {
  if (!environments.length) return true;
  return environments.some(
    (e) =>
      e.includes(UNKNOWN) ||
      !onlyNonProduction(
        e
          .toLowerCase()
          .split(/[^a-z0-9]+/)
          .filter(Boolean),
      ),
  );
}

function deployReason(what: string): string {
  return `\`${what}\` creates a deployment to a production environment (GitHub's default when none is named), which the deploy workflows and apps listening for it ship: what it ships cannot be called back`;
}

/** `-f visibility=public`, `-F private=false`. */
function makesPublic(call: GithubApiCall): boolean {
  return fieldValues(call, 'visibility').some((v) => v.toLowerCase() === 'public') || call.fields.get('private')?.some((v) => v === 'false') === true;
}

/**
 * `PATCH repos/o/r` with `default_branch` (`gh repo edit --default-branch`) naming a branch that
 * is not protected, or one the command line does not show: the branch clones check out and pull
 * requests merge into moves off the protected one.
 */
function defaultBranchChange(call: GithubApiCall, policy: Policy, out: Finding[]): void {
  if (call.method !== 'PATCH' || repoEndpoint(call)?.length !== 0) return;
  // a body the command line does not show is not taken to move it (as for `visibility`): only a field given
  const moved = (call.fields.get('default_branch') ?? []).find((b) => b.includes(UNKNOWN) || matchesName(b, policy.protectedBranches) === null);
  if (moved === undefined) return;
  const what = named(call);
  out.push({
    rule: 'git.protectedBranches',
    reason: `\`${what}\` makes ${moved.includes(UNKNOWN) ? 'a branch the command line does not name' : moved} the default branch in the place of the protected one: clones check it out, pull requests merge into it and deploys often follow it. That is the user's call`,
  });
}

/**
 * Someone given access (P3, as a repository made public): a collaborator (`PUT
 * repos/o/r/collaborators/<u>`), a deploy key (`POST repos/o/r/keys`, `gh repo deploy-key add`),
 * a member of the organization or of a team, a team given a repository. The user's own SSH key
 * added to the account (`gh ssh-key add ~/.ssh/id_ed25519.pub`) passes: a public key is public.
 */
function accessGrants(call: GithubApiCall): Array<{ rule: string; reason: string }> {
  const p = call.path;
  const what = named(call);
  const grant = (who: string) => [{ rule: what, reason: `\`${what}\` gives ${who}: whoever holds it may push code that others pull and deploy` }];
  if (call.method === 'PUT' && p[0] === 'repos' && p[3] === 'collaborators' && p.length === 5) return grant(`${p[4]} access to the repository`);
  if (call.method === 'POST' && p[0] === 'repos' && p[3] === 'keys' && p.length === 4)
    return grant('a key access to the repository (write access with `read_only=false`)');
  if (call.method === 'PUT' && p[0] === 'orgs' && (p[2] === 'memberships' || (p[2] === 'teams' && (p[4] === 'memberships' || p[4] === 'repos'))))
    return grant(p[4] === 'repos' ? 'a team access to the repository' : `${p.at(-1)} membership of the organization or its team`);
  return [];
}

/**
 * A webhook added, or pointed at a URL (P3, as a repository made public): `POST repos/o/r/hooks`,
 * `POST orgs/o/hooks`, `PATCH …/hooks/<id>` or `…/hooks/<id>/config` with a `url` (or a body the
 * command line does not show) — every later event of the repository or the organization, a
 * private one's pushes, pull requests and issues among them, is sent to that host. Reading,
 * pinging and redelivering a hook pass; deleting one is the infra family's ask.
 */
function webhooks(call: GithubApiCall): Array<{ rule: string; reason: string }> {
  const p = call.path;
  const at = p[0] === 'repos' ? 3 : p[0] === 'orgs' ? 2 : -1;
  if (at < 0 || p[at] !== 'hooks') return [];
  const rest = p.slice(at + 1);
  const added = call.method === 'POST' && rest.length === 0;
  const pointed =
    call.method === 'PATCH' &&
    (rest.length === 1 || (rest.length === 2 && rest[1] === 'config')) &&
    (call.opaqueBody || call.fields.has('url') || call.fields.has('config.url'));
  if (!added && !pointed) return [];
  const what = named(call);
  const whose = p[0] === 'repos' ? 'repository' : 'organization';
  return [
    {
      rule: what,
      reason: `\`${what}\` sends every later event of the ${whose} — pushes, pull requests, issues, a private one's too — to the URL the hook names, for good until someone removes it. Ask the user to add the webhook`,
    },
  ];
}

/**
 * A repository's endpoints whose DELETE takes away what the next call puts back as it was, and
 * which `gh`'s own verbs remove without a question (`gh label delete`, `gh issue edit
 * --remove-label`, `gh pr edit --remove-reviewer`, `gh cache delete`): a label, a label or an
 * assignee taken off an issue, a review request, a reaction, an Actions cache, a lock, the user's
 * watching. `*` is any one segment. A comment, an issue, a release, a ref, an environment, a
 * hook, a key, a secret or the repository itself stays asked (or denied): what it held is gone.
 */
const UNDOABLE_DELETES: readonly string[][] = [
  ['labels', '*'],
  ['issues', '*', 'labels'],
  ['issues', '*', 'labels', '*'],
  ['issues', '*', 'assignees'],
  ['issues', '*', 'lock'],
  ['pulls', '*', 'requested_reviewers'],
  ['actions', 'caches'],
  ['actions', 'caches', '*'],
  ['subscription'],
];

/**
 * Whether a DELETE is of UNDOABLE_DELETES, or of a reaction (the caller's own: GitHub deletes no
 * other's). A shape is matched from the path's end: the repository may be one variable
 * (`repos/$GITHUB_REPOSITORY/issues/$N/labels/bug`) and a `*` before the last segment any word,
 * since the literal segments after them end the URL whatever they hold; the last one is known (a
 * `labels/$L` holding `../../..` would name the repository).
 */
function undoable(call: GithubApiCall): boolean {
  const p = call.path;
  const rest = repoEndpoint(call);
  if (rest && !rest.some((s) => s.includes(UNKNOWN)) && rest.at(-2) === 'reactions' && rest.length >= 3) return true;
  if (p[0] !== 'repos' || p.at(-1)?.includes(UNKNOWN)) return false;
  return UNDOABLE_DELETES.some((shape) => {
    const head = p.length - shape.length;
    const repo = head === 3 || (head === 2 && p[1]!.includes(UNKNOWN));
    return repo && shape.every((s, k) => (s === '*' ? true : s === p[head + k]));
  });
}

/**
 * What the infra family asks about (P4): a resource deleted through the API (`DELETE` of any
 * endpoint, as `gh api -X DELETE` is; the repository itself, as `gh repo delete`; GraphQL
 * `delete…` mutations such as `deleteIssue`, `gh issue delete`), and a secret or variable set,
 * which the workflows and deploys read (`gh secret set`, `gh variable set`, `PUT
 * …/actions/secrets/<name>`): the value it replaces cannot be read back.
 */
function deletesAndSettings(call: GithubApiCall): Array<{ rule: string; reason: string }> {
  const out: Array<{ rule: string; reason: string }> = [];
  const p = call.path;
  const what = named(call);
  for (const m of call.mutations) {
    if (!/^delete[A-Z]/.test(m)) continue;
    const gone = m === 'deleteIssue' ? 'the issue and its comments' : `what \`${m}\` names`;
    out.push({ rule: named(call, m), reason: `\`${named(call, m)}\` deletes ${gone} from GitHub for good` });
  }
  const setting = p.findIndex((s, k) => (s === 'secrets' || s === 'variables') && k > 0);
  if (call.method === 'DELETE' && !undoable(call)) {
    const whole = p[0] === 'repos' && p.length === 3;
    out.push({
      // one rule for every endpoint, as `gh api -X DELETE` has had
      rule: call.command ?? `${call.via} -X DELETE`,
      reason: whole
        ? `\`${what}\` deletes the GitHub repository with its issues, pull requests, releases and wiki, as \`gh repo delete\` does`
        : `\`${what}\` deletes ${setting > 0 ? `a ${p[setting] === 'secrets' ? 'secret' : 'variable'} the workflows and deploys read` : 'a GitHub resource'} for good`,
    });
  } else if (
    setting > 0 &&
    (call.method === 'PUT' || call.method === 'POST' || call.method === 'PATCH') &&
    (p[0] === 'repos' || p[0] === 'orgs' || p[0] === 'user')
  )
    out.push({
      rule: what,
      reason: `\`${what}\` sets a ${p[setting] === 'secrets' ? 'secret' : 'variable'} that the workflows and deploys read, replacing the value it had, which cannot be read back`,
    });
  return out;
}
