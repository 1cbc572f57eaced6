import { gitSubcommandAt } from './git-global-options.ts';
import { readsProcessMemory } from './process-memory.ts';

/**
 * More commands that print a credential (docs/safety.md, "Credentials and the hosts they belong
 * to"), joined to credentials.ts' table: developers' tools that print their own login (`gh config
 * get oauth_token`, `npm config get //registry/:_authToken`, `yarn config get npmAuthToken`,
 * `glab auth status -t`, `fly auth token`, `aws ecr get-login-password`, Maven's effective settings
 * with their passwords), the helpers that hand a stored password out (`docker-credential-* get`,
 * `git credential-store get`, Python's `keyring get`, `chamber export`, `gpg --decrypt` of a file),
 * and what prints another process's environment or memory (`ps e`, `docker exec C env`, `kubectl
 * exec … -- env`, `systemctl show-environment`, `launchctl getenv`, `tmux show-environment`,
 * `coredumpctl dump`, `gcore`). Printed to the agent they are fine; sent off the machine, or to
 * any host but their own, they are a leak (exfiltration.ts), as `gh auth token` is.
 */
export interface ToolCredential {
  /** what it is, for the reason a denial gives */
  what: string;
  /** the commands that print it: the program, and what it prints it as with these arguments, or null */
  printers: readonly { program: string; prints: (args: readonly string[], program: string) => string | null }[];
  /** the hosts it belongs to (credentials.ts' Credential.hosts) */
  hosts: readonly string[];
}

/** The words that are not options: a command's verbs and operands, read loosely. */
const operands = (a: readonly string[]) => a.filter((x) => !x.startsWith('-'));

/** `gh config get oauth_token` (`-h HOST`): the token gh keeps for a host. */
const ghConfigToken = (a: readonly string[]) => {
  const [v, w, key] = operands(a.filter((x, i) => !(i > 0 && (a[i - 1] === '-h' || a[i - 1] === '--host'))));
  return v === 'config' && w === 'get' && key === 'oauth_token' ? 'gh config get oauth_token' : null;
};

/** A registry setting that holds a login: `//host/:_authToken`, `_auth`, `_password`, yarn's `npmAuthToken`/`npmAuthIdent` (also a scope's). */
const AUTH_KEY = /(?:_authToken|:_auth|^_auth|_password|npmAuthToken|npmAuthIdent)$/i;

/** `npm config get KEY` / `pnpm config get KEY` / `yarn config get KEY` of a login, `npm token create` (it prints the new token). */
const nodeRegistryToken = (program: string) => (a: readonly string[]) => {
  const ops = operands(a);
  if (ops[0] === 'token' && ops[1] === 'create') return `${program} token create`;
  const at = ops[0] === 'config' || ops[0] === 'c' ? 1 : -1;
  if (at < 0 || (ops[at] !== 'get' && ops[at] !== 'ls' && ops[at] !== 'list')) return null;
  if (ops[at] !== 'get') return program === 'yarn' && a.includes('--json') && a.includes('--no-redacted') ? 'yarn config --no-redacted' : null;
  return ops.slice(at + 1).some((k) => AUTH_KEY.test(k)) ? `${program} config get ${ops.slice(at + 1).find((k) => AUTH_KEY.test(k))}` : null;
};

/** `glab auth status -t|--show-token`, `glab config get token`. */
const glabToken = (a: readonly string[]) => {
  const ops = operands(a);
  if (ops[0] === 'auth' && ops[1] === 'token') return 'glab auth token';
  if (ops[0] === 'auth' && ops[1] === 'status' && a.some((x) => x === '--show-token' || /^-[A-Za-z]*t[A-Za-z]*$/.test(x)))
    return 'glab auth status --show-token';
  return ops[0] === 'config' && ops[1] === 'get' && ops[2] === 'token' ? 'glab config get token' : null;
};

/** `fly auth token` / `flyctl auth token`. */
const flyToken = (a: readonly string[]) => (operands(a)[0] === 'auth' && operands(a)[1] === 'token' ? 'fly auth token' : null);

/**
 * Any CLI's `auth token` (`wrangler auth token`, `glab auth token`, `gh auth token`), `auth
 * print-token`, `auth print-access-token`: the login the tool keeps, printed — the one shape such
 * CLIs share, whatever their name.
 */
const authTokenPrinted = (a: readonly string[], program: string) => {
  const [v, w] = operands(a);
  return v === 'auth' && /^(token|print-token|print-access-token|print-identity-token)$/.test(w ?? '') ? `${program} auth ${w}` : null;
};

/** `aws ecr get-login-password`, `aws ecr-public get-login-password`, `aws codeartifact get-authorization-token`: a registry's password. */
const awsRegistryToken = (a: readonly string[]) => {
  const ops = operands(a);
  const i = ops.findIndex((x) => x === 'ecr' || x === 'ecr-public' || x === 'codeartifact');
  return i >= 0 && /^(get-login-password|get-authorization-token)$/.test(ops[i + 1] ?? '') ? `aws ${ops[i]} ${ops[i + 1]}` : null;
};

/** Maven's effective settings shown with their passwords (`-DshowPasswords=true`). */
const mavenPasswords = (a: readonly string[]) =>
  a.some((x) => x.startsWith('help:effective-settings')) && a.some((x) => /^-DshowPasswords(=true)?$/.test(x))
    ? 'mvn help:effective-settings -DshowPasswords'
    : null;

/**
 * git's settings read where a CI checkout keeps its token (actions/checkout stores
 * `http.https://github.com/.extraheader` = `AUTHORIZATION: basic …` in the repository's config):
 * `git config --get|--get-all|--get-regexp|get KEY` of an `http.….extraheader` key, or a listing of
 * every setting (`--list`, `-l`, `list`), which prints it among the others.
 */
const gitExtraHeader = (a: readonly string[]) => {
  const at = gitSubcommandAt(a);
  if (a[at] !== 'config') return null;
  const rest = a.slice(at + 1);
  if (rest.some((x) => x === '--list' || x === '-l') || operands(rest)[0] === 'list') return 'git config --list';
  const reads = rest.some((x) => /^--get(-all|-regexp)?$/.test(x)) || operands(rest)[0] === 'get';
  return reads && rest.some((x) => /extraheader/i.test(x)) ? 'git config --get http.….extraheader' : null;
};

/** A credential helper asked for what it stores: `git credential-store get`, `git credential-osxkeychain get` (any `credential-<x>`). */
const gitHelperGet = (a: readonly string[]) => {
  const ops = operands(a);
  const i = ops.findIndex((x) => x.startsWith('credential-'));
  return i >= 0 && ops[i + 1] === 'get' ? `git ${ops[i]} get` : null;
};

/** A helper program asked for its stored password: `docker-credential-pass get`, `git-credential-store get`. */
const helperGet = (program: string) => (a: readonly string[]) => (operands(a)[0] === 'get' ? `${program} get` : null);

/** gpg decrypting a file to its output: `gpg -d f.gpg`, `gpg --decrypt f` (its clear text is a secret's). */
const gpgDecrypts = (a: readonly string[]) => (a.some((x) => x === '--decrypt' || /^-[A-Za-z]*d[A-Za-z]*$/.test(x)) ? 'gpg --decrypt' : null);

/** `ps e`, `ps auxeww`: BSD-style letters (no dash) with `e` print each process' environment after its command. */
const psEnvironment = (a: readonly string[]) => (a.some((x) => /^[A-Za-z]+$/.test(x) && x.includes('e')) ? 'ps e' : null);

/** A command run in a container or a pod that prints its environment: `docker exec C env`, `kubectl exec P -- printenv`. */
const execEnvironment = (program: string) => (a: readonly string[]) => {
  const at = a.indexOf('exec');
  if (at < 0) return null;
  const rest = a.slice(at + 1);
  const dash = rest.indexOf('--');
  // kubectl and oc after `--`; docker and podman their words after the container's name (the last word but the command's)
  const command = dash >= 0 ? rest.slice(dash + 1) : rest.filter((x) => !x.startsWith('-')).slice(1);
  return command[0] === 'env' || command[0] === 'printenv' || command.some((x) => /\/proc\/[^/]+\/environ$/.test(x)) ? `${program} exec … ${command[0]}` : null;
};

export const TOOL_CREDENTIALS: readonly ToolCredential[] = [
  {
    what: 'a GitHub token',
    printers: [
      { program: 'gh', prints: ghConfigToken },
      { program: 'git', prints: gitExtraHeader },
    ],
    hosts: ['github.com', 'api.github.com', 'uploads.github.com', 'raw.githubusercontent.com', 'ghcr.io', 'models.github.ai'],
  },
  {
    what: 'an npm token',
    printers: ['npm', 'pnpm', 'yarn'].map((program) => ({ program, prints: nodeRegistryToken(program) })),
    hosts: ['registry.npmjs.org'],
  },
  { what: 'a GitLab token', printers: [{ program: 'glab', prints: glabToken }], hosts: ['gitlab.com'] },
  {
    what: 'a Fly.io token',
    printers: [
      { program: 'fly', prints: flyToken },
      { program: 'flyctl', prints: flyToken },
    ],
    hosts: ['api.fly.io'],
  },
  { what: "a cloud registry's password", printers: [{ program: 'aws', prints: awsRegistryToken }], hosts: ['*.amazonaws.com'] },
  { what: "a tool's login token", printers: [{ program: '*', prints: authTokenPrinted }], hosts: [] },
  {
    what: 'a stored password',
    printers: [
      { program: 'git', prints: gitHelperGet },
      { program: 'keyring', prints: (a) => (operands(a)[0] === 'get' ? 'keyring get' : null) },
      // `glab variable export`: every CI/CD variable of the project with its value
      { program: 'glab', prints: (a) => (operands(a)[0] === 'variable' && operands(a)[1] === 'export' ? 'glab variable export' : null) },
      { program: 'chamber', prints: (a) => (/^(export|read|env)$/.test(operands(a)[0] ?? '') ? `chamber ${operands(a)[0]}` : null) },
      { program: 'gpg', prints: gpgDecrypts },
      { program: 'gpg2', prints: gpgDecrypts },
      { program: 'mvn', prints: mavenPasswords },
      { program: 'mvnw', prints: mavenPasswords },
      ...['desktop', 'osxkeychain', 'wincred', 'pass', 'secretservice', 'ecr-login', 'gcloud', 'gcr', 'acr-env'].map((helper) => ({
        program: `docker-credential-${helper}`,
        prints: helperGet(`docker-credential-${helper}`),
      })),
      ...['store', 'cache', 'osxkeychain', 'libsecret', 'manager', 'manager-core', 'wincred'].map((helper) => ({
        program: `git-credential-${helper}`,
        prints: helperGet(`git-credential-${helper}`),
      })),
    ],
    hosts: [],
  },
  {
    // Windows' stored logins: the Credential Manager's vault listed with its secrets, a Wi-Fi key shown in clear
    what: "Windows' stored passwords",
    printers: [
      ...['vaultcmd', 'vaultcmd.exe'].map((program) => ({
        program,
        prints: (a: readonly string[]) => (a.some((x) => /^\/listcreds\b/i.test(x)) ? 'vaultcmd /listcreds' : null),
      })),
      ...['netsh', 'netsh.exe'].map((program) => ({
        program,
        prints: (a: readonly string[]) => (a.some((x) => /^wlan$/i.test(x)) && a.some((x) => /^key=clear$/i.test(x)) ? 'netsh wlan … key=clear' : null),
      })),
      ...['Get-StoredCredential', 'get-storedcredential'].map((program) => ({ program, prints: () => 'Get-StoredCredential' })),
    ],
    hosts: [],
  },
  {
    what: "another process's environment or memory",
    printers: [
      { program: 'ps', prints: psEnvironment },
      ...['docker', 'podman', 'kubectl', 'oc'].map((program) => ({ program, prints: execEnvironment(program) })),
      { program: 'systemctl', prints: (a) => (operands(a).includes('show-environment') ? 'systemctl show-environment' : null) },
      { program: 'launchctl', prints: (a) => (operands(a)[0] === 'getenv' ? 'launchctl getenv' : null) },
      { program: 'tmux', prints: (a) => (operands(a).some((x) => x === 'show-environment' || x === 'showenv') ? 'tmux show-environment' : null) },
      { program: 'coredumpctl', prints: (a) => (/^(dump|debug|gdb)$/.test(operands(a)[0] ?? '') ? `coredumpctl ${operands(a)[0]}` : null) },
      { program: 'gcore', prints: () => 'gcore' },
      // any program that reads `/proc/<pid>/mem` (`dd if=…`, `cat`, `xxd`)
      { program: '*', prints: readsProcessMemory },
    ],
    hosts: [],
  },
];
