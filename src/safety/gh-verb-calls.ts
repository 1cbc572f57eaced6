import { operandAt } from './argv.ts';
import type { Invocation } from './command.ts';
import { UNKNOWN } from './expand.ts';
import { GH_LINE_VALUED, type GithubApiCall } from './github-api.ts';

/**
 * The `gh` verbs read as the GitHub API calls they make, so that one rule judges the endpoint
 * whatever sends it (github-api-rules.ts): `gh secret set X` is `PUT …/actions/secrets/X`, `gh
 * variable delete X` is `DELETE …/actions/variables/X`, `gh issue delete 5` is GraphQL
 * `deleteIssue`, `gh repo deploy-key add` is `POST repos/o/r/keys`, `gh ssh-key delete 1` is
 * `DELETE user/keys/1`, `gh repo edit --default-branch x` is `PATCH repos/o/r` with `default_branch=x`. The
 * repository is `-R o/r`, else `{owner}/{repo}` (the checkout's, as `gh api` spells it).
 */
export function readGhVerb(inv: Invocation): GithubApiCall | null {
  if (inv.program !== 'gh') return null;
  const args = inv.args.map((a) => a.value);
  const i = operandAt(args, GH_LINE_VALUED);
  const group = args[i];
  if (group === undefined || !Object.hasOwn(VERBS, group)) return null;
  const j = operandAt(args, VERB_VALUED, i + 1);
  const verb = args[j];
  const verbs = VERBS[group]!;
  const read = verb !== undefined && Object.hasOwn(verbs, verb) ? verbs[verb] : undefined;
  if (!read) return null;
  const call = read({ args, operand: args[operandAt(args, VERB_VALUED, j + 1)], repo: repoPath(args) });
  return call ? { fields: new Map(), opaqueBody: false, mutations: [], arguments: new Map(), command: `gh ${group} ${verb}`, via: 'gh', ...call } : null;
}

/** What a verb's reading is given: the whole line, its first operand after the verb, the repository's path. */
interface VerbLine {
  args: readonly string[];
  operand: string | undefined;
  repo: string[];
}

type VerbCall = Pick<GithubApiCall, 'method' | 'path'> & Partial<GithubApiCall>;

/** The options of these verbs that take a value, with gh's global ones: where their operands are. */
const VERB_VALUED: ReadonlySet<string> = new Set([
  ...GH_LINE_VALUED,
  '-b',
  '--body',
  '-e',
  '--env',
  '-o',
  '--org',
  '-a',
  '--app',
  '-v',
  '--visibility',
  '-r',
  '--repos',
  '-f',
  '--env-file',
  '-t',
  '--title',
  '--type',
  '--default-branch',
]);

/** The value of an option, attached (`--env=prod`) or the word after it; the last one given. */
function valueOf(args: readonly string[], ...names: string[]): string | undefined {
  let value: string | undefined;
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!;
    if (a === '--') break;
    for (const n of names) {
      if (a === n) value = args[k + 1];
      else if (a.startsWith(`${n}=`)) value = a.slice(n.length + 1);
    }
  }
  return value;
}

/** `repos/o/r` from `-R o/r` (also `host/o/r`), else `repos/{owner}/{repo}`. */
function repoPath(args: readonly string[]): string[] {
  const named = valueOf(args, '-R', '--repo')?.split('/').filter(Boolean);
  return named && named.length >= 2 ? ['repos', ...named.slice(-2)] : ['repos', '{owner}', '{repo}'];
}

/** Where a secret or variable lives: the repository's, an environment's, an organization's or (codespaces) the user's. */
function settingsBase(line: VerbLine, kind: 'secrets' | 'variables'): string[] {
  const org = valueOf(line.args, '-o', '--org');
  const env = valueOf(line.args, '-e', '--env');
  const app = kind === 'secrets' ? (valueOf(line.args, '-a', '--app') ?? 'actions') : 'actions';
  if (line.args.includes('-u') || line.args.includes('--user')) return ['user', 'codespaces', kind];
  if (org !== undefined) return ['orgs', org, app, kind];
  if (env !== undefined) return [...line.repo, 'environments', env, kind];
  return [...line.repo, app, kind];
}

/** `gh secret set -f .env` sets every name the file holds: a name the command line does not show. */
const named = (line: VerbLine) => line.operand ?? UNKNOWN;

const VERBS: Record<string, Record<string, (line: VerbLine) => VerbCall | null>> = {
  secret: {
    set: (line) => ({ method: 'PUT', path: [...settingsBase(line, 'secrets'), named(line)] }),
    delete: (line) => ({ method: 'DELETE', path: [...settingsBase(line, 'secrets'), named(line)] }),
    remove: (line) => ({ method: 'DELETE', path: [...settingsBase(line, 'secrets'), named(line)] }),
  },
  variable: {
    set: (line) => ({ method: 'POST', path: settingsBase(line, 'variables'), fields: new Map([['name', [named(line)]]]) }),
    delete: (line) => ({ method: 'DELETE', path: [...settingsBase(line, 'variables'), named(line)] }),
    remove: (line) => ({ method: 'DELETE', path: [...settingsBase(line, 'variables'), named(line)] }),
  },
  issue: { delete: () => ({ method: 'POST', path: ['graphql'], mutations: ['deleteIssue'] }) },
  'ssh-key': { delete: (line) => ({ method: 'DELETE', path: ['user', 'keys', named(line)] }) },
  repo: {
    'deploy-key': (line) => {
      const action = line.operand;
      if (action === 'add') return { method: 'POST', path: [...line.repo, 'keys'], command: 'gh repo deploy-key add' };
      if (action === 'delete') return { method: 'DELETE', path: [...line.repo, 'keys', UNKNOWN], command: 'gh repo deploy-key delete' };
      return null;
    },
    edit: (line) => {
      const branch = valueOf(line.args, '--default-branch');
      return branch === undefined
        ? null
        : { method: 'PATCH', path: line.repo, fields: new Map([['default_branch', [branch]]]), command: 'gh repo edit --default-branch' };
    },
  },
};
