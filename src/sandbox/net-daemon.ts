import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childProcess, crypto, net } from '../model/builtins.ts';

/**
 * The allowlisted sandbox's proxy process (sandbox/proxy-main.ts): where its socket is, and
 * starting it when nothing answers there. One proxy per clone and list of domains: a changed list
 * gets a new socket (and the old proxy stops when idle).
 */

/** Unix socket paths are limited to 108 bytes; beyond this a clone's socket moves to a private folder of the temp dir. */
const SOCKET_PATH_LIMIT = 100;

/** The proxy's socket for this clone and these domains. */
export function proxySocketPath(commonDir: string, domains: readonly string[], uid: number = process.getuid?.() ?? 0): string {
  const id = crypto()
    .createHash('sha256')
    .update(`${commonDir}\0${[...domains].sort().join('\0')}`)
    .digest('hex')
    .slice(0, 12);
  const near = join(commonDir, 'axme', 'sandbox', `net-${id}.sock`);
  // socat's address syntax splits on `,` and `:`: a clone whose path holds one uses the temp dir's folder
  if (Buffer.byteLength(near) <= SOCKET_PATH_LIMIT && /^[\w./@+-]+$/.test(near)) return near;
  const dir = join(tmpdir(), `axme-${uid}`);
  return join(dir, `net-${id}.sock`);
}

/** The file the proxy appends each refused host to. */
export const deniedLogPath = (commonDir: string): string => join(commonDir, 'axme', 'sandbox', 'network-denied.log');

/** The proxy program: dist/sandbox-proxy.cjs beside axme's code. */
export function proxyProgram(installDir: string | null): string | null {
  for (const dir of installDir ? [installDir, join(installDir, '..', '..', 'dist')] : []) {
    const p = join(dir, 'sandbox-proxy.cjs');
    if (existsSync(p)) return p;
  }
  return null;
}

/**
 * Makes sure a proxy answers on `socket`: starts one when none does and waits until it says it is
 * ready. Returns null when one answers, else why none does (commands then reach no network: the
 * sandbox has none of its own, so a missing proxy fails closed).
 */
export async function ensureNetworkProxy(input: {
  socket: string;
  domains: readonly string[];
  deniedLog: string;
  installDir: string | null;
}): Promise<string | null> {
  if (await answers(input.socket)) return null;
  const program = proxyProgram(input.installDir);
  if (!program) return "axme's sandbox proxy (dist/sandbox-proxy.cjs) is not there: reinstall axme";
  try {
    mkdirSync(join(input.socket, '..'), { recursive: true, mode: 0o700 });
  } catch {
    // the proxy says why it cannot listen
  }
  const child = childProcess().spawn(
    process.execPath,
    [program, '--socket', input.socket, '--domains', JSON.stringify(input.domains), '--denied-log', input.deniedLog],
    {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return new Promise<string | null>((resolve) => {
    let out = '';
    let err = '';
    let settled = false;
    const done = (problem: string | null) => {
      if (settled) return;
      settled = true;
      child.stdout.destroy();
      child.stderr.destroy();
      child.unref();
      resolve(problem);
    };
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('ready\n')) done(null);
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', (e) => done(`the sandbox proxy did not start: ${e.message}`));
    child.on('exit', (code) => {
      if (!out.includes('ready\n')) done(`the sandbox proxy stopped (exit ${code}): ${err.trim() || 'no message'}`);
    });
  });
}

/** Whether something accepts connections on the Unix socket `socket`. */
export function answers(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net().connect(socket);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}
