import { operandAt } from './argv.ts';

/**
 * docker and the CLIs that read its command line (podman, nerdctl): the options that take a value,
 * one table for the program itself and one for `run`/`create`/`exec`, read by every rule that
 * reads such a line (families/system-containers.ts, infra.ts, infra-app.ts, publish-registries.ts,
 * env-files.ts, path-uses.ts); where the subcommand stands; the host folders `run` binds.
 */

/** The docker-like CLIs. */
export const CONTAINER_CLIS: ReadonlySet<string> = new Set(['docker', 'podman', 'nerdctl']);

/**
 * The options of the program itself that take a value (`docker -H tcp://h`, `--context c`,
 * `podman --connection c`, `nerdctl -n ns`), in any of the three: the subcommand is the first
 * operand after them.
 */
export const CONTAINER_GLOBAL_VALUED: ReadonlySet<string> = new Set([
  // docker
  '-c',
  '--context',
  '-H',
  '--host',
  '--config',
  '-l',
  '--log-level',
  '--tlscacert',
  '--tlscert',
  '--tlskey',
  // podman
  '--url',
  '--connection',
  '--identity',
  '--root',
  '--runroot',
  '--storage-driver',
  '--storage-opt',
  '--tmpdir',
  '--cgroup-manager',
  '--conmon',
  '--events-backend',
  '--hooks-dir',
  '--imagestore',
  '--module',
  '--network-cmd-path',
  '--network-config-dir',
  '--runtime',
  '--runtime-flag',
  '--ssh',
  '--volumepath',
  '--db-backend',
  // nerdctl
  '-n',
  '--namespace',
  '-a',
  '--address',
  '--snapshotter',
  '--cni-path',
  '--cni-netconfpath',
  '--data-root',
  '--hosts-dir',
]);

/**
 * The options of `run`, `create` and `exec` that take a value (`-v SRC:DST`, `-e K=V`, `--cpus 2`),
 * in any of the three CLIs, and of compose's `run` and `exec`: the image (the container, the
 * service) is the first operand after them.
 */
export const CONTAINER_RUN_VALUED: ReadonlySet<string> = new Set([
  '-a',
  '--attach',
  '--add-host',
  '--annotation',
  '--blkio-weight',
  '--blkio-weight-device',
  '--cap-add',
  '--cap-drop',
  '--cgroup-parent',
  '--cgroupns',
  '--cidfile',
  '-c',
  '--cpu-shares',
  '--cpu-period',
  '--cpu-quota',
  '--cpu-rt-period',
  '--cpu-rt-runtime',
  '--cpus',
  '--cpuset-cpus',
  '--cpuset-mems',
  '--detach-keys',
  '--device',
  '--device-cgroup-rule',
  '--device-read-bps',
  '--device-read-iops',
  '--device-write-bps',
  '--device-write-iops',
  '--dns',
  '--dns-option',
  '--dns-search',
  '--domainname',
  '--entrypoint',
  '-e',
  '--env',
  '--env-file',
  '--expose',
  '--gpus',
  '--group-add',
  '--health-cmd',
  '--health-interval',
  '--health-retries',
  '--health-start-interval',
  '--health-start-period',
  '--health-timeout',
  '-h',
  '--hostname',
  '--index',
  '--ip',
  '--ip6',
  '--ipc',
  '--isolation',
  '--kernel-memory',
  '-l',
  '--label',
  '--label-file',
  '--link',
  '--link-local-ip',
  '--log-driver',
  '--log-opt',
  '--mac-address',
  '-m',
  '--memory',
  '--memory-reservation',
  '--memory-swap',
  '--memory-swappiness',
  '--mount',
  '--name',
  '--network',
  '--net',
  '--network-alias',
  '--net-alias',
  '--oom-score-adj',
  '--pid',
  '--pids-limit',
  '--platform',
  '-p',
  '--publish',
  '--pull',
  '--restart',
  '--runtime',
  '--security-opt',
  '--shm-size',
  '--stop-signal',
  '--stop-timeout',
  '--storage-opt',
  '--sysctl',
  '--tmpfs',
  '--ulimit',
  '-u',
  '--user',
  '--userns',
  '--uts',
  '-v',
  '--volume',
  '--volume-driver',
  '--volumes-from',
  '-w',
  '--workdir',
  // podman's own
  '--arch',
  '--os',
  '--variant',
  '--authfile',
  '--creds',
  '--pod',
  '--pod-id-file',
  '--secret',
  '--systemd',
  '--tz',
  '--umask',
  '--uidmap',
  '--gidmap',
]);

/** The options of `docker compose` / `docker-compose` that take a value. */
export const COMPOSE_VALUED: ReadonlySet<string> = new Set([
  '-f',
  '--file',
  '-p',
  '--project-name',
  '--profile',
  '--env-file',
  '--project-directory',
  '--ansi',
  '--progress',
  '--parallel',
]);

/** The single letters of CONTAINER_RUN_VALUED (`-e`, `-p`, `-v`…). */
const RUN_VALUED_LETTERS = new Set([...CONTAINER_RUN_VALUED].filter((o) => /^-[A-Za-z]$/.test(o)).map((o) => o[1]!));

/**
 * A cluster of short options as docker reads it (`-itv SRC:DST`, `-itp80:80`, `-dp 80:80`): the
 * first letter that takes a value (RUN_VALUED_LETTERS) takes the rest of the word (after an `=`),
 * or the next word when nothing is left. Null for a word of no such letter, or no cluster.
 */
function clusterValue(word: string): { letter: string; inline: string | null } | null {
  if (word.length < 2 || word[0] !== '-' || word[1] === '-') return null;
  for (let k = 1; k < word.length; k++) {
    if (!RUN_VALUED_LETTERS.has(word[k]!)) continue;
    const rest = word.slice(word[k + 1] === '=' ? k + 2 : k + 1);
    return { letter: word[k]!, inline: rest || null };
  }
  return null;
}

/**
 * The index of the first operand of `run`, `create` or `exec` (compose's too) at or after `from`:
 * the image, the container or the service, past the options and the values of those in
 * CONTAINER_RUN_VALUED, in a cluster too (`docker exec -itu postgres db …`). -1 when there is none.
 */
export function containerOperandAt(args: readonly string[], from: number): number {
  for (let i = from; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return i + 1 < args.length ? i + 1 : -1;
    if (a.length < 2 || a[0] !== '-') return i;
    if (CONTAINER_RUN_VALUED.has(a) || clusterValue(a)?.inline === null) i++;
  }
  return -1;
}

/**
 * Where a docker-like command's subcommand is — `docker <sub>`, `docker compose <sub>`,
 * `docker-compose <sub>` — past the program's own options (CONTAINER_GLOBAL_VALUED); `at` is -1
 * when there is none.
 */
export function dockerSubcommand(program: string, args: readonly string[]): { compose: boolean; at: number } {
  if (program === 'docker-compose') return { compose: true, at: operandAt(args, COMPOSE_VALUED) };
  const at = operandAt(args, CONTAINER_GLOBAL_VALUED);
  return args[at] === 'compose' ? { compose: true, at: operandAt(args, COMPOSE_VALUED, at + 1) } : { compose: false, at };
}

/**
 * Where `docker run` (`create`, `container run|create`; podman, nerdctl) has its subcommand: the
 * index of `run`/`create`, -1 for any other line. Compose's `run` (`docker compose run -v /:/host
 * app`, `docker-compose run`) starts a container of a service with the same options, so it counts.
 */
export function containerRunAt(program: string, args: readonly string[]): number {
  const { compose, at } = dockerSubcommand(program, args);
  if (at < 0) return -1;
  if (compose) return args[at] === 'run' ? at : -1;
  const sub = args[at] === 'container' ? operandAt(args, CONTAINER_GLOBAL_VALUED, at + 1) : at;
  return args[sub] === 'run' || args[sub] === 'create' ? sub : -1;
}

/** A host folder or file a container is given: where its source is written, and whether read-only. */
export interface Bind {
  /** the index of the argument holding the source (`-v SPEC`: SPEC's; `-vSPEC`, `--mount=SPEC`: its own) */
  at: number;
  source: string;
  readOnly: boolean;
}

/**
 * The binds of `docker run` (create; podman, nerdctl): `-v SRC:DST[:OPTS]`, `--volume`, `-vSRC:…`,
 * `-v=…`, `-itv SRC:DST`, `--mount type=bind,source=SRC[,readonly]` — every word after the subcommand, the image's
 * command's too (an option a table does not know may have moved the image). `-v /x` (no `:`) is a
 * volume of the container's own, no bind. Empty for any other line.
 */
export function containerBinds(program: string, args: readonly string[]): Bind[] {
  const sub = containerRunAt(program, args);
  if (sub < 0) return [];
  const out: Bind[] = [];
  for (let i = sub + 1; i < args.length; i++) {
    const v = args[i]!;
    const eq = v.indexOf('=');
    const long = v.startsWith('--') ? v.slice(0, eq > 0 ? eq : undefined) : null;
    let spec: string;
    let at = i;
    if (long === '--volume' || long === '--mount') {
      if (eq < 0) at = ++i;
      spec = eq < 0 ? (args[at] ?? '') : v.slice(eq + 1);
    } else {
      // `-v /x:/y`, `-v=/x:/y`, `-v/x:/y`, `-itv /x:/y`: a cluster whose first letter taking a value is v
      const cluster = long === null ? clusterValue(v) : null;
      if (cluster?.letter !== 'v') continue;
      if (cluster.inline === null) at = ++i;
      spec = cluster.inline ?? args[at] ?? '';
    }
    const bind = long === '--mount' ? mountBind(spec) : volumeBind(spec);
    if (bind) out.push({ at, ...bind });
  }
  return out;
}

/** `-v SRC:DST[:OPTS]`: null for `-v DST` alone, a volume of the container's own. */
function volumeBind(spec: string): { source: string; readOnly: boolean } | null {
  const parts = spec.split(':');
  if (parts.length < 2) return null;
  const opts = parts.length > 2 ? parts[2]!.split(',') : [];
  return { source: parts[0]!, readOnly: opts.includes('ro') || opts.includes('readonly') };
}

/** `--mount type=bind,source=/,target=/host[,readonly]`: null without a source. */
function mountBind(spec: string): { source: string; readOnly: boolean } | null {
  let source: string | null = null;
  let readOnly = false;
  for (const field of spec.split(',')) {
    const [k, v] = [field.split('=', 1)[0]!, field.slice(field.indexOf('=') + 1)];
    if (k === 'source' || k === 'src') source = v;
    if ((k === 'readonly' || k === 'ro') && (v === k || v === 'true' || v === '1')) readOnly = true;
  }
  return source === null ? null : { source, readOnly };
}
