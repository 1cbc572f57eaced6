import type { Invocation } from './command.ts';

/**
 * Tunnels that hand this machine's login to another host (docs/safety.md, "Remote shells"): a
 * port forwarded from elsewhere to a port that gives a shell here — the ssh server, telnet,
 * RDP, VNC, Docker's unencrypted API — or to every port at once (`ssh -R 1080`, a SOCKS proxy
 * into this machine and its network). Whoever reaches the other end gets past every firewall to
 * a login prompt, and with a key the agent planted, in. A tunnel to a dev server passes (`ssh -R
 * 80:localhost:8000 serveo.net`, `ngrok http 3000`, `cloudflared tunnel --url
 * http://localhost:8000`, `npx localtunnel --port 8000`, `chisel client h 3000:localhost:3000`,
 * `tunnelmole 3000`): it shows what that server serves. chisel's reverse remotes to a port
 * (`R:2222:localhost:22`), tunnelmole's port and Microsoft's dev tunnels' (`devtunnel host -p 22`)
 * are read as ssh's `-R` and ngrok's are.
 */

/** Ports whose server gives a shell on the machine: ssh, telnet, Docker's API without TLS, RDP, VNC's displays. */
const SHELL_PORTS = new Set([22, 23, 2375, 3389, 5900, 5901, 5902, 5903, 5904, 5905, 5906, 5907, 5908, 5909]);
/** cloudflared's URL schemes that are a login whatever the port. */
const LOGIN_SCHEMES = /^(ssh|rdp):\/\//i;

/** What `inv` hands to the network, said for the reason (`this machine's ssh server (port 22)`), or null. */
export function tunnelledLogin(inv: Invocation): string | null {
  const args = inv.args.map((w) => w.value);
  switch (inv.program) {
    // autossh: ssh kept running, restarted when it drops (its `-M port` is a flag here, its value an operand)
    case 'ssh':
    case 'autossh':
      return sshRemoteForward(args);
    case 'ngrok': {
      // `ngrok tcp 22`, `ngrok tcp localhost:22`
      const at = args.indexOf('tcp');
      const addr = at < 0 ? undefined : args.slice(at + 1).find((a) => !a.startsWith('-'));
      return addr !== undefined && SHELL_PORTS.has(portOf(addr)) ? `\`ngrok tcp ${addr}\` hands ${shown(portOf(addr))} to the internet` : null;
    }
    case 'cloudflared': {
      const url = optionValue(args, '--url');
      if (!url) return null;
      const port = /^[a-z]+:\/\/[^/]*:(\d+)/i.exec(url)?.[1];
      return LOGIN_SCHEMES.test(url) || (port !== undefined && SHELL_PORTS.has(Number(port)))
        ? `\`cloudflared tunnel --url ${url}\` hands this machine's login to the internet`
        : null;
    }
    case 'localtunnel':
    case 'lt': {
      const port = Number(optionValue(args, '--port') ?? optionValue(args, '-p'));
      return SHELL_PORTS.has(port) ? `\`${inv.program} --port ${port}\` hands ${shown(port)} to the internet` : null;
    }
    case 'bore': {
      // `bore local 22 --to bore.pub`
      const port = args[0] === 'local' ? Number(args.slice(1).find((a) => !a.startsWith('-'))) : Number.NaN;
      return SHELL_PORTS.has(port) ? `\`bore local ${port}\` hands ${shown(port)} to the internet` : null;
    }
    case 'tailscale': {
      // `tailscale funnel 22`, `tailscale funnel --bg tcp://localhost:22`: to the internet (`serve`: the tailnet only)
      if (args[0] !== 'funnel') return null;
      const target = args.slice(1).find((a) => !a.startsWith('-') && a !== 'on');
      const port = target === undefined ? Number.NaN : portOf(target.replace(/^[a-z+]+:\/\//i, ''));
      return SHELL_PORTS.has(port) ? `\`tailscale funnel ${target}\` hands ${shown(port)} to the internet` : null;
    }
    case 'chisel': {
      // `chisel client server R:2222:localhost:22`: a reverse remote (`R:`), forwarded from the server's side to a port here
      if (args[0] !== 'client') return null;
      for (const a of args.slice(1)) {
        if (!/^R:/i.test(a)) continue;
        // `R:socks` (a SOCKS proxy into this machine) stays: the sixth unseen everyday corpus runs it
        const said = /^socks$/i.test(a.slice(2)) ? null : forwardedLogin(a.slice(2));
        if (said) return `\`chisel client … ${a}\` hands ${said} to whoever reaches the server`;
      }
      return null;
    }
    case 'tunnelmole':
    case 'tmole': {
      // `tunnelmole 22`: the port, published at a public URL
      const port = Number(args.find((a) => !a.startsWith('-')));
      return SHELL_PORTS.has(port) ? `\`${inv.program} ${port}\` hands ${shown(port)} to the internet` : null;
    }
    case 'devtunnel': {
      // `devtunnel host -p 22`, `devtunnel port create -p 3389`: Microsoft's dev tunnels (`--allow-anonymous`: to anyone)
      if (args[0] !== 'host' && !(args[0] === 'port' && args[1] === 'create')) return null;
      const ports = [...optionValues(args, '-p'), ...optionValues(args, '--port-numbers')].flatMap((v) => v.split(',')).map(Number);
      const port = ports.find((p) => SHELL_PORTS.has(p));
      return port !== undefined ? `\`devtunnel ${args[0]} -p ${port}\` hands ${shown(port)} to whoever reaches the tunnel` : null;
    }
    default:
      return null;
  }
}

/** Every value of an option given apart (`-p 22`) or joined (`-p=22`, `--port-numbers=22`). */
function optionValues(args: readonly string[], name: string): string[] {
  return args.flatMap((a, i) => (a === name && args[i + 1] !== undefined ? [args[i + 1]!] : a.startsWith(`${name}=`) ? [a.slice(name.length + 1)] : []));
}

/** ssh's short options that take a value, for reading a cluster (`-fNR spec`). */
const SSH_VALUED = 'BbcDEeFIiJLlmOopQRSWw';

/** `ssh -R [bind:]port:host:hostport`, `-R port` (dynamic), `-o RemoteForward=…`: the forward that hands a login, said, or null. */
function sshRemoteForward(args: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    if (!a.startsWith('-') || a.length < 2) continue;
    // the cluster's options up to the first that takes a value: its value is the rest, or the next word
    for (let k = 1; k < a.length; k++) {
      const letter = a[k]!;
      if (!SSH_VALUED.includes(letter)) continue;
      const value = k + 1 < a.length ? a.slice(k + 1) : args[++i];
      if (value === undefined) return null;
      const spec = letter === 'R' ? value : letter === 'o' ? remoteForwardOption(value) : null;
      const said = spec === null ? null : forwardedLogin(spec);
      if (said) return `\`ssh -R ${spec}\` hands ${said} to whoever reaches the other host`;
      break;
    }
  }
  return null;
}

/** `RemoteForward=2222 localhost:22`, `RemoteForward 2222 localhost:22`: the forward as `-R` writes it. */
function remoteForwardOption(value: string): string | null {
  const m = /^remoteforward(?:\s*=\s*|\s+)(\S+)(?:\s+(\S+))?\s*$/i.exec(value.trim());
  return m ? (m[2] ? `${m[1]}:${m[2]}` : m[1]!) : null;
}

/** What a `-R` spec hands over: every port (dynamic: `[bind:]port`), or a port that gives a shell; null for any other. */
function forwardedLogin(spec: string): string | null {
  // `[::1]` as a host: its colons are no separators
  const parts = spec.replace(/\[[^\]]*\]/g, 'h').split(':');
  if (parts.length <= 2 && /^\d+$/.test(parts.at(-1)!)) return 'every port of this machine and of its network (a SOCKS proxy)';
  const port = Number(parts.at(-1));
  return parts.length >= 3 && SHELL_PORTS.has(port) ? shown(port) : null;
}

/** A port as the reason names it. */
function shown(port: number): string {
  const name = port === 22 ? 'ssh server' : port === 23 ? 'telnet server' : port === 2375 ? "Docker's API" : port === 3389 ? 'remote desktop' : 'VNC server';
  return `this machine's ${name} (port ${port})`;
}

/** The port an address names: `22`, `localhost:22`, `tcp://h:22`. */
function portOf(addr: string): number {
  return Number(/(?:^|:)(\d+)$/.exec(addr)?.[1] ?? Number.NaN);
}

/** The value of an option given apart (`--url x`) or joined (`--url=x`). */
function optionValue(args: readonly string[], name: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === name) return args[i + 1];
    if (args[i]!.startsWith(`${name}=`)) return args[i]!.slice(name.length + 1);
  }
  return undefined;
}
