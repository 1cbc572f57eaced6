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

/**
 * The variable a sandboxed command finds its process's ancestors outside the sandbox in (space-separated
 * ids, nearest first): inside, bubblewrap's own process namespace hides them, and a git hook finds the
 * agent session it runs in by its harness being an ancestor (session/owner.ts reads it back).
 */
export const SANDBOX_OUTER_PIDS_ENV = 'AXME_OUTER_PIDS';

/**
 * The shell a command runs with inside the sandbox, and the one the text that starts the sandbox is
 * written for (it reads bubblewrap's status through `PIPESTATUS`): the shell Codex and Gemini CLI run
 * their commands with.
 */
export const SANDBOX_SHELL = '/bin/bash';

/** Where commands in an allowlisted sandbox find the proxy (inside their own network namespace). */
export const SANDBOX_PROXY_PORT = 3128;

/**
 * The proxy's socket as the bridge inside an allowlisted sandbox names it: a link in the sandbox's
 * own `/dev` (a tmpfs of bubblewrap's, gone with it) to the socket's real path, so socat's command
 * line, which any `pkill -f` outside reads, holds no path of the user's (their project's name,
 * `.sock`).
 */
export const SANDBOX_PROXY_LINK = '/dev/axme-net';

/** How Debian/Ubuntu, Fedora and Arch install socat, the bridge an allowlisted sandbox reaches its proxy through. */
export const SOCAT_INSTALL = 'apt-get install -y socat (Debian, Ubuntu), dnf install -y socat (Fedora), pacman -S socat (Arch)';

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

/** secretNameGlob's answers by name, up to NAMES_REMEMBERED of them (then forgotten all at once): a command line names the same files again and again. */
const secretNameGlobs = new Map<string, string | null>();
const NAMES_REMEMBERED = 4_096;

/** The glob of PROJECT_SECRET_NAMES a file named `name` matches, or null: none, a template (isSecretTemplate) or a public key (PROJECT_SECRET_EXCEPTIONS). */
export function secretNameGlob(name: string): string | null {
  let glob = secretNameGlobs.get(name);
  if (glob === undefined) {
    glob = secretNameGlobAnew(name);
    if (name.length <= 255) {
      if (secretNameGlobs.size >= NAMES_REMEMBERED) secretNameGlobs.clear();
      secretNameGlobs.set(name, glob);
    }
  }
  return glob;
}

function secretNameGlobAnew(name: string): string | null {
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

/**
 * The machine's network logins, readable by root alone: NetworkManager's connections (Wi-Fi keys,
 * VPN passwords and certificates' passphrases), wpa_supplicant's networks, PPP's secrets. The
 * parser denies reading or writing them (safety/path-rules.ts); root-only, the sandbox needs no rule.
 */
export const SYSTEM_NETWORK_SECRETS: readonly string[] = [
  '/etc/NetworkManager/system-connections/*',
  '/etc/wpa_supplicant/*.conf',
  '/etc/ppp/chap-secrets',
  '/etc/ppp/pap-secrets',
  // the VPNs' own: WireGuard's interfaces (each with its private key), OpenVPN's client and server settings (their keys inline, or a password file beside them)
  '/etc/wireguard/*',
  '/etc/openvpn/*',
  '/etc/openvpn/client/*',
  '/etc/openvpn/server/*',
];

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
