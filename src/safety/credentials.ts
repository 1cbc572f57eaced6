import { dockerSubcommand } from './container-cli.ts';
import { deploySecrets } from './deploy-secrets.ts';
import { metadataCredential } from './machine-credentials.ts';
import { PASSWORD_STORES } from './password-stores.ts';
import { TOOL_CREDENTIALS } from './tool-credentials.ts';
import { USER_CAPTURES } from './user-captures.ts';

/**
 * The credentials the exfiltration check knows by name (docs/safety.md, "Credentials and the
 * hosts they belong to"), one table: the environment variables that hold each, the commands
 * that print it, and the hosts it is sent to in its use. A credential sent over https to one of
 * its own hosts is its use (`curl -H "Authorization: Bearer $(gh auth token)"
 * https://api.github.com/user`); the same credential sent to any other host is its leak. A
 * credential with no host (an AWS secret key signs requests and is never sent as it is; a
 * private key) is never sent anywhere. Which variable names hold a secret at all, known here or
 * not, is secretVariable's one definition.
 */
export interface Credential {
  /** what it is, for the reason a denial gives */
  what: string;
  /** the environment variables that hold it */
  variables: readonly string[];
  /** the commands that print it: the program, and what it prints it as with these arguments (`gh auth token`), or null */
  printers: readonly { program: string; prints: (args: readonly string[], program: string) => string | null }[];
  /** the hosts it belongs to: a name (`api.github.com`), or `*.` and a domain for the hosts under it */
  hosts: readonly string[];
}

/** `gh auth token`, and `gh auth status` told to show the token (`-t`, `--show-token`). */
const ghPrintsToken = (a: readonly string[]) =>
  a[0] === 'auth' && a[1] === 'token'
    ? 'gh auth token'
    : a[0] === 'auth' && a[1] === 'status' && a.some((x) => x === '--show-token' || /^-[A-Za-z]*t[A-Za-z]*$/.test(x))
      ? 'gh auth status --show-token'
      : null;

/** `aws configure export-credentials`, `aws configure get KEY` of a credential (not region, output…), `aws sts get-session-token|assume-role…`: they print keys. */
const awsPrintsKeys = (a: readonly string[]) =>
  a.includes('export-credentials') ||
  (a[0] === 'configure' && a[1] === 'get' && !/^([\w-]+\.)*(region|output|endpoint_url|ca_bundle|retry_mode|max_attempts)$/.test(a[2] ?? '')) ||
  (a[0] === 'sts' && /^(get-session-token|get-federation-token|assume-role(-with-[\w-]+)?)$/.test(a[1] ?? ''))
    ? `aws ${a.slice(0, 2).join(' ')}`
    : null;

/** `gpg --export-secret-keys` (and `--export-secret-subkeys`): a private key. */
const gpgExportsSecret = (a: readonly string[]) => (a.some((x) => x.startsWith('--export-secret')) ? 'gpg --export-secret-keys' : null);

/** The words that are not options (`-x`, `--x=y`): a command's verbs and operands, read loosely (an option's value may stand among them). */
const operands = (a: readonly string[]) => a.filter((x) => !x.startsWith('-'));
/** Whether an option is given, alone or with its value (`--reveal`, `--format=json`). */
const hasOption = (a: readonly string[], ...names: string[]) => a.some((x) => names.some((n) => x === n || x.startsWith(`${n}=`)));
/** The value of an option given as `-o yaml`, `-oyaml`, `-o=yaml`, `--output yaml` or `--output=yaml`; the last one counts. */
function optionValue(a: readonly string[], short: string | null, long: string): string | null {
  let value: string | null = null;
  a.forEach((x, i) => {
    if (x === long || x === short) value = a[i + 1] ?? null;
    else if (x.startsWith(`${long}=`)) value = x.slice(long.length + 1);
    else if (short && x.startsWith(short) && x.length > short.length) value = x.slice(short.length).replace(/^=/, '');
  });
  return value;
}

/** `vault kv get`, `vault read`, `vault token lookup|create` (the token's `id`), `vault print token`: a secret's value or a token. */
const vaultPrints = (a: readonly string[]) => {
  const [v, w] = operands(a);
  return (v === 'kv' && w === 'get') || v === 'read' || (v === 'token' && (w === 'lookup' || w === 'create')) || (v === 'print' && w === 'token')
    ? `vault ${v === 'read' ? 'read' : `${v} ${w}`}`
    : null;
};

/** 1Password's `op read`, `op inject`, `op document get`, `op item get --reveal` (or as JSON, which holds the values). */
const opPrints = (a: readonly string[]) => {
  const [v, w] = operands(a);
  if (v === 'read' || v === 'inject') return `op ${v}`;
  if (v === 'document' && w === 'get') return 'op document get';
  return v === 'item' && w === 'get' && (hasOption(a, '--reveal') || optionValue(a, null, '--format') === 'json') ? 'op item get --reveal' : null;
};

/** pass's subcommands; a first word that is none of them is an entry's name, shown (`pass web/github` is `pass show web/github`). */
const PASS_VERBS = new Set([
  'init',
  'ls',
  'list',
  'find',
  'search',
  'insert',
  'add',
  'edit',
  'rm',
  'remove',
  'delete',
  'mv',
  'rename',
  'cp',
  'copy',
  'git',
  'help',
  'version',
]);
/** `pass show NAME`, `pass NAME`, `pass grep`, `pass generate` (it prints the new password), `pass otp`; gopass's `show`, `cat`, `otp`. */
const passPrints = (a: readonly string[]) => {
  const [v] = operands(a);
  return v !== undefined && !PASS_VERBS.has(v) && !hasOption(a, '-c', '--clip')
    ? `pass ${v === 'show' || v === 'grep' || v === 'generate' || v === 'otp' ? v : 'show'}`
    : null;
};
const gopassPrints = (a: readonly string[]) => {
  const [v] = operands(a);
  return v === 'show' || v === 'cat' || v === 'otp' ? `gopass ${v}` : null;
};

/** Bitwarden's `bw get` (a password, an item, a note: not `bw get template`), `bw list items`, `bw export`. */
const bwPrints = (a: readonly string[]) => {
  const [v, w] = operands(a);
  return (v === 'get' && w !== 'template') || (v === 'list' && w === 'items') || v === 'export' ? `bw ${v}` : null;
};

/** What decrypts a file to stdout: `sops -d|--decrypt|decrypt`, `age -d|--decrypt`. */
const decrypts = (program: string) => (a: readonly string[]) =>
  a.includes('-d') || hasOption(a, '--decrypt') || (program === 'sops' && operands(a)[0] === 'decrypt') ? `${program} --decrypt` : null;

/** `aws secretsmanager get-secret-value|batch-get-secret-value`, `aws ssm get-parameter(s)|get-parameters-by-path --with-decryption` (without it a SecureString comes encrypted). */
const awsPrintsSecrets = (a: readonly string[]) => {
  const ops = operands(a);
  const at = (service: string) => ops[ops.indexOf(service) + 1] ?? '';
  if (ops.includes('secretsmanager') && /^(batch-)?get-secret-value$/.test(at('secretsmanager'))) return `aws secretsmanager ${at('secretsmanager')}`;
  return ops.includes('ssm') && /^get-parameters?(-by-path)?$/.test(at('ssm')) && a.includes('--with-decryption')
    ? `aws ssm ${at('ssm')} --with-decryption`
    : null;
};

/** `gcloud secrets versions access`. */
const gcloudPrintsSecret = (a: readonly string[]) => {
  const ops = operands(a);
  const i = ops.indexOf('secrets');
  return i >= 0 && ops[i + 1] === 'versions' && ops[i + 2] === 'access' ? 'gcloud secrets versions access' : null;
};

/** `az keyvault secret show|download`. */
const azPrintsSecret = (a: readonly string[]) => {
  const [v, w, x] = operands(a);
  return v === 'keyvault' && w === 'secret' && (x === 'show' || x === 'download') ? `az keyvault secret ${x}` : null;
};

/**
 * `kubectl get secret … -o yaml|json|jsonpath=…|go-template=…` (a secret's data; the default table and
 * `-o name|wide` show names only), `kubectl config view --raw` (the kubeconfig's keys and tokens);
 * `oc` too.
 */
const kubectlPrints = (a: readonly string[]) => {
  const ops = operands(a);
  // the view-secret plugin (krew): a secret's values decoded, one key's or `--all`
  if (ops[0] === 'view-secret') return 'kubectl view-secret';
  const verb = ops.findIndex((x) => x === 'get' || x === 'config');
  if (verb < 0) return null;
  if (ops[verb] === 'config') return ops[verb + 1] === 'view' && hasOption(a, '--raw') ? 'kubectl config view --raw' : null;
  const kinds = (ops[verb + 1] ?? '').toLowerCase().split(',');
  if (!kinds.some((k) => /^(secrets?|secret\/.*|secrets\/.*)$/.test(k))) return null;
  const format = optionValue(a, '-o', '--output') ?? '';
  return /^(yaml|json|jsonpath|go-template|template|custom-columns)/.test(format) ? `kubectl get secret -o ${format.replace(/=.*/, '')}` : null;
};

/** macOS `security`: `find-generic-password` / `find-internet-password` (a keychain's password), `dump-keychain -d` (every one). */
function securityPrints(a: readonly string[]): string | null {
  if (a.some((x) => /^find-(generic|internet)-password$/.test(x))) return 'security find-…-password';
  return a.includes('dump-keychain') && a.some((x) => /^-[a-z]*d[a-z]*$/.test(x)) ? 'security dump-keychain -d' : null;
}

/** `git credential fill`: the password git's helper keeps for a host. */
const gitCredentialFill = (a: readonly string[]) => {
  const ops = operands(a);
  return ops[ops.indexOf('credential') + 1] === 'fill' && ops.includes('credential') ? 'git credential fill' : null;
};

/** Doppler's `secrets` (a table with the values), `secrets get|download`; Infisical's `export`, `secrets` and `secrets get`. */
const secretManagerPrints = (program: string) => (a: readonly string[]) => {
  const [v, w] = operands(a);
  return v === 'export' || (v === 'secrets' && (w === undefined || w === 'get' || w === 'download')) ? `${program} ${[v, w].filter(Boolean).join(' ')}` : null;
};

/** CyberArk Conjur's value of a variable: `conjur variable get -i ID` (its v8 CLI), `conjur variable value ID` (the older one). */
const conjurPrints = (a: readonly string[]) => {
  const [v, w] = operands(a);
  return v === 'variable' && (w === 'get' || w === 'value') ? `conjur variable ${w}` : null;
};

/** `heroku config` (every config var of an app, its database URL among them), `heroku config:get`. */
const herokuPrintsConfig = (a: readonly string[]) => {
  const [v] = operands(a);
  return v === 'config' || v === 'config:get' ? `heroku ${v}` : null;
};

/** `netlify env:list` and `env:get`: a site's environment variables with their values. */
const netlifyPrintsEnv = (a: readonly string[]) => {
  const [v] = operands(a);
  return v === 'env:list' || v === 'env:get' ? `netlify ${v}` : null;
};

/** `docker inspect` / `docker container inspect` (a container's environment is in it) unless a `--format` that names no `Env` or `Config` picks something else (`{{.State.Health}}`); podman too. */
const dockerInspectPrints = (program: string) => (a: readonly string[]) => {
  // after docker's own options (`--context prod`, `-H unix://…`): container-cli.ts reads every docker line so
  const { compose, at } = dockerSubcommand(program, a);
  const ops = compose || at < 0 ? [] : operands(a.slice(at));
  if (!(ops[0] === 'inspect' || (ops[0] === 'container' && ops[1] === 'inspect'))) return null;
  const format = optionValue(a, '-f', '--format');
  return format === null || /Env|Config|json \./.test(format) ? `${program} inspect` : null;
};

export const CREDENTIALS: readonly Credential[] = [
  {
    what: 'a GitHub token',
    variables: ['GITHUB_TOKEN', 'GH_TOKEN'],
    printers: [{ program: 'gh', prints: ghPrintsToken }],
    hosts: ['github.com', 'api.github.com', 'uploads.github.com', 'raw.githubusercontent.com', 'ghcr.io', 'models.github.ai', '$GITHUB_SERVER_URL'],
  },
  { what: 'an npm token', variables: ['NPM_TOKEN', 'NODE_AUTH_TOKEN'], printers: [], hosts: ['registry.npmjs.org'] },
  { what: 'a GitLab token', variables: ['GITLAB_TOKEN', 'GL_TOKEN', 'CI_JOB_TOKEN'], printers: [], hosts: ['gitlab.com', '$CI_SERVER_HOST'] },
  { what: 'an OpenAI API key', variables: ['OPENAI_API_KEY'], printers: [], hosts: ['api.openai.com'] },
  { what: 'an Anthropic API key', variables: ['ANTHROPIC_API_KEY'], printers: [], hosts: ['api.anthropic.com'] },
  {
    what: 'a Hugging Face token',
    variables: ['HF_TOKEN', 'HUGGING_FACE_HUB_TOKEN'],
    printers: [],
    hosts: ['huggingface.co', '*.huggingface.co'],
  },
  {
    what: 'a Google Cloud access token',
    variables: ['GOOGLE_API_KEY', 'GEMINI_API_KEY'],
    printers: [{ program: 'gcloud', prints: (a) => (a.includes('auth') && a.includes('print-access-token') ? 'gcloud auth print-access-token' : null) }],
    hosts: ['*.googleapis.com'],
  },
  {
    what: 'an Azure access token',
    variables: [],
    printers: [{ program: 'az', prints: (a) => (a[0] === 'account' && a[1] === 'get-access-token' ? 'az account get-access-token' : null) }],
    hosts: ['management.azure.com', 'graph.microsoft.com'],
  },
  { what: 'a Stripe key', variables: ['STRIPE_SECRET_KEY', 'STRIPE_API_KEY'], printers: [], hosts: ['api.stripe.com'] },
  { what: 'a Slack token', variables: ['SLACK_TOKEN', 'SLACK_BOT_TOKEN'], printers: [], hosts: ['slack.com'] },
  { what: 'a Cloudflare token', variables: ['CLOUDFLARE_API_TOKEN', 'CF_API_TOKEN'], printers: [], hosts: ['api.cloudflare.com'] },
  { what: 'a Vercel token', variables: ['VERCEL_TOKEN'], printers: [], hosts: ['api.vercel.com'] },
  { what: 'a Netlify token', variables: ['NETLIFY_AUTH_TOKEN'], printers: [], hosts: ['api.netlify.com'] },
  { what: 'a Sentry token', variables: ['SENTRY_AUTH_TOKEN'], printers: [], hosts: ['sentry.io', '*.sentry.io'] },
  {
    what: 'a Heroku token',
    variables: ['HEROKU_API_KEY'],
    printers: [{ program: 'heroku', prints: (a) => (a[0] === 'auth:token' ? 'heroku auth:token' : null) }],
    hosts: ['api.heroku.com'],
  },
  {
    what: 'AWS keys',
    variables: ['AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN'],
    printers: [{ program: 'aws', prints: awsPrintsKeys }],
    hosts: [],
  },
  {
    what: 'a private key',
    variables: [],
    printers: [
      { program: 'gpg', prints: gpgExportsSecret },
      { program: 'gpg2', prints: gpgExportsSecret },
    ],
    hosts: [],
  },
  {
    what: 'a keychain password',
    variables: [],
    // `dump-keychain -d`: every item of a keychain with its secret decrypted (without `-d`, the items' names only)
    printers: [{ program: 'security', prints: securityPrints }],
    hosts: [],
  },
  {
    what: 'a secret from a secret manager or password store',
    variables: [],
    printers: [
      { program: 'vault', prints: vaultPrints },
      { program: 'op', prints: opPrints },
      { program: 'pass', prints: passPrints },
      { program: 'gopass', prints: gopassPrints },
      { program: 'bw', prints: bwPrints },
      { program: 'sops', prints: decrypts('sops') },
      { program: 'age', prints: decrypts('age') },
      { program: 'aws', prints: awsPrintsSecrets },
      { program: 'gcloud', prints: gcloudPrintsSecret },
      { program: 'az', prints: azPrintsSecret },
      { program: 'kubectl', prints: kubectlPrints },
      { program: 'oc', prints: kubectlPrints },
      { program: 'git', prints: gitCredentialFill },
      { program: 'secret-tool', prints: (a) => (operands(a)[0] === 'lookup' ? 'secret-tool lookup' : null) },
      { program: 'doppler', prints: secretManagerPrints('doppler') },
      { program: 'infisical', prints: secretManagerPrints('infisical') },
      // OpenBao, Vault's fork, reads as vault does
      { program: 'bao', prints: (a) => vaultPrints(a)?.replace(/^vault/, 'bao') ?? null },
      { program: 'teller', prints: (a) => (/^(export|env|show|yaml|json)$/.test(operands(a)[0] ?? '') ? `teller ${operands(a)[0]}` : null) },
      { program: 'akeyless', prints: (a) => (/^get-(?:[a-z]+-)*secret-value$/.test(operands(a)[0] ?? '') ? `akeyless ${operands(a)[0]}` : null) },
      { program: 'conjur', prints: conjurPrints },
      { program: 'berglas', prints: (a) => (operands(a)[0] === 'access' ? 'berglas access' : null) },
    ],
    hosts: [],
  },
  {
    what: "the machine's cloud or cluster credentials",
    variables: [],
    printers: [
      ...['curl', 'wget', 'http', 'https', 'xh', 'xhs'].map((program) => ({ program, prints: (a: readonly string[]) => metadataCredential(program, a) })),
      { program: 'gcloud', prints: (a) => (a.includes('auth') && a.includes('print-identity-token') ? 'gcloud auth print-identity-token' : null) },
      { program: 'kubectl', prints: (a) => (operands(a)[0] === 'create' && operands(a)[1] === 'token' ? 'kubectl create token' : null) },
      { program: 'oc', prints: (a) => (operands(a)[0] === 'create' && operands(a)[1] === 'token' ? 'oc create token' : null) },
    ],
    hosts: [],
  },
  {
    what: "an app's or a container's environment",
    variables: [],
    printers: [
      { program: 'heroku', prints: herokuPrintsConfig },
      { program: 'netlify', prints: netlifyPrintsEnv },
      { program: 'docker', prints: dockerInspectPrints('docker') },
      { program: 'podman', prints: dockerInspectPrints('podman') },
    ],
    hosts: [],
  },
];

/** A secret some command prints or a word holds: what it is, and the hosts it may be sent to (none: no host). */
export interface Secret {
  what: string;
  hosts: readonly string[];
}

/** Every credential some command prints: this table's, developers' tools' own (tool-credentials.ts), what captures the user (user-captures.ts), more password managers' (password-stores.ts) and what is deployed (deploy-secrets.ts, which reads names as secretVariable does). */
const PRINTED: readonly { printers: Credential['printers']; hosts: readonly string[] }[] = [
  ...CREDENTIALS,
  ...TOOL_CREDENTIALS,
  ...USER_CAPTURES,
  ...PASSWORD_STORES,
  ...deploySecrets(secretVariable),
];

/** The credential `program args` prints, as a Secret named by the command (`gh auth token`), or null. */
export function printedCredential(program: string, args: readonly string[]): Secret | null {
  for (const c of PRINTED)
    for (const p of c.printers) {
      const what = p.program === program || p.program === '*' ? p.prints(args, program) : null;
      if (what) return { what, hosts: c.hosts };
    }
  return null;
}

/** The credential held by the variable `name`, from the table; a name the table does not know that holds a secret (secretVariable) has no host; null for no secret. */
export function variableSecret(name: string): Secret | null {
  const known = CREDENTIALS.find((c) => c.variables.includes(name));
  if (known) return { what: `$${name}`, hosts: known.hosts };
  return secretVariable(name) ? { what: `$${name}`, hosts: [] } : null;
}

/** Whether the table lists the variable `name` (its value is a credential whose hosts are known). */
export function knownCredentialVariable(name: string): boolean {
  return CREDENTIALS.some((c) => c.variables.includes(name));
}

/**
 * Whether an environment variable's name says it holds a secret: one the table lists, or one
 * with a part (between `_`) that names a secret — `TOKEN`, `SECRET`, `PASSWORD`, `PASSWD`,
 * `PASSPHRASE`, `KEY` (`API_KEY`, `PRIVATE_KEY`, `SECRET_KEY`), `APIKEY`, `CREDENTIALS`, `CREDS`,
 * `COOKIE`, `PWD` after another part (`MYSQL_PWD`; `PWD` alone is the working folder) — or that
 * ends in one written together (`PGPASSWORD`, `GHTOKEN`); and a database's URL, which carries its
 * password (`DATABASE_URL`, `REDIS_URL`, `MONGODB_URI`). `PORT`, `NODE_ENV`, `API_URL`, `HOME`,
 * `PATH`, `SSH_AUTH_SOCK` are none.
 */
export function secretVariable(name: string): boolean {
  if (knownCredentialVariable(name)) return true;
  const upper = name.toUpperCase();
  const parts = upper.split('_').filter(Boolean);
  if (parts.some((p) => SECRET_PARTS.has(p))) return true;
  if (parts.length > 1 && parts.at(-1) === 'PWD') return true;
  if (/(TOKEN|SECRET|PASSWORD|PASSWD|APIKEY)$/.test(upper)) return true;
  return (
    /^(DATABASE|DB|REDIS|MONGO|MONGODB|POSTGRES|POSTGRESQL|PG|MYSQL|AMQP|RABBITMQ)(_[A-Z0-9]+)?_(URL|URI|DSN)$/.test(upper) ||
    /^([A-Z0-9]+_)?DATABASE_URL$/.test(upper)
  );
}

const SECRET_PARTS = new Set(['TOKEN', 'TOKENS', 'SECRET', 'SECRETS', 'PASSWORD', 'PASSWD', 'PASSPHRASE', 'KEY', 'APIKEY', 'CREDENTIALS', 'CREDS', 'COOKIE']);

/** Whether `host` is one of `hosts`: the same name, or under a `*.domain` entry. */
export function hostIn(host: string, hosts: readonly string[]): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return hosts.some((p) => (p.startsWith('*.') ? h.endsWith(p.slice(1)) && h.length > p.length - 1 : h === p.toLowerCase()));
}
