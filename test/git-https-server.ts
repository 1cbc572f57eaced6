import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A real git smart-HTTP server over TLS for tests: Node's https server in front of
 * `git http-backend` (CGI), with Basic authentication. The certificate is made per server with
 * the openssl CLI; clients trust it through `http.sslCAInfo`. Not a stand-in: git speaks its
 * real HTTPS transport to it, and credentials come from a git credential helper.
 */
export interface GitHttpsServer {
  /** `https://127.0.0.1:<port>/` — append the repository's path under `root` */
  url: string;
  /** the CA file clients must trust */
  caFile: string;
  /** requests that were refused for bad or missing credentials */
  refused: () => number;
  close: () => Promise<void>;
}

const BACKEND = execFileSync('git', ['--exec-path'], { encoding: 'utf8' }).trim() + '/git-http-backend';

export async function startGitHttpsServer(opts: { root: string; user: string; password: string }): Promise<GitHttpsServer> {
  const certDir = mkdtempSync(join(tmpdir(), 'axme-tls-'));
  const key = join(certDir, 'key.pem');
  const cert = join(certDir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  const expected = `Basic ${Buffer.from(`${opts.user}:${opts.password}`).toString('base64')}`;
  let refused = 0;
  const server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
    if (req.headers.authorization !== expected) {
      refused++;
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' }).end();
      return;
    }
    const url = new URL(req.url ?? '/', 'https://localhost');
    const cgi = spawn(BACKEND, [], {
      env: {
        PATH: process.env.PATH,
        GIT_PROJECT_ROOT: opts.root,
        GIT_HTTP_EXPORT_ALL: '1',
        REMOTE_USER: opts.user,
        REQUEST_METHOD: req.method ?? 'GET',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
        GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
      },
    });
    req.pipe(cgi.stdin);
    // the CGI answer: header lines, a blank line, then the body
    let head = Buffer.alloc(0);
    let sent = false;
    cgi.stdout.on('data', (chunk: Buffer) => {
      if (sent) return void res.write(chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n') >= 0 ? head.indexOf('\r\n\r\n') + 4 : head.indexOf('\n\n') >= 0 ? head.indexOf('\n\n') + 2 : -1;
      if (end < 0) return;
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.subarray(0, end).toString('latin1').split(/\r?\n/)) {
        const i = line.indexOf(':');
        if (i < 0) continue;
        const name = line.slice(0, i).trim();
        const value = line.slice(i + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else headers[name] = value;
      }
      res.writeHead(status, headers);
      sent = true;
      res.write(head.subarray(end));
    });
    cgi.on('close', () => {
      if (!sent) res.writeHead(500).end();
      else res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}/`,
    caFile: cert,
    refused: () => refused,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      rmSync(certDir, { recursive: true, force: true });
    },
  };
}
