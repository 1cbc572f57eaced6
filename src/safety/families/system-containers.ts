import type { Invocation } from '../command.ts';
import { dockerSubcommand, type Hit, operandAt, values } from './args.ts';
import { guardedPath } from './system-paths.ts';
import type { FamilyContext } from './types.ts';

/**
 * The system family's containers that reach the host (docs/safety.md): `docker run` (podman,
 * nerdctl; `create` too) with the host's root or a system folder bound writable (`-v /:/host`,
 * `-v /etc:/x`): the container's root writes the host's files; `--privileged` with the host's
 * processes (`--pid=host`: `nsenter -t 1` is a root shell on the host) or with a bind of a system
 * folder, `/dev`, `/proc` or `/sys`, even read-only (a privileged container remounts and writes the host's disks). The project,
 * `/tmp`, the caches and read-only binds (`:ro`) pass. A socket (`/var/run/docker.sock`) is not
 * read here.
 */
export function checkContainers(inv: Invocation, ctx: FamilyContext): Hit | null {
  if (!CONTAINER_CLIS.has(inv.program)) return null;
  const args = values(inv);
  const { compose, at } = dockerSubcommand(inv.program, args, GLOBAL_VALUED);
  let i = at;
  if (!compose && args[i] === 'container') i = operandAt(args, GLOBAL_VALUED, i + 1);
  if (compose || (args[i] !== 'run' && args[i] !== 'create')) return null;
  const image = operandAt(args, RUN_VALUED, i + 1);
  const opts = args.slice(i + 1, image < 0 ? args.length : image);
  let privileged = false;
  let hostPid = false;
  const binds: { source: string; readOnly: boolean }[] = [];
  for (let k = 0; k < opts.length; k++) {
    const [name, inline] = splitOption(opts[k]!);
    const value = () => inline ?? opts[++k] ?? '';
    if (name === '--privileged') privileged = inline !== 'false';
    else if (name === '--pid') hostPid = value() === 'host';
    else if (name === '-v' || name === '--volume') binds.push(volumeBind(value()));
    else if (name === '--mount') binds.push(mountBind(value()));
    else if (name.startsWith('-v') && name.length > 2 && !name.startsWith('--')) binds.push(volumeBind(name.slice(2)));
  }
  const rule = `${inv.program} run`;
  if (privileged && hostPid)
    return {
      rule: `${rule} --privileged --pid=host`,
      reason: "a privileged container in the host's process namespace enters the host as root (`nsenter -t 1`)",
    };
  for (const b of binds) {
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

function isSystem(source: string, ctx: FamilyContext): boolean {
  const kind = guardedPath(source, ctx)?.kind;
  return kind === 'system' || kind === 'device';
}

/** `--name=value` as [name, value]; `-v/x:/y` stays whole. */
function splitOption(a: string): [string, string | undefined] {
  const eq = a.indexOf('=');
  return a.startsWith('--') && eq > 0 ? [a.slice(0, eq), a.slice(eq + 1)] : [a, undefined];
}

/** `-v SRC:DST[:OPTS]`: a named volume has no slash in its source. */
function volumeBind(spec: string): { source: string; readOnly: boolean } {
  const parts = spec.split(':');
  const opts = parts.length > 2 ? parts[2]!.split(',') : [];
  return { source: parts.length > 1 ? parts[0]! : '', readOnly: opts.includes('ro') || opts.includes('readonly') };
}

/** `--mount type=bind,source=/,target=/host[,readonly]`. */
function mountBind(spec: string): { source: string; readOnly: boolean } {
  let source = '';
  let readOnly = false;
  for (const field of spec.split(',')) {
    const [k, v] = [field.split('=', 1)[0]!, field.slice(field.indexOf('=') + 1)];
    if (k === 'source' || k === 'src') source = v;
    if ((k === 'readonly' || k === 'ro') && (v === k || v === 'true' || v === '1')) readOnly = true;
  }
  return { source, readOnly };
}

const CONTAINER_CLIS = new Set(['docker', 'podman', 'nerdctl']);
const GLOBAL_VALUED = new Set(['--context', '-c', '-H', '--host', '--config', '-l', '--log-level', '--url', '--connection']);
/** `docker run` options that take a value (the image is the first operand after them). */
const RUN_VALUED = new Set([
  '-v',
  '--volume',
  '--mount',
  '--pid',
  '-e',
  '--env',
  '--env-file',
  '-p',
  '--publish',
  '--name',
  '-w',
  '--workdir',
  '-u',
  '--user',
  '--entrypoint',
  '--network',
  '--net',
  '-l',
  '--label',
  '-m',
  '--memory',
  '--cpus',
  '--platform',
  '--hostname',
  '-h',
  '--add-host',
  '--ipc',
  '--uts',
  '--userns',
  '--cap-add',
  '--cap-drop',
  '--device',
  '--tmpfs',
  '--security-opt',
  '--restart',
  '--shm-size',
  '--ulimit',
  '--gpus',
  '--pull',
  '--log-driver',
  '--log-opt',
  '--dns',
  '--expose',
  '--volumes-from',
  '--cidfile',
  '--stop-signal',
]);
