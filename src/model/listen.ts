import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AxmeError } from './errors.ts';

/**
 * Starts `server` listening on `host:port` (0: a free port) and gives the address it got: the one
 * way `axme serve --http` and `axme ui` bind. What the set-up causes is CONFIG (exit 2) saying
 * the way out: a port in use or not allowed, an address of another machine; anything else is
 * passed on as it came.
 */
export function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const failed = (err: NodeJS.ErrnoException) => {
      server.off('listening', listening);
      reject(listenProblem(err, port, host) ?? err);
    };
    const listening = () => {
      server.off('error', failed);
      resolve(server.address() as AddressInfo);
    };
    server.once('error', failed);
    server.once('listening', listening);
    server.listen(port, host);
  });
}

/** The CONFIG error for a failed listen the user can fix, or null. */
function listenProblem(err: NodeJS.ErrnoException, port: number, host: string): AxmeError | null {
  const data = { port, host, errno: err.code };
  switch (err.code) {
    case 'EADDRINUSE':
      return new AxmeError(
        'CONFIG',
        `port ${port} on ${host} is in use (another axme serve --http or axme ui, or another program): stop that one, or choose another port with --port <n> (--port 0 picks a free one)`,
        data,
      );
    case 'EACCES':
      return new AxmeError(
        'CONFIG',
        `not allowed to listen on port ${port} (ports below 1024 need privileges here): choose another port with --port <n> (--port 0 picks a free one)`,
        data,
      );
    case 'EADDRNOTAVAIL':
      return new AxmeError('CONFIG', `${host} is no address of this machine: bind to one of its addresses with --host (e.g. 127.0.0.1)`, data);
    default:
      return null;
  }
}
