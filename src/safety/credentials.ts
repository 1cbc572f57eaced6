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
  printers: readonly { program: string; prints: (args: readonly string[]) => string | null }[];
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

export const CREDENTIALS: readonly Credential[] = [
  {
    what: 'a GitHub token',
    variables: ['GITHUB_TOKEN', 'GH_TOKEN'],
    printers: [{ program: 'gh', prints: ghPrintsToken }],
    hosts: ['github.com', 'api.github.com', 'uploads.github.com', 'raw.githubusercontent.com', 'ghcr.io', 'models.github.ai'],
  },
  { what: 'an npm token', variables: ['NPM_TOKEN', 'NODE_AUTH_TOKEN'], printers: [], hosts: ['registry.npmjs.org'] },
  { what: 'a GitLab token', variables: ['GITLAB_TOKEN', 'GL_TOKEN', 'CI_JOB_TOKEN'], printers: [], hosts: ['gitlab.com'] },
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
    printers: [{ program: 'security', prints: (a) => (a.some((x) => /^find-(generic|internet)-password$/.test(x)) ? 'security find-…-password' : null) }],
    hosts: [],
  },
];

/** A secret some command prints or a word holds: what it is, and the hosts it may be sent to (none: no host). */
export interface Secret {
  what: string;
  hosts: readonly string[];
}

/** The credential `program args` prints, as a Secret named by the command (`gh auth token`), or null. */
export function printedCredential(program: string, args: readonly string[]): Secret | null {
  for (const c of CREDENTIALS)
    for (const p of c.printers) {
      const what = p.program === program ? p.prints(args) : null;
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
  return hosts.some((p) => (p.startsWith('*.') ? h.endsWith(p.slice(1)) && h.length > p.length - 1 : h === p));
}
