import type { Invocation } from './command.ts';
import { SHELLS } from './command.ts';
import type { Finding } from './git-rules.ts';

/**
 * Servers that hand whoever reaches their port this machine (docs/safety.md, "Remote shells,
 * served folders and settings that send credentials elsewhere"), with no login in the way: a web
 * terminal that takes keystrokes into a shell (`ttyd -W bash`, `gotty -w bash`), a notebook server
 * on every address with its token emptied (`jupyter lab --ip 0.0.0.0 --ServerApp.token=`: every
 * cell is code run here), Docker's API on a network address without TLS (`dockerd -H
 * tcp://0.0.0.0:2375`: a container with the host's disk mounted is root here), a VNC server
 * without a password (`x11vnc -nopw`), Redis with its protected mode off and no password
 * (`redis-server --protected-mode no`: its CONFIG SET writes files, the known way to plant a key
 * in `~/.ssh`), a shared terminal (`tmate`, `upterm host`, `tty-share --public`: a shell typed into by
 * whoever holds the link). Their everyday uses pass: a read-only terminal (`ttyd htop`), a notebook with
 * its token or on this machine only (`jupyter lab`, `--ip 127.0.0.1`), Docker on its socket or
 * with `--tlsverify`, `x11vnc -localhost`, `redis-server --port 6380`.
 */

/** Addresses that only this machine reaches. */
const LOOPBACK = /^(?:127\.\d+\.\d+\.\d+|localhost|::1|\[::1\])$/i;
/** Interpreters whose prompt is as good as a shell. */
const PROMPTS = new Set([...SHELLS, 'python', 'python3', 'node', 'irb', 'ruby', 'perl', 'php', 'login', 'su', 'tmux', 'screen']);

/** What `inv` serves to the network with no login in the way, said for the reason, or null. */
function exposedServer(inv: Invocation): string | null {
  const args = inv.args.map((w) => w.value);
  const has = (...names: string[]) => args.some((a) => names.includes(a));
  switch (inv.program) {
    case 'ttyd':
    case 'gotty': {
      const writable = inv.program === 'ttyd' ? has('-W', '--writable') : has('-w', '--permit-write');
      const shell = args.find((a) => PROMPTS.has(a.slice(a.lastIndexOf('/') + 1)));
      return writable && shell ? `a terminal in the browser that types into \`${shell}\` for whoever opens its port` : null;
    }
    case 'jupyter':
    case 'jupyter-notebook':
    case 'jupyter-lab': {
      const ip = valueOf(args, '--ip');
      const tokenless = args.some((a) => /^--(?:NotebookApp|ServerApp|IdentityProvider)\.token=(?:''|"")?$/.test(a));
      return ip !== null && !LOOPBACK.test(ip) && tokenless ? `a notebook server on ${ip} without its token: every cell anyone sends runs here` : null;
    }
    case 'dockerd': {
      const hosts = [...valuesOf(args, '-H'), ...valuesOf(args, '--host')];
      const open = hosts.find((h) => /^tcp:\/\//i.test(h) && !LOOPBACK.test(h.slice(6).replace(/:\d+$/, '')));
      return open && !has('--tlsverify') ? `Docker's API on ${open} without TLS: a container with this machine's disk mounted is root here` : null;
    }
    case 'x11vnc':
      return has('-nopw') && !has('-localhost') ? "this machine's screen and keyboard to whoever connects, without a password" : null;
    case 'redis-server':
      return args.some((a, i) => a === '--protected-mode' && args[i + 1] === 'no') && !has('--requirepass')
        ? 'Redis open to the network without a password: its CONFIG SET writes files here (a key into ~/.ssh)'
        : null;
    // shared terminals: a shell here typed into by whoever holds the link (`tmate`, `upterm host`, `tty-share --public`);
    // tmate's version and help, upterm's other verbs and tty-share on this machine's network only pass
    case 'tmate': {
      const ops = args.filter((a) => !a.startsWith('-'));
      return has('-V', '-h') || (ops.length && !/^(new-session|new|attach)$/.test(ops[0]!)) ? null : 'this shell to whoever holds the session link';
    }
    case 'upterm':
      return args.find((a) => !a.startsWith('-')) === 'host' ? 'this shell to whoever holds the session link' : null;
    case 'tty-share':
      return has('--public') ? 'this shell to whoever holds the public link' : null;
    default:
      return null;
  }
}

/** The value of an option given apart (`--ip x`) or joined (`--ip=x`), or null. */
function valueOf(args: readonly string[], name: string): string | null {
  return valuesOf(args, name)[0] ?? null;
}
/** Every value of an option given apart or joined. */
function valuesOf(args: readonly string[], name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === name && args[i + 1] !== undefined) out.push(args[i + 1]!);
    else if (args[i]!.startsWith(`${name}=`)) out.push(args[i]!.slice(name.length + 1));
  }
  return out;
}

/** The finding on a server that hands this machine to whoever reaches its port (module comment), or null. */
export function checkExposedServer(inv: Invocation): Finding | null {
  const what = exposedServer(inv);
  return what
    ? {
        rule: 'network.exposedServer',
        reason: `\`${inv.program}\` would serve ${what}: keep it on this machine (127.0.0.1) and behind its login`,
      }
    : null;
}
