import type { ToolCredential } from './tool-credentials.ts';

/**
 * Commands that print the secrets of what is deployed (docs/safety.md, "Credentials and the hosts
 * they belong to"), joined to credentials.ts' table: infrastructure-as-code's state and outputs,
 * which hold every resource's passwords and keys (`terraform state pull`, `terraform output -json`,
 * `terraform show -json`, `pulumi … --show-secrets`, `helm get values`), a cloud resource's keys,
 * connection strings and signed URLs (`az storage account keys list`, `… show-connection-string`,
 * `… generate-sas`, `az acr credential show`, `aws rds generate-db-auth-token`, `gcloud sql
 * generate-login-token`, `doctl databases connection`), and a hosted app's settings and secrets
 * (`firebase functions:config:get`, `functions:secrets:access`, `firebase login:ci`, `railway
 * variables`, a function's or a task's environment, `fly ssh console -C env`). Printed to the agent
 * they are fine; sent off the machine they are a leak (exfiltration.ts), as `gh auth token` is.
 */

/** The words that are not options: a command's verbs and operands, read loosely. */
const operands = (a: readonly string[]) => a.filter((x) => !x.startsWith('-'));

/** Whether the words hold `verbs` in this order, one after another (`['state', 'pull']`). */
const says = (a: readonly string[], ...verbs: string[]) => {
  const ops = operands(a);
  return ops.some((_, i) => verbs.every((v, j) => ops[i + j] === v));
};

/**
 * terraform's and its forks' state and outputs: `state pull`, `show -json`, and `output` as JSON or
 * raw (sensitive outputs in clear) — every output, or one whose name says it holds a secret
 * (`output -raw db_password`; `output -raw bucket_name`, handed to the next command, passes).
 */
const terraformPrints = (program: string, secretName: (name: string) => boolean) => (a: readonly string[]) => {
  const [v, w] = operands(a);
  if (v === 'state' && w === 'pull') return `${program} state pull`;
  if (v === 'output' && a.some((x) => /^-(json|raw)\b/.test(x)) && (w === undefined || secretName(w))) return `${program} output`;
  return v === 'show' && a.some((x) => x === '-json') ? `${program} show -json` : null;
};

/** Pulumi told to show its secrets: `stack export|output --show-secrets`, `config --show-secrets`. */
const pulumiPrints = (a: readonly string[]) => (a.includes('--show-secrets') ? `pulumi ${operands(a).slice(0, 2).join(' ')} --show-secrets` : null);

/** `helm get values|all|manifest`: a release's values as given, with the passwords a chart takes. */
const helmPrints = (a: readonly string[]) => {
  const [v, w] = operands(a);
  return v === 'get' && /^(values|all|manifest)$/.test(w ?? '') ? `helm get ${w}` : null;
};

/** az's keys, connection strings, signed URLs and publishing profiles of a resource. */
const azPrints = (a: readonly string[]) => {
  const ops = operands(a);
  const last = ops.findIndex((x) => /^(keys|list-keys|show-connection-string|generate-sas|credential|list-publishing-profiles|admin-key)$/.test(x));
  if (last < 0) return null;
  const verb = ops[last]!;
  const next = ops[last + 1];
  const prints =
    verb === 'list-keys' ||
    verb === 'show-connection-string' ||
    verb === 'generate-sas' ||
    verb === 'list-publishing-profiles' ||
    (verb === 'keys' && next === 'list') ||
    (verb === 'credential' && next === 'show') ||
    (verb === 'admin-key' && next === 'show');
  return prints ? `az ${ops.slice(0, last + (next === 'list' || next === 'show' ? 2 : 1)).join(' ')}` : null;
};

/** aws's short-lived database logins, and the environment of a function or a task definition. */
const awsPrints = (a: readonly string[]) => {
  if (says(a, 'rds', 'generate-db-auth-token')) return 'aws rds generate-db-auth-token';
  if (says(a, 'lambda', 'get-function-configuration') || says(a, 'lambda', 'get-function')) {
    const query = a[a.indexOf('--query') + 1];
    return a.includes('--query') && !/Environment/i.test(query ?? '') ? null : 'aws lambda get-function-configuration';
  }
  if (says(a, 'ecs', 'describe-task-definition')) {
    const query = a[a.indexOf('--query') + 1];
    return a.includes('--query') && !/environment|secrets|containerDefinitions(\[\])?$/i.test(query ?? '') ? null : 'aws ecs describe-task-definition';
  }
  return null;
};

/** A shell command run on a hosted app's machine that prints its environment: `fly ssh console -C env`, `heroku run env`. */
const remoteEnvironment = (program: string) => (a: readonly string[]) => {
  const at = a.findIndex((x) => x === '-C' || x === '--command');
  const command = at >= 0 ? a[at + 1] : program === 'heroku' && operands(a)[0] === 'run' ? operands(a)[1] : undefined;
  return command && /^(env|printenv)(\s|$)/.test(command.trim()) ? `${program} … ${command.trim().split(/\s/)[0]}` : null;
};

/** The table, given the one test of whether a name says it holds a secret (credentials.ts secretVariable, which joins it to its own). */
export const deploySecrets = (secretName: (name: string) => boolean): readonly ToolCredential[] => [
  {
    what: "infrastructure's state and outputs",
    printers: [
      ...['terraform', 'tofu', 'terragrunt'].map((program) => ({ program, prints: terraformPrints(program, secretName) })),
      { program: 'pulumi', prints: pulumiPrints },
      { program: 'helm', prints: helmPrints },
    ],
    hosts: [],
  },
  {
    what: "a cloud resource's keys",
    printers: [
      { program: 'az', prints: azPrints },
      { program: 'aws', prints: awsPrints },
      { program: 'gcloud', prints: (a) => (says(a, 'sql', 'generate-login-token') ? 'gcloud sql generate-login-token' : null) },
      { program: 'doctl', prints: (a) => (says(a, 'databases', 'connection') ? 'doctl databases connection' : null) },
    ],
    hosts: [],
  },
  {
    what: "a hosted app's secrets",
    printers: [
      {
        program: 'firebase',
        prints: (a) => {
          const [v] = operands(a);
          return v === 'login:ci' || v === 'functions:config:get' || v === 'functions:secrets:access' ? `firebase ${v}` : null;
        },
      },
      { program: 'railway', prints: (a) => (/^(variables|vars)$/.test(operands(a)[0] ?? '') ? 'railway variables' : null) },
      { program: 'fly', prints: remoteEnvironment('fly') },
      { program: 'flyctl', prints: remoteEnvironment('flyctl') },
      { program: 'heroku', prints: remoteEnvironment('heroku') },
    ],
    hosts: [],
  },
];
