import { startNetworkProxy } from './net-proxy.ts';

/**
 * The network proxy of an allowlisted sandbox as its own process (dist/sandbox-proxy.cjs), started
 * by the hook or `axme sandbox` when no proxy answers on the socket (sandbox/net-daemon.ts). It
 * writes `ready` on stdout once it listens (or once it finds another live proxy on the socket) and
 * stops after a while with no connection.
 *
 *   sandbox-proxy --socket <path> --domains <json list> [--denied-log <file>] [--idle-ms <n>]
 */
function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const socket = arg('--socket');
  const domains = JSON.parse(arg('--domains') ?? 'null') as unknown;
  if (!socket || !Array.isArray(domains) || !domains.every((d) => typeof d === 'string')) {
    process.stderr.write('usage: sandbox-proxy --socket <path> --domains <json list of hosts> [--denied-log <file>] [--idle-ms <n>]\n');
    process.exit(2);
  }
  const idleMs = Number(arg('--idle-ms') ?? 10 * 60_000);
  try {
    await startNetworkProxy({
      socket,
      domains: domains as string[],
      deniedLog: arg('--denied-log') ?? null,
      idleMs: Number.isFinite(idleMs) && idleMs > 0 ? idleMs : 10 * 60_000,
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      // another proxy answers on this socket: the caller can use it
      process.stdout.write('ready\n');
      process.exit(0);
    }
    process.stderr.write(`axme sandbox proxy: ${(err as Error).message}\n`);
    process.exit(1);
  }
  process.stdout.write('ready\n');
}

void main();
