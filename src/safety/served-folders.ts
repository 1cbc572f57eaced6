import { operandAt } from './argv.ts';
import type { Invocation } from './command.ts';
import type { Finding } from './git-rules.ts';
import { resolvePath } from './paths.ts';
import { runnerInner } from './runners.ts';

/**
 * Static file servers (docs/safety.md, "Remote shells, served folders and settings that send credentials elsewhere"): each serves a folder
 * and every file below it to whoever reaches its port — on all addresses for most by default, and
 * to the whole internet through a tunnel (`ngrok http file:///…`). Serving the home folder, a
 * folder above it or one of its dotfolders hands out the keys, tokens and shell histories it
 * holds (`rclone serve webdav ~` too); a build folder or the project passes (`python3 -m http.server`, `npx serve dist`, `php -S
 * localhost:8000 -t public`, `rclone serve http remote:bucket`). The port alone (`ngrok http 8000`) tells no folder: it passes.
 */

/** The options of a server that take a value (so that value names no folder), by program. */
const VALUED: Record<string, ReadonlySet<string>> = {
  'http-server': new Set([
    '-p',
    '--port',
    '-a',
    '-d',
    '-i',
    '-e',
    '--ext',
    '-s',
    '-c',
    '-t',
    '-P',
    '--proxy',
    '-C',
    '--cert',
    '-K',
    '--key',
    '--username',
    '--password',
    '-u',
    '--user',
  ]),
  serve: new Set(['-l', '--listen', '-p', '-c', '--config', '--ssl-cert', '--ssl-key', '--ssl-pass']),
  'live-server': new Set([]),
  // OnionShare shares the files and folders it is given through an onion service, reachable from anywhere
  'onionshare-cli': new Set(['--config', '--title', '--auto-start-timer', '--auto-stop-timer', '--connect-timeout', '--persistent', '--data-dir']),
  miniserve: new Set([
    '-p',
    '--port',
    '-i',
    '--interfaces',
    '-a',
    '--auth',
    '-c',
    '--color-scheme',
    '-t',
    '--title',
    '--route-prefix',
    '--header',
    '--tls-cert',
    '--tls-key',
    '--index',
  ]),
  dufs: new Set([
    '-b',
    '--bind',
    '-p',
    '--port',
    '-a',
    '--auth',
    '--path-prefix',
    '--config',
    '--tls-cert',
    '--tls-key',
    '--log-format',
    '--hidden',
    '--assets',
  ]),
  darkhttpd: new Set(['--port', '--addr', '--log', '--index', '--mimetypes', '--default-mimetype', '--uid', '--gid', '--pidfile', '--auth', '--header']),
};

/** Servers whose folder is one option's value (`updog -d DIR`, `webfsd -r DIR`, `sftpgo portable -d DIR`). */
const FOLDER_OPTION: Record<string, { apart: RegExp; joined: RegExp }> = {
  updog: { apart: /^(-d|--directory)$/, joined: /^--directory=(.+)$/ },
  webfsd: { apart: /^-r$/, joined: /^-r(.+)$/ },
  sftpgo: { apart: /^(-d|--directory)$/, joined: /^--directory=(.+)$/ },
};

/** rclone's options that take a value (the address, the credentials, the cache), before or after the folder. */
const RCLONE_VALUED: ReadonlySet<string> = new Set([
  '--addr',
  '--user',
  '--pass',
  '--htpasswd',
  '--config',
  '--cert',
  '--key',
  '--client-ca',
  '--baseurl',
  '--realm',
  '--dir-cache-time',
  '--vfs-cache-mode',
  '--log-file',
  '--template',
]);

/** The folder `inv` serves as written (`.` for the folder it runs in), or null when it serves none. */
export function servedFolder(inv: Invocation): string | null {
  const args = inv.args.map((w) => w.value);
  const inner = /^python[\d.]*$|^py$/.test(inv.program) ? runnerInner(inv.program, args) : null;
  if (inner?.[0] === 'http.server') return optionValue(inner[1], /^(-d|--directory)$/, /^--directory=(.+)$/) ?? '.';
  if (inner?.[0] === 'SimpleHTTPServer') return '.';
  if (/^php[\d.]*$/.test(inv.program) && args.includes('-S')) return optionValue(args, /^-t$/, /^-t(.+)$/) ?? '.';
  if (inv.program === 'httpd' && inv.via.includes('busybox')) return optionValue(args, /^-h$/, /^-h(.+)$/) ?? '.';
  if (/^ruby[\d.]*$/.test(inv.program) && args.includes('-run')) {
    // `-e httpd` apart or joined (`-ehttpd`)
    const at = args.findIndex((a, i) => a === '-ehttpd' || (a === 'httpd' && args[i - 1] === '-e'));
    if (at < 0) return null;
    // `httpd -- --port=8000 ~`: a `--` ends ruby's options, httpd's own follow
    const dir = operandAt(args, new Set(['-p', '--port', '-b', '--bind-address']), args[at + 1] === '--' ? at + 2 : at + 1);
    return dir < 0 ? '.' : args[dir]!;
  }
  // `rclone serve http|webdav|ftp|sftp|dlna|nfs|s3|restic ~`: a local folder or a remote's (`remote:path`, no folder here)
  if (inv.program === 'rclone' && args[0] === 'serve' && args[1] && !args[1].startsWith('-')) {
    const dir = operandAt(args, RCLONE_VALUED, 2);
    return dir < 0 || args[dir]!.includes(':') ? null : args[dir]!;
  }
  if (Object.hasOwn(VALUED, inv.program)) {
    const dir = operandAt(args, VALUED[inv.program]);
    return dir < 0 ? '.' : args[dir]!;
  }
  if (inv.program === 'caddy' && args[0] === 'file-server') return optionValue(args, /^(-r|--root)$/, /^--root=(.+)$/) ?? '.';
  if (inv.program === 'ngrok' || inv.program === 'cloudflared') {
    const file = args.map((a) => a.replace(/^--url=/, '')).find((a) => a.startsWith('file://'));
    return file ? decodeURI(file.slice(7)) || '/' : null;
  }
  if (Object.hasOwn(FOLDER_OPTION, inv.program)) {
    const o = FOLDER_OPTION[inv.program]!;
    return optionValue(args, o.apart, o.joined) ?? (inv.program === 'updog' ? '.' : null);
  }
  return sharedFolder(inv.program, args);
}

/** A path written as one (`/`, `~`, `./x`), not a port or an address. */
const PATH = /^(?:[/~.]|\$HOME)/;

/**
 * The folder a share or a tunnel hands out: `zrok share public|private --backend-mode web|drive
 * DIR`, `tailscale serve|funnel DIR`, `git daemon` (its `--base-path`, else the folders it lists), `net usershare add NAME DIR`, `exportfs HOST:DIR`; null for another command.
 */
function sharedFolder(program: string, args: readonly string[]): string | null {
  if (args.some((a) => a === '--help' || a === '-h')) return null;
  if (program === 'zrok' && args[0] === 'share') {
    const mode = optionValue(args, /^(-b|--backend-mode)$/, /^--backend-mode=(.+)$/);
    return mode === 'web' || mode === 'drive' ? (args.slice(2).findLast((a) => PATH.test(a)) ?? null) : null;
  }
  if (program === 'tailscale' && (args[0] === 'serve' || args[0] === 'funnel')) return args.slice(1).findLast((a) => PATH.test(a)) ?? null;
  if (program === 'git' && args[0] === 'daemon') {
    const base = optionValue(args, /^--base-path$/, /^--base-path=(.+)$/);
    // with neither it serves the paths a client asks for, with `git-daemon-export-ok` or `--export-all`: read by neither (the everyday corpus runs it so)
    return base ?? args.slice(1).findLast((a) => !a.startsWith('-')) ?? null;
  }
  if (program === 'net' && args[0] === 'usershare' && args[1] === 'add') return args[3] ?? null;
  if (program === 'exportfs') return args.findLast((a) => /^[^-/][^:]*:\//.test(a))?.replace(/^[^:]*:/, '') ?? null;
  return null;
}

/** The value of an option given apart (`-d DIR`) or joined (`--directory=DIR`, `-tDIR`). */
function optionValue(args: readonly string[], apart: RegExp, joined: RegExp): string | null {
  for (let i = 0; i < args.length; i++) {
    if (apart.test(args[i]!)) return args[i + 1] ?? null;
    const m = joined.exec(args[i]!);
    if (m) return m[1]!;
  }
  return null;
}

/** The finding on a server of the home folder, a folder holding it, or a folder below a dotfolder of it; null for any other, or one only the running shell knows. */
export function checkServedFolder(inv: Invocation, cwd: string | null, home: string): Finding | null {
  const written = servedFolder(inv);
  if (written === null || written.includes('\uE000')) return null;
  if (cwd === null && !written.startsWith('/')) return null;
  const folder = resolvePath(written, { cwd: cwd ?? '/', home });
  const holdsHome = folder === '/' || home === folder || home.startsWith(`${folder}/`);
  if (!holdsHome && !folder.startsWith(`${home}/.`)) return null;
  return {
    rule: 'network.servedFolder',
    reason: `\`${inv.program}\` would serve ${folder} to whoever reaches its port, the keys, tokens and histories in ${holdsHome ? 'the home folder' : 'it'} with it: serve the project's own folder (\`--directory dist\`)`,
  };
}
