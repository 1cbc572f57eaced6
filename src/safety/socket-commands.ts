import type { Invocation } from './command.ts';
import { inlineCode, languageOf } from './families/interpreter-argv.ts';
import { powershellCode } from './powershell.ts';
import type { SimpleCommand } from './syntax.ts';

/**
 * The remote shells that start no shell (remote-shells.ts reads those that do): inline code that
 * opens a connection and runs, as command lines, what it did not write itself — what it reads
 * from the connection. Perl's `system$_ while<>` over a socket made its stdin, Lua's `io.popen(r)`
 * of what `s:receive()` returned, PowerShell's `iex $d` of what a `TCPClient` read, gawk's `(c
 * |& getline)` beside a `/inet/tcp/…` socket, and zsh's `ztcp`, whose descriptor a shell is then
 * redirected to (`zsh >&$REPLY 0>&$REPLY`). Code that opens a socket and runs no command, or a
 * command written in it as a literal (`system("ls")`), passes.
 */

/** A socket opened in code, in the languages remote-shells.ts reads and in Lua's and PowerShell's. */
const OPENS_SOCKET =
  /\bsocket\s*\(|\bsocket\.(?:socket|tcp|udp|connect)\b|require\s*\(?\s*["']socket["']|\bfsockopen\b|\bstream_socket_(?:client|server)\b|\b(?:TCPSocket|TCPServer|UDPSocket)\b|\bIO::Socket\b|\bnet\.(?:connect|createConnection|createServer|Socket)\b|require\(\s*["']net["']\s*\)|\/dev\/(?:tcp|udp)\/|Net\.Sockets\.(?:TCPClient|TcpListener|Socket)\b/i;
/**
 * A call that runs a command line it is handed, whose argument is no string literal (a variable,
 * an expression, Perl's `$_`): `system $_`, `io.popen(r)`, `exec(cmd)`, `shell_exec($c)`,
 * `execSync(d)`, `iex $d`, `Invoke-Expression $d`, `` `$c` ``.
 */
const RUNS_VARIABLE =
  /\b(?:system|exec|popen|io\.popen|os\.popen|os\.system|subprocess\.(?:run|call|check_call|check_output|Popen|getoutput)|shell_exec|passthru|proc_open|execSync|spawnSync|Invoke-Expression|iex)\b\s*\(?\s*(?![\s"'(])[$@A-Za-z_]|\bsystem\s*\$_/i;
/** gawk's network special files. */
const AWK_SOCKET = /\/inet[46]?\/(?:tcp|udp)\//;

/** Whether `inv`'s inline code (or PowerShell's `-Command`) opens a connection and runs command lines it did not write (module comment). */
export function codeRunsFromSocket(inv: Invocation): boolean {
  const ps = powershellCode(inv);
  const lang = languageOf(inv.program);
  const code =
    ps && 'code' in ps
      ? ps.code
      : lang
        ? inlineCode(
            inv.program,
            lang,
            inv.args.map((w) => w.value),
          )
        : null;
  if (!code || code.length > 64 * 1024) return false;
  if (lang === 'awk') return AWK_SOCKET.test(code) && awkRunsVariable(code);
  return OPENS_SOCKET.test(code) && RUNS_VARIABLE.test(code);
}

/** Whether an awk program runs a command held in a variable other than its sockets': `(c |& getline)`, `print x | c`, `system(c)`. */
function awkRunsVariable(code: string): boolean {
  const sockets = new Set([...code.matchAll(/\b([A-Za-z_]\w*)\s*=\s*"\/inet/g)].map((m) => m[1]!));
  const commands = [...code.matchAll(/\b([A-Za-z_]\w*)\s*\)?\s*\|&?\s*getline|\|&?\s*([A-Za-z_]\w*)\s*[;}]|\bsystem\s*\(\s*([A-Za-z_]\w*)/g)].map(
    (m) => m[1] ?? m[2] ?? m[3]!,
  );
  return commands.some((c) => !sockets.has(c) && c !== 'getline');
}

/** Whether a line opens a socket with zsh's `ztcp` (its descriptor left in `$REPLY`): a redirection to `$REPLY` then reaches the network. */
export function opensZtcp(commands: readonly SimpleCommand[], invocationOf: (cmd: SimpleCommand) => Invocation | null): boolean {
  return commands.some((c) => invocationOf(c)?.program === 'ztcp' && !invocationOf(c)!.args.some((w) => w.value === '-c' || w.value === '-l'));
}

/** A redirection target that is the descriptor `ztcp` left (`>&$REPLY`). */
export function ztcpDescriptor(raw: string): boolean {
  return /^["']?\$\{?REPLY\}?["']?$/.test(raw);
}
