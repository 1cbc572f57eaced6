import { operandAt } from '../argv.ts';
import { type ArgsCheck, type Hit, optionValues, type ToolCheck } from './args.ts';

/**
 * GitLab's `glab` and Gitea's `tea` read as `gh` is (docs/safety.md, the `infra` and `publish`
 * rows): what their verbs do to the forge everyone works on. Asked (infra): a project,
 * milestone, hook or organization deleted, archived or transferred (`glab repo delete`, `tea repos
 * delete`), a CI/CD variable the pipelines read deleted or replaced (`glab variable
 * delete|set|update`: its value cannot be read back), an issue, merge request or key deleted, and
 * any `DELETE` through `glab api` but a label's or a reaction's (what the next call puts back).
 * Denied (publish): a project made public through `glab repo edit --visibility public` or `glab api`
 * (`-f visibility=public`), as `gh api`
 * is, and a release made, changed or deleted through tea (`tea releases create|edit|delete`), as
 * `gh release create|delete` is. Their listings and reads pass, and the unknown-command rule reads
 * their other verbs (`glab release create|delete` publishes).
 */

/** glab's options that take a value, global and of `api`: where its operands are. */
const GLAB_VALUED: ReadonlySet<string> = new Set([
  '-R',
  '--repo',
  '-g',
  '--group',
  '-X',
  '--method',
  '-f',
  '--field',
  '-F',
  '--raw-field',
  '-H',
  '--header',
  '--hostname',
  '--input',
]);
/** tea's options that take a value: where its operands are. */
const TEA_VALUED: ReadonlySet<string> = new Set(['-l', '--login', '-r', '--repo', '-R', '--remote', '-o', '--output', '--owner', '--name']);

/** Each glab group's verbs that destroy or replace, and what is lost. */
const GLAB_VERBS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  repo: {
    delete: 'deletes the GitLab project with its issues, merge requests, pipelines and wiki',
    archive: 'makes the GitLab project read-only for everyone until an owner unarchives it',
    transfer: 'hands the GitLab project to another namespace, whose members decide from then on who may reach it',
  },
  variable: {
    delete: 'deletes a CI/CD variable the pipelines and deploys read',
    set: 'replaces a CI/CD variable the pipelines and deploys read; the old value cannot be read back',
    update: 'replaces a CI/CD variable the pipelines and deploys read; the old value cannot be read back',
  },
  issue: { delete: 'deletes an issue with its discussion' },
  mr: { delete: 'deletes a merge request with its discussion' },
  'ssh-key': { delete: 'deletes an SSH key the account signs in or deploys with' },
  'deploy-key': { delete: 'deletes a deploy key machines fetch or push with' },
  schedule: { delete: 'deletes a pipeline schedule' },
};

/** tea's groups (and their other names) whose `delete`/`rm` destroys what the forge keeps. */
const TEA_GROUPS: Readonly<Record<string, string>> = {
  repo: 'the Gitea repository with its issues, pull requests and wiki',
  repos: 'the Gitea repository with its issues, pull requests and wiki',
  milestone: 'a milestone',
  milestones: 'a milestone',
  ms: 'a milestone',
  webhook: 'a webhook the deploys listen on',
  webhooks: 'a webhook the deploys listen on',
  hooks: 'a webhook the deploys listen on',
  org: 'the Gitea organization and its repositories',
  orgs: 'the Gitea organization and its repositories',
  organization: 'the Gitea organization and its repositories',
  organizations: 'the Gitea organization and its repositories',
};

/** A method given to `glab api` (`-X DELETE`, `--method=DELETE`, `-XDELETE`), upper-cased; without one, GET, or POST where fields are given (as glab sends them). */
function apiMethod(args: readonly string[]): string {
  for (const a of args) if (/^-X./.test(a)) return a.slice(2).toUpperCase();
  const given = optionValues(args, '-X', '--method')[0];
  if (given !== undefined) return given.toUpperCase();
  return optionValues(args, '-f', '--field', '-F', '--raw-field').length ? 'POST' : 'GET';
}

/** A DELETE's path whose loss the next call puts back: a label, a reaction. */
const PUT_BACK = /\/(labels|award_emoji)\/[^/]+\/?$/;

/** glab's destroying verbs and API deletes (asked). */
const glab: ArgsCheck = (args) => {
  const i = operandAt(args, GLAB_VALUED);
  const group = args[i];
  if (group === 'api') {
    const path = args[operandAt(args, GLAB_VALUED, i + 1)] ?? '';
    if (apiMethod(args) !== 'DELETE' || PUT_BACK.test(path)) return null;
    return {
      rule: 'glab api -X DELETE',
      reason: `\`glab api -X DELETE\` of \`${path}\` deletes what GitLab keeps there (a project, a branch, a variable, a member)`,
    };
  }
  if (group === undefined || !Object.hasOwn(GLAB_VERBS, group)) return null;
  const verb = args[operandAt(args, GLAB_VALUED, i + 1)];
  const what = verb !== undefined && Object.hasOwn(GLAB_VERBS[group]!, verb) ? GLAB_VERBS[group]![verb] : undefined;
  return what ? { rule: `glab ${group} ${verb}`, reason: `\`glab ${group} ${verb}\` ${what}` } : null;
};

/** tea's deletes of what the forge keeps, and a branch's protection removed (asked). */
const tea: ArgsCheck = (args) => {
  const i = operandAt(args, TEA_VALUED);
  const group = args[i];
  const verb = args[operandAt(args, TEA_VALUED, i + 1)];
  // `tea branches unprotect main`: the branch's protection removed, so anyone may push to it, force-push or delete it
  if ((group === 'branches' || group === 'branch' || group === 'b') && verb === 'unprotect')
    return {
      rule: 'tea branches unprotect',
      reason: "`tea branches unprotect` removes the branch's protection: anyone with write access may then push to it, force-push or delete it",
    };
  if (group === undefined || !Object.hasOwn(TEA_GROUPS, group)) return null;
  if (verb !== 'delete' && verb !== 'rm') return null;
  return { rule: `tea ${group} ${verb}`, reason: `\`tea ${group} ${verb}\` deletes ${TEA_GROUPS[group]}` };
};

/** The infra family's forge checks: programs whose other verbs the unknown-command rule still reads. */
export const FORGE_SOME_VERBS: Record<string, ArgsCheck> = { glab, tea };

/** A project made public through `glab api` (a `visibility=public` field on a write): its history shown to everyone. */
const glabPublic: ToolCheck = (args) => {
  const i = operandAt(args, GLAB_VALUED);
  // `glab repo edit --visibility public` (`--visibility=public`), as `gh repo edit`
  if (args[i] === 'repo' && args[operandAt(args, GLAB_VALUED, i + 1)] === 'edit')
    return optionValues(args, '--visibility').some((v) => v.toLowerCase() === 'public') ? { ...publicHit, rule: 'glab repo edit --visibility public' } : null;
  if (args[i] !== 'api' || apiMethod(args) === 'GET') return null;
  const fields = optionValues(args, '-f', '--field', '-F', '--raw-field');
  if (!fields.some((f) => /^visibility=public$/i.test(f))) return null;
  return publicHit;
};

const publicHit: Hit = {
  rule: 'glab api visibility=public',
  reason:
    'the GitLab project is made public through its API: its whole history — every file and secret ever committed — is shown to everyone; what they copy cannot be taken back',
};

/** tea's release verbs that publish or withdraw a release users download. */
const TEA_RELEASE_VERBS = new Set(['create', 'edit', 'delete', 'rm']);

/** `tea releases create|edit|delete`: a release published, changed or withdrawn, as `gh release` does it. */
const teaRelease: ToolCheck = (args) => {
  const i = operandAt(args, TEA_VALUED);
  if (!['release', 'releases', 'r'].includes(args[i] ?? '')) return null;
  const verb = args[operandAt(args, TEA_VALUED, i + 1)];
  if (verb === undefined || !TEA_RELEASE_VERBS.has(verb)) return null;
  return {
    rule: `tea ${args[i]} ${verb}`,
    reason: `\`tea ${args[i]} ${verb}\` publishes, changes or withdraws a release and its assets, which users download`,
  };
};

/** The publish family's forge checks. */
export const FORGE_PUBLISH: Record<string, ToolCheck> = { glab: glabPublic, tea: teaRelease };
