import type { Invocation } from '../command.ts';
import { CONTAINER_CLIS, containerBinds, containerOperandAt, containerRunAt } from '../container-cli.ts';
import { type Hit, values } from './args.ts';
import { guardedPath } from './system-paths.ts';
import type { FamilyContext } from './types.ts';

/**
 * The system family's containers that reach the host (docs/safety.md): `docker run` (podman,
 * nerdctl; `create` too) with the host's root or a system folder bound writable (`-v /:/host`,
 * `-v /etc:/x`): the container's root writes the host's files; `--privileged` with the host's
 * processes (`--pid=host`: `nsenter -t 1` is a root shell on the host) or with a bind of a system
 * folder, `/dev`, `/proc` or `/sys`, even read-only (a privileged container remounts and writes the host's disks). The project,
 * `/tmp`, the caches and read-only binds (`:ro`) pass. A socket (`/var/run/docker.sock`) is not
 * read here. The options and binds are read as container-cli.ts reads every docker line; compose's
 * `run` (`docker compose run -v /:/host app`) as docker's. The capabilities that make a container
 * privileged in effect (`--cap-add SYS_ADMIN`, `ALL`: mount, enter namespaces) count as
 * `--privileged`, and a disk handed in as a device (`--device /dev/sda`) is the host's disk written.
 */
export function checkContainers(inv: Invocation, ctx: FamilyContext): Hit | null {
  if (!CONTAINER_CLIS.has(inv.program) && inv.program !== 'docker-compose') return null;
  const args = values(inv);
  const i = containerRunAt(inv.program, args);
  if (i < 0) return null;
  const image = containerOperandAt(args, i + 1);
  const opts = args.slice(i + 1, image < 0 ? args.length : image);
  let privileged = false;
  let hostPid = false;
  const devices: string[] = [];
  for (let k = 0; k < opts.length; k++) {
    const [name, inline] = splitOption(opts[k]!);
    if (name === '--privileged') privileged = inline !== 'false';
    else if (name === '--pid') hostPid = (inline ?? opts[++k]) === 'host';
    else if (name === '--cap-add') privileged ||= (inline ?? opts[++k] ?? '').split(',').some((c) => PRIVILEGED_CAPS.test(c));
    else if (name === '--device') devices.push((inline ?? opts[++k] ?? '').split(':')[0]!);
  }
  const rule = `${inv.program} run`;
  for (const device of devices)
    if (guardedPath(device, ctx)?.kind === 'device')
      return { rule: `${rule} --device ${device}`, reason: `the container is handed the host's disk ${device}: what runs in it writes over the disk` };
  if (privileged && hostPid)
    return {
      rule: `${rule} --privileged --pid=host`,
      reason: "a privileged container in the host's process namespace enters the host as root (`nsenter -t 1`)",
    };
  for (const b of containerBinds(inv.program, args)) {
    if (!b.source.startsWith('/') && !b.source.startsWith('~')) continue;
    if (b.source.endsWith('.sock')) continue;
    const system = b.source === '/' || isSystem(b.source, ctx);
    if (system && !b.readOnly)
      return {
        rule: `${rule} -v ${b.source}`,
        reason: `the container's root writes the host's ${b.source} through the bind: ${b.source === '/' ? 'every file of the machine' : 'a system folder'}`,
      };
    // the kernel's own folders: a privileged container writes the host's disks and settings through them
    if (privileged && (system || /^\/(dev|proc|sys)(\/|$)/.test(b.source)))
      return {
        rule: `${rule} --privileged -v ${b.source}`,
        reason: `a privileged container reaches the host through its ${b.source}: disks, kernel settings, mounts`,
      };
  }
  return null;
}

/** The capabilities that give a container what `--privileged` does: mounting, entering namespaces, every capability (`ALL`). */
const PRIVILEGED_CAPS = /^(cap_)?(sys_admin|all)$/i;

function isSystem(source: string, ctx: FamilyContext): boolean {
  const kind = guardedPath(source, ctx)?.kind;
  return kind === 'system' || kind === 'device';
}

/** `--name=value` as [name, value]; a short option stays whole. */
function splitOption(a: string): [string, string | undefined] {
  const eq = a.indexOf('=');
  return a.startsWith('--') && eq > 0 ? [a.slice(0, eq), a.slice(eq + 1)] : [a, undefined];
}
