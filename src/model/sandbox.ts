import { type GlobMatcher, globMatcher } from './glob.ts';

/**
 * What the kernel sandbox under the guard holds (docs/safety.md, "The kernel sandbox"), as plain
 * data (and the one test of a secret file's name): the hook's fast path reads it without loading a schema. The policy built from it
 * (sandbox/policy.ts) makes the working tree and the caches writable, everything else read-only,
 * axme's guarded paths read-only even inside the tree, and the secrets unreadable.
 */

/** How the sandbox is chosen, in a machine-local settings file (`sandbox.mode`) or AXME_SANDBOX. */
export const SANDBOX_MODES = ['auto', 'required', 'off'] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];
export const SANDBOX_MODE_HELP: Record<SandboxMode, string> = {
  auto: 'on wherever the platform has one (Linux with bubblewrap); elsewhere the parser alone guards, and doctor and the session start say so',
  required: 'every shell command runs in the sandbox; where none can start, shell commands are denied with the install line',
  off: 'the parser alone guards (no kernel boundary)',
};

/** Whether commands in the sandbox reach the network (`sandbox.network`). */
export const SANDBOX_NETWORK = ['allow', 'deny', 'allowlist'] as const;
export type SandboxNetwork = (typeof SANDBOX_NETWORK)[number];
export const SANDBOX_NETWORK_HELP: Record<SandboxNetwork, string> = {
  allow: 'the default: commands reach the network as usual (the secrets are unreadable anyway)',
  deny: 'commands reach no network at all',
  allowlist:
    'commands reach only the hosts sandbox.domains names, through a proxy axme runs outside the sandbox (tools that honour HTTP_PROXY/HTTPS_PROXY: curl, git over https, npm, pip, cargo…); everything else reaches nothing',
};

/**
 * A host pattern of `sandbox.domains`: a host name (`registry.npmjs.org`), or `*.` and a domain for
 * every host under it (`*.github.com`, not `github.com` itself), or an IP address. No ports, paths
 * or schemes: the proxy allows any port of an allowed host.
 */
export const SANDBOX_DOMAIN_PATTERN =
  /^(\*\.)?(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$|^\d{1,3}(\.\d{1,3}){3}$|^\[[0-9a-f:]+\]$/;

/** Where commands in an allowlisted sandbox find the proxy (inside their own network namespace). */
export const SANDBOX_PROXY_PORT = 3128;

/** How Debian/Ubuntu, Fedora and Arch install socat, the bridge an allowlisted sandbox reaches its proxy through. */
export const SOCAT_INSTALL = 'apt-get install -y socat (Debian, Ubuntu), dnf install -y socat (Fedora), pacman -S socat (Arch)';

/**
 * A credential store under the home folder, one entry of HOME_CREDENTIALS: `path` is the file or
 * folder (relative to the home folder) the sandbox hides; `inside`, the globs below it that hold
 * the secrets, which the parser denies reading or writing (without it: `path` itself); `except`,
 * the names directly below `path` that `inside` would name but that hold none (`~/.ssh/config`).
 * `readBy`: a build tool's own settings, which may hold a registry's or a mirror's login (Maven's
 * `settings.xml`, Gradle's `gradle.properties`, pip's `pip.conf`, yarn's and bun's rc files), named
 * with the programs that read it for themselves on every build: the parser alone guards it (the
 * agent's `cat` and Read are denied, and so is any program's but these handed it by its path),
 * while the sandbox leaves it readable, since hidden (read as empty) it would break their builds
 * there: a mirror or a proxy lost, a private registry's packages unreachable, Maven's empty
 * `settings.xml` not even parsed.
 */
export interface HomeCredential {
  path: string;
  inside?: readonly string[];
  except?: readonly string[];
  readBy?: readonly string[];
}

/** The files a Chromium-based browser keeps a profile's cookies, saved passwords and card data in (`<profile>/Cookies`). */
const CHROMIUM_PROFILE_SECRETS = ['*/Cookies', '*/Network/Cookies', '*/Login Data', '*/Web Data'];
/** The files Firefox keeps a profile's cookies and saved passwords in. */
const FIREFOX_PROFILE_SECRETS = ['*/cookies.sqlite', '*/logins.json', '*/key4.db', '*/key3.db', '*/signons.sqlite'];
/** What an Electron app (Slack, Discord) keeps its session in, at the top of its folder: the cookies and the local storage its token lies in. */
const ELECTRON_SESSION_SECRETS = ['Cookies', 'Network/Cookies', 'Local Storage', 'Session Storage'];

/**
 * The credentials under the home folder (docs/safety.md, P5), one definition: the sandbox hides
 * each `path` (HOME_SECRETS: a folder becomes empty, a file reads as empty; not a build tool's
 * settings, `readBy`) and the parser denies
 * reading or writing what each names (safety/path-rules.ts SECRET_PATHS): keys, cloud, cluster,
 * registry and database logins, git and HTTP credentials, the agent clients' own tokens, browser
 * cookies and saved passwords, password stores, and the shells' and REPLs' histories (they keep
 * the secrets pasted into a command line: `export TOKEN=…`, `mysql -p…`).
 */
export const HOME_CREDENTIALS: readonly HomeCredential[] = [
  // every file but the public ones: a private key may have any name (`~/.ssh/github`, `deploy_key`)
  { path: '.ssh', inside: ['*'], except: ['*.pub', 'known_hosts', 'known_hosts.old', 'config', 'config.d', 'authorized_keys', 'authorized_keys2'] },
  // `config` names profiles and regions (`aws configure list` shows them too); the rest are keys and the SSO and CLI caches' tokens
  { path: '.aws', inside: ['*'], except: ['config'] },
  { path: '.gnupg', inside: ['*'] },
  { path: '.config/gh', inside: ['hosts.yml'] },
  { path: '.config/gcloud', inside: ['credentials.db', 'access_tokens.db', 'application_default_credentials.json', 'legacy_credentials'] },
  { path: '.azure', inside: ['msal_token_cache.*', 'accessTokens.json', 'service_principal_entries.*'] },
  // a kubeconfig may have any name; the discovery caches hold none
  { path: '.kube', inside: ['*'], except: ['cache', 'http-cache'] },
  { path: '.docker/config.json' },
  { path: '.git-credentials' },
  { path: '.netrc' },
  { path: '.npmrc' },
  { path: '.pypirc' },
  { path: '.pgpass' },
  { path: '.my.cnf' },
  { path: '.gem/credentials' },
  { path: '.cargo/credentials' },
  { path: '.cargo/credentials.toml' },
  { path: '.terraform.d/credentials.tfrc.json' },
  { path: '.vault-token' },
  { path: '.config/hub' },
  { path: '.config/glab-cli/config.yml' },
  { path: '.config/containers/auth.json' },
  { path: '.config/helm/registry/config.json' },
  { path: '.composer/auth.json' },
  { path: '.config/composer/auth.json' },
  { path: '.terraformrc' },
  { path: '.claude/.credentials.json' },
  { path: '.codex/auth.json' },
  { path: '.gemini/oauth_creds.json' },
  // Claude Code's state: the API key of a Console login (`primaryApiKey`), user-scoped MCP servers' tokens (`env`), past prompts; and its backups
  { path: '.claude.json' },
  { path: '.claude.json.backup' },
  { path: '.claude/backups' },
  // GitHub Copilot's OAuth token (the editors' plugins and the CLI)
  { path: '.config/github-copilot', inside: ['hosts.json', 'apps.json'] },
  // cloud storage, data and ML platforms' keys and tokens
  { path: '.s3cfg' },
  { path: '.boto' },
  { path: '.config/rclone/rclone.conf' },
  { path: '.kaggle/kaggle.json' },
  { path: '.config/kaggle/kaggle.json' },
  { path: '.huggingface/token' },
  { path: '.cache/huggingface/token' },
  { path: '.cache/huggingface/stored_tokens' },
  { path: '.databrickscfg' },
  { path: '.databricks/token-cache.json' },
  { path: '.snowflake', inside: ['connections.toml', 'config.toml'] },
  // a private key any name (the API signing key, the session tokens), and `config` may hold its pass phrase
  { path: '.oci', inside: ['*'] },
  // hosting and deploy platforms' CLI logins (Heroku's is ~/.netrc; its config.json holds none)
  { path: '.netlify/config.json' },
  { path: '.config/netlify/config.json' },
  { path: '.vercel/auth.json' },
  { path: '.local/share/com.vercel.cli/auth.json' },
  { path: 'Library/Application Support/com.vercel.cli/auth.json' },
  { path: '.fly/config.yml' },
  { path: '.config/doctl/config.yaml' },
  { path: 'Library/Application Support/doctl/config.yaml' },
  { path: '.ngrok2/ngrok.yml' },
  { path: '.config/ngrok/ngrok.yml' },
  { path: 'Library/Application Support/ngrok/ngrok.yml' },
  { path: '.config/stripe/config.toml' },
  { path: '.supabase/access-token' },
  { path: '.config/configstore/firebase-tools.json' },
  // firebase-tools' application default credentials: the login's refresh token (`<account>_application_default_credentials.json`)
  { path: '.config/firebase', inside: ['*_application_default_credentials.json'] },
  { path: '.wakatime.cfg' },
  // encryption keys: sops' age keys, Ansible's vault password file
  { path: '.config/sops/age/keys.txt' },
  { path: 'Library/Application Support/sops/age/keys.txt' },
  { path: '.vault_pass' },
  { path: '.vault_pass.txt' },
  // wallets: their keys are the money
  { path: '.config/solana', inside: ['*.json'] },
  { path: '.ethereum/keystore' },
  { path: 'Library/Ethereum/keystore' },
  { path: '.bitcoin', inside: ['wallet.dat', 'wallets'] },
  { path: '.electrum/wallets' },
  // build tools' settings, which may hold a registry's login: the parser alone guards them (`readBy`)
  { path: '.m2/settings.xml', readBy: ['mvn', 'mvnw'] },
  { path: '.m2/settings-security.xml', readBy: ['mvn', 'mvnw'] },
  { path: '.gradle/gradle.properties', readBy: ['gradle', 'gradlew'] },
  { path: '.config/pip/pip.conf', readBy: ['pip', 'pip3'] },
  { path: '.pip/pip.conf', readBy: ['pip', 'pip3'] },
  { path: 'Library/Application Support/pip/pip.conf', readBy: ['pip', 'pip3'] },
  { path: '.yarnrc.yml', readBy: ['yarn'] },
  { path: '.bunfig.toml', readBy: ['bun'] },
  // dbt reads its warehouse logins for every command, parse and compile too: the project's build
  { path: '.dbt/profiles.yml', readBy: ['dbt'] },
  { path: '.password-store' },
  { path: '.local/share/keyrings' },
  { path: 'Library/Keychains' },
  { path: '.mozilla', inside: FIREFOX_PROFILE_SECRETS.map((p) => `firefox/${p}`) },
  { path: 'Library/Application Support/Firefox', inside: FIREFOX_PROFILE_SECRETS.map((p) => `Profiles/${p}`) },
  { path: '.config/google-chrome', inside: CHROMIUM_PROFILE_SECRETS },
  { path: '.config/chromium', inside: CHROMIUM_PROFILE_SECRETS },
  { path: '.config/BraveSoftware', inside: CHROMIUM_PROFILE_SECRETS.map((p) => `Brave-Browser/${p}`) },
  { path: '.config/microsoft-edge', inside: CHROMIUM_PROFILE_SECRETS },
  { path: 'Library/Application Support/Google/Chrome', inside: CHROMIUM_PROFILE_SECRETS },
  // chat apps on Electron (a Chromium profile at the top of their folder): the session's cookies and the token in its local storage
  ...['.config/Slack', '.config/discord', 'Library/Application Support/Slack', 'Library/Application Support/discord'].map((path) => ({
    path,
    inside: ELECTRON_SESSION_SECRETS,
  })),
  // the editors' state database keeps their extensions' secrets (encrypted with a fixed key where no keyring runs) and Cursor's login
  ...['Code', 'Code - Insiders', 'VSCodium', 'Cursor', 'Windsurf'].flatMap((editor) =>
    ['.config', 'Library/Application Support'].flatMap((base) =>
      ['state.vscdb', 'state.vscdb.backup'].map((file) => ({ path: `${base}/${editor}/User/globalStorage/${file}` })),
    ),
  ),
  ...[
    '.bash_history',
    '.zsh_history',
    '.zhistory',
    '.histfile',
    '.local/share/fish/fish_history',
    '.python_history',
    '.node_repl_history',
    '.psql_history',
    '.mysql_history',
    '.sqlite_history',
    '.rediscli_history',
    '.irb_history',
  ].map((path) => ({ path })),
];

/** What the sandbox hides under the home folder: each HOME_CREDENTIALS entry's `path` but the build tools' settings (`readBy`). */
export const HOME_SECRETS: readonly string[] = HOME_CREDENTIALS.filter((c) => !c.readBy).map((c) => c.path);

/**
 * Files that hold secrets by their name, wherever they lie (globs over a file's name): the
 * sandbox hides them in the working tree, the parser denies reading them. The SSH keys are every
 * name ssh-keygen gives a private key (`id_ed25519_sk` too) and the copies kept beside it
 * (`id_rsa.old`); each is spelled out, since `id_rsa*` would also name the end of a word like
 * `id_rsa'))` in a one-liner's code.
 */
export const PROJECT_SECRET_NAMES: readonly string[] = [
  '.env',
  '.env.*',
  '*.pem',
  '*.key',
  '*.p12',
  '*.pfx',
  'id_rsa',
  'id_rsa.*',
  'id_dsa',
  'id_dsa.*',
  'id_ecdsa',
  'id_ecdsa.*',
  'id_ecdsa_sk',
  'id_ecdsa_sk.*',
  'id_ed25519',
  'id_ed25519.*',
  'id_ed25519_sk',
  'id_ed25519_sk.*',
  '.npmrc.secret',
  '.git-credentials',
  '.netrc',
  // NSS's key databases (Firefox's profile, Chromium's ~/.pki/nssdb): the key that opens the saved passwords, or a client certificate's, wherever it is copied
  'key4.db',
  'key3.db',
];

/** What ends a public key's name (`id_ed25519.pub`): public by design, never a secret, nor matched by a pattern's wildcard (safety/path-rules.ts). */
export const PUBLIC_KEY_SUFFIX = '.pub';

/**
 * Names among PROJECT_SECRET_NAMES that hold no secret by convention: public keys, and source
 * files named after a key, whose last extension is a language's (`id_rsa.test.ts`,
 * `id_ed25519.spec.js`, `.env.d.ts`: code, not a copy of the key). A template: SECRET_TEMPLATE_SUFFIXES.
 */
export const PROJECT_SECRET_EXCEPTIONS: readonly string[] = [
  `*${PUBLIC_KEY_SUFFIX}`,
  ...['ts', 'tsx', 'mts', 'cts', 'js', 'jsx', 'mjs', 'cjs', 'py', 'rb', 'go', 'rs', 'java', 'kt', 'swift', 'php', 'cs', 'snap'].map((ext) => `*.${ext}`),
];

/**
 * What follows a secret's name in the name of its template, the file committed for others to
 * copy and fill in (`.env.example`, `.env.local.example`, `.env.development.sample`,
 * `.env.production.template`, `.env.dist`, `.env.defaults`): a template holds no secret. A name
 * after the suffix makes a secret again (`.env.local.example.bak`, `.env.example.local`).
 */
export const SECRET_TEMPLATE_SUFFIXES: readonly string[] = ['.example', '.sample', '.template', '.dist', '.defaults'];

/**
 * Whether a file named `name` is a template: its name ends in a template suffix
 * (SECRET_TEMPLATE_SUFFIXES). What stands before the suffix of a name PROJECT_SECRET_NAMES match
 * is a secret's name (`.env.local` of `.env.local.example`), and a glob ending so (`.env.*.example`)
 * names templates only.
 */
export function isSecretTemplate(name: string): boolean {
  return SECRET_TEMPLATE_SUFFIXES.some((suffix) => name.length > suffix.length && name.endsWith(suffix));
}

let secretMatchers: { names: { glob: string; matcher: GlobMatcher }[]; exceptions: GlobMatcher[] } | null = null;

/** The glob of PROJECT_SECRET_NAMES a file named `name` matches, or null: none, a template (isSecretTemplate) or a public key (PROJECT_SECRET_EXCEPTIONS). */
export function secretNameGlob(name: string): string | null {
  if (isSecretTemplate(name)) return null;
  secretMatchers ??= {
    names: PROJECT_SECRET_NAMES.map((glob) => ({ glob, matcher: globMatcher(glob, { braces: false }) })),
    exceptions: PROJECT_SECRET_EXCEPTIONS.map((g) => globMatcher(g, { braces: false })),
  };
  const hit = secretMatchers.names.find((m) => m.matcher.test(name));
  return hit && !secretMatchers.exceptions.some((m) => m.test(name)) ? hit.glob : null;
}

/** Whether a file named `name` holds a secret by its name (`.env`, `*.pem`, `id_ed25519`…; templates and public keys excepted). */
export function isSecretName(name: string): boolean {
  return secretNameGlob(name) !== null;
}

/** The system's credentials, the password hashes: the sandbox hides them (SYSTEM_SECRETS), the parser denies reading or writing them. */
export const SYSTEM_CREDENTIALS: readonly string[] = ['/etc/shadow', '/etc/gshadow'];

/** System files that hold secrets even for a reader that is allowed everything else: the credentials, and who may become root (a write there is the system family's). */
export const SYSTEM_SECRETS: readonly string[] = [...SYSTEM_CREDENTIALS, '/etc/sudoers'];

/**
 * Credentials in the user's runtime folder (`$XDG_RUNTIME_DIR`, `/run/user/$UID`), relative to
 * it: podman's, buildah's and skopeo's registry logins (`containers/auth.json`, their default
 * before `~/.config/containers/auth.json`). The sandbox empties that folder whole (SERVER_SOCKET_DIRS);
 * the parser denies reading or writing these in any user's.
 */
export const RUNTIME_CREDENTIALS: readonly string[] = ['containers/auth.json'];

/**
 * Caches under the home folder package managers and build tools write: writable in the sandbox
 * (created when missing, the first two only), so installs and builds work.
 */
export const HOME_CACHES: readonly string[] = [
  '.cache',
  '.npm',
  '.local/share/pnpm',
  '.pnpm-store',
  '.yarn',
  '.bun',
  '.cargo/registry',
  '.cargo/git',
  'go/pkg',
  '.gradle',
  '.m2',
  '.nuget/packages',
  '.deno',
  '.rustup',
  '.local/state',
];
export const HOME_CACHES_CREATED: readonly string[] = ['.cache', '.npm'];

/** Folders never walked when looking for the tree's secrets: installed packages and git's own. */
export const SECRET_SCAN_SKIPPED: readonly string[] = [
  '.git',
  'node_modules',
  '.venv',
  'venv',
  '__pycache__',
  'target',
  '.gradle',
  '.next',
  '.turbo',
  'dist',
  'build',
  'vendor',
];

/** At most this many entries are read when looking for the tree's secrets (a file beyond them is left to the parser). */
export const SECRET_SCAN_LIMIT = 20_000;

/**
 * The machine's servers (docs/safety.md, "The machine's servers"): a server the user started
 * outside the sandbox runs what a client asks with none of the sandbox's limits (tmux and screen
 * run windows, systemd's user manager and the session bus run units, docker and podman run
 * containers over `/`, an ssh or gpg agent signs). So a command in the sandbox reaches a Unix
 * socket of the machine only where the policy lets it: the folders below are emptied, every other
 * socket the machine listens on is refused, the variables that point clients at them are unset.
 */

/** What `sandbox.sockets` lets through (settings.md, safety.md). */
export const SANDBOX_SOCKETS_HELP =
  "the machine's servers' Unix sockets (or folders of them) commands may reach, as absolute paths; none by default. Docker's (/var/run/docker.sock) lets every command run a container over the whole machine: the sandbox then holds nothing back";

/**
 * Folders of servers' sockets, emptied in the sandbox (beside the user's runtime folder —
 * `$XDG_RUNTIME_DIR`, `/run/user/$UID` —, tmux's `${TMUX_TMPDIR:-/tmp}/tmux-$UID` and `$SCREENDIR`).
 */
export const SERVER_SOCKET_DIRS: readonly string[] = [
  '/run/screen',
  '/var/run/screen',
  '/tmp/screens',
  '/tmp/uscreens',
  '/run/dbus',
  '/run/containerd',
  '/run/podman',
  '/run/crio',
  '/run/libvirt',
  '/run/docker',
];

/**
 * Servers' sockets refused in the sandbox even when the machine's list of listening sockets does
 * not hold them (a container's view of the host's docker socket, bound in from another network
 * namespace).
 */
export const SERVER_SOCKETS: readonly string[] = [
  '/run/docker.sock',
  '/var/run/docker.sock',
  '/run/snapd.socket',
  '/run/snapd-snap.socket',
  '/run/systemd/private',
];

/**
 * The system's sockets a command still reaches, files or folders: name and user look-ups (nscd,
 * sssd, systemd-resolved, systemd's user database) and the journal. None runs what it is asked.
 */
export const LOOKUP_SOCKETS: readonly string[] = [
  '/run/nscd/socket',
  '/var/run/nscd/socket',
  '/var/lib/sss/pipes/nss',
  '/run/systemd/resolve/io.systemd.Resolve',
  '/run/systemd/userdb',
  '/run/systemd/journal',
];

/**
 * Variables that point a client at a server outside: unset in the sandbox, unless the socket one
 * names is let through (`sandbox.sockets`).
 */
export const SERVER_SOCKET_ENV: readonly string[] = [
  'SSH_AUTH_SOCK',
  'SSH_AGENT_PID',
  'GPG_AGENT_INFO',
  'DBUS_SESSION_BUS_ADDRESS',
  'DBUS_SYSTEM_BUS_ADDRESS',
  'TMUX',
  'TMUX_PANE',
  'STY',
  'DOCKER_HOST',
  'CONTAINER_HOST',
];

/** How Debian/Ubuntu, Fedora and Arch install bubblewrap: the line every "no sandbox" message gives. */
export const BWRAP_INSTALL = 'apt-get install -y bubblewrap (Debian, Ubuntu), dnf install -y bubblewrap (Fedora), pacman -S bubblewrap (Arch)';
