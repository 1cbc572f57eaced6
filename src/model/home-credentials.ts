/**
 * The credentials under the home folder, one list (docs/safety.md, "Credentials and paths spelled
 * another way"): the kernel sandbox hides them (sandbox/policy.ts), the parser denies reading or
 * writing them (safety/path-rules.ts SECRET_PATHS). Plain data: the hook's fast path reads it
 * without loading a schema.
 */

/**
 * A credential store under the home folder, one entry of HOME_CREDENTIALS: `path` is the file or
 * folder (relative to the home folder) the sandbox hides; `inside`, the globs below it that hold
 * the secrets, which the parser denies reading or writing (without it: `path` itself); `except`,
 * the names directly below `path` that `inside` would name but that hold none (`~/.ssh/config`).
 * `readBy`: a file a program reads for itself — the agent clients' transcripts, which axme's
 * audit reads — or a build tool's own settings, which may hold a registry's or a mirror's login (Maven's
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
  /**
   * The programs that take this credential by an option naming its path (`kubectl --kubeconfig
   * ~/.kube/prod.yaml get ns`), as they take it from its default place: so handed, it is used,
   * not read out (safety/own-credentials.ts); every other way of reading it stays denied.
   * `verbs`: the program's subcommands that take it as an operand and print none of its secrets
   * (`security show-keychain-info ~/Library/Keychains/login.keychain-db`).
   */
  takenBy?: { programs: readonly string[]; options: readonly string[]; verbs?: readonly string[] };
}

/** The cluster clients that take a kubeconfig by `--kubeconfig PATH`, as they read `$KUBECONFIG` or `~/.kube/config`. */
const KUBECONFIG_READERS = [
  'kubectl',
  'kubecolor',
  'oc',
  'helm',
  'helmfile',
  'k9s',
  'kubens',
  'kubectx',
  'stern',
  'kubeseal',
  'istioctl',
  'linkerd',
  'cilium',
  'velero',
  'flux',
  'skaffold',
  'kubeadm',
];

/**
 * macOS `security`'s subcommands that take a keychain as an operand and print no secret of it: its
 * settings, the search list, its lock, certificates and code-signing identities (their public part).
 * Not `find-generic-password`, `find-internet-password`, `dump-keychain`, `export` (they print or
 * write out its passwords and keys).
 */
const KEYCHAIN_VERBS = [
  'show-keychain-info',
  'list-keychains',
  'default-keychain',
  'login-keychain',
  'unlock-keychain',
  'lock-keychain',
  'find-certificate',
  'find-identity',
  'verify-cert',
];

/** axme's audit, which reads a session's transcript it is handed (`axme audit ~/.claude/projects/<key>/<session>.jsonl`) and prints none of it. */
const AUDITED = { programs: ['axme'], options: [], verbs: ['audit'] };

/**
 * The files a Chromium-based browser keeps a profile's cookies, saved passwords and card data in
 * (`<profile>/Cookies`), and its history: the URLs visited carry tokens (a password-reset link, an
 * OAuth code, a signed URL).
 */
const CHROMIUM_PROFILE_SECRETS = ['*/Cookies', '*/Network/Cookies', '*/Login Data', '*/Web Data', '*/History'];
/** The files Firefox keeps a profile's cookies, saved passwords and history (places.sqlite: the URLs visited) in. */
const FIREFOX_PROFILE_SECRETS = ['*/cookies.sqlite', '*/logins.json', '*/key4.db', '*/key3.db', '*/signons.sqlite', '*/places.sqlite'];
/** Safari's history (the URLs visited, tokens among them), as the other browsers' is. */
const SAFARI_SECRETS = ['History.db', 'History.db-wal', 'History.db-shm'];
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
  { path: '.kube', inside: ['*'], except: ['cache', 'http-cache'], takenBy: { programs: KUBECONFIG_READERS, options: ['--kubeconfig'] } },
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
  // the agent clients' own transcripts and prompt histories: every command, file and output a
  // session saw, the secrets it printed among them (as a shell's history keeps what was typed).
  // axme's audit reads a transcript for itself (`axme audit <transcript>`); the folders beside
  // them (Claude Code's auto memory, `projects/<key>/memory`) hold none, and stay readable in the
  // sandbox, which leaves these to the parser alone (`readBy`)
  { path: '.claude/projects', inside: ['*/*.jsonl', '*/*/subagents'], readBy: ['axme'], takenBy: AUDITED },
  { path: '.claude/history.jsonl', readBy: ['axme'] },
  { path: '.codex/sessions', inside: ['*.jsonl', '*/*/*/*.jsonl'], readBy: ['axme'], takenBy: AUDITED },
  { path: '.codex/history.jsonl', readBy: ['axme'] },
  { path: '.gemini/tmp', inside: ['*/chats', '*/logs.json', '*/shell_history'], readBy: ['axme'], takenBy: AUDITED },
  // GitHub Copilot's OAuth token (the editors' plugins and the CLI)
  { path: '.config/github-copilot', inside: ['hosts.json', 'apps.json'] },
  // cloud storage, data and ML platforms' keys and tokens
  { path: '.s3cfg' },
  { path: '.boto' },
  // rclone's remotes and their keys: `rclone --config FILE lsf remote:` takes it as from its default place
  { path: '.config/rclone/rclone.conf', takenBy: { programs: ['rclone'], options: ['--config'] } },
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
  // more hosting, cloud and CI CLIs' logins: Pulumi's, Cloudflare's wrangler (before v3 and after), Railway's, Expo's,
  // Linode's, Hetzner's, Scaleway's, Cloud Foundry's, CircleCI's, Travis', Argo CD's, Talos', JFrog's, Sentry's, Gitea's and lab's tokens
  { path: '.pulumi/credentials.json' },
  { path: '.wrangler/config/default.toml' },
  { path: '.config/.wrangler/config/default.toml' },
  { path: '.railway/config.json' },
  { path: '.expo/state.json' },
  { path: '.config/linode-cli' },
  { path: '.config/hcloud/cli.toml' },
  { path: '.config/scw/config.yaml' },
  { path: '.cf/config.json' },
  { path: '.circleci/cli.yml' },
  { path: '.travis/config.yml' },
  { path: '.config/argocd/config' },
  { path: '.talos/config' },
  { path: '.jfrog', inside: ['jfrog-cli.conf*'] },
  { path: '.sentryclirc' },
  { path: '.config/tea/config.yml' },
  { path: '.config/lab/lab.toml' },
  // OpenStack's clouds (their passwords or application credentials; `secure.yaml` the secrets split off), IBM Cloud's CLI token
  { path: '.config/openstack', inside: ['clouds.yaml', 'secure.yaml'] },
  { path: '.bluemix/config.json' },
  // FileZilla's saved sites and recent servers keep their passwords (base64, no encryption); Bitwarden CLI's vault and session
  { path: '.config/filezilla', inside: ['sitemanager.xml', 'recentservers.xml', 'filezilla.xml'] },
  { path: '.config/Bitwarden CLI/data.json' },
  { path: 'Library/Application Support/Bitwarden CLI/data.json' },
  // package registries' and data platforms' logins: Dart's pub (its OAuth refresh token; the older
  // place too), Hex's API key, MinIO's client's keys, Turso's and Neon's CLI tokens
  { path: '.config/dart/pub-credentials.json' },
  { path: 'Library/Application Support/dart/pub-credentials.json' },
  { path: '.pub-cache/credentials.json' },
  { path: '.hex/hex.config' },
  { path: '.mc/config.json' },
  { path: '.config/turso/settings.json' },
  { path: 'Library/Application Support/turso/settings.json' },
  { path: '.config/neonctl/credentials.json' },
  // more clouds' CLI logins: Civo's, Alibaba Cloud's, Tencent Cloud's (its key file and its
  // profile), UpCloud's, Modal's token, Teleport's keys and certificates; App Store Connect's API keys
  { path: '.config/civo.json' },
  { path: '.civo.json' },
  { path: '.aliyun/config.json' },
  { path: '.tccli', inside: ['*.credential'] },
  { path: '.config/upctl.yaml' },
  { path: '.modal.toml' },
  { path: '.tsh', inside: ['keys', '*.yaml'] },
  { path: '.appstoreconnect/private_keys', inside: ['*.p8'] },
  { path: '.private_keys', inside: ['*.p8'] },
  // the key ollama signs its pushes to ollama.com with; CPAN's upload login
  { path: '.ollama/id_ed25519' },
  { path: '.pause' },
  // RubyGems' key where it follows XDG
  { path: '.local/share/gem/credentials' },
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
  // mail clients' and senders' settings, which keep the account's password (or the command that prints it);
  // a package tool's settings with a repository's login: the open build service's, Poetry's, cachix's token
  { path: '.msmtprc', readBy: ['msmtp'] },
  { path: '.config/msmtp/config', readBy: ['msmtp'] },
  { path: '.mbsyncrc', readBy: ['mbsync'] },
  { path: '.config/isyncrc', readBy: ['mbsync'] },
  { path: '.config/aerc', inside: ['accounts.conf'], readBy: ['aerc'] },
  { path: '.oscrc', readBy: ['osc'] },
  { path: '.config/osc/oscrc', readBy: ['osc'] },
  { path: '.config/pypoetry/auth.toml', readBy: ['poetry'] },
  { path: 'Library/Application Support/pypoetry/auth.toml', readBy: ['poetry'] },
  { path: '.config/cachix/cachix.dhall', readBy: ['cachix'] },
  // dbt reads its warehouse logins for every command, parse and compile too: the project's build
  { path: '.dbt/profiles.yml', readBy: ['dbt'] },
  // NuGet's settings may hold a feed's password (`ClearTextPassword`), sbt's and Ivy's a repository's login
  { path: '.nuget/NuGet/NuGet.Config', readBy: ['dotnet', 'nuget'] },
  { path: '.config/NuGet/NuGet.Config', readBy: ['dotnet', 'nuget'] },
  { path: '.sbt/.credentials', readBy: ['sbt'] },
  { path: '.ivy2/.credentials', readBy: ['sbt'] },
  // Bundler's settings keep a private gem source's login (`BUNDLE_GEMS__ACME__COM: user:pass`), Helm's repositories file a chart repository's password
  { path: '.bundle/config', readBy: ['bundle', 'bundler'] },
  { path: '.config/helm/repositories.yaml', readBy: ['helm', 'helmfile'] },
  { path: '.password-store' },
  { path: '.local/share/keyrings' },
  // the keychains in it (the folder's listing shows their names only, as `ls ~/.ssh`); macOS's
  // `security` takes one as an operand to describe, unlock or search it for a certificate, which prints no password
  {
    path: 'Library/Keychains',
    inside: ['*'],
    takenBy: { programs: ['security'], options: [], verbs: KEYCHAIN_VERBS },
  },
  { path: '.mozilla', inside: FIREFOX_PROFILE_SECRETS.map((p) => `firefox/${p}`) },
  // Thunderbird's profiles are Firefox's: its saved mail passwords and the key that opens them
  { path: '.thunderbird', inside: FIREFOX_PROFILE_SECRETS },
  // Safari's cookies (also in its container, newer macOS) and history; the texts of Messages (one-time sign-in codes come by SMS)
  { path: 'Library/Cookies', inside: ['*.binarycookies'] },
  { path: 'Library/Containers/com.apple.Safari/Data/Library/Cookies', inside: ['*.binarycookies'] },
  { path: 'Library/Safari', inside: SAFARI_SECRETS },
  { path: 'Library/Messages', inside: ['chat.db', 'chat.db-wal', 'chat.db-shm', 'Attachments'] },
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
    '.dbshell',
    '.local/share/atuin/history.db',
  ].map((path) => ({ path })),
];

/** What the sandbox hides under the home folder: each HOME_CREDENTIALS entry's `path` but the build tools' settings (`readBy`). */
export const HOME_SECRETS: readonly string[] = HOME_CREDENTIALS.filter((c) => !c.readBy).map((c) => c.path);
