import { curlMethod } from '../request-hosts.ts';
import { type ArgsCheck, type Hit, hasOption, hasShort, operandAt, optionValues } from './args.ts';

/**
 * The infra family's backups, snapshots and data stores: the verbs that delete what a backup tool
 * keeps (`rclone purge`, `restic forget|prune|key remove`, `borg delete|prune|compact`, `tarsnap -d`,
 * `rdiff-backup --remove-older-than`, `btrfs subvolume delete`,
 * `snapper delete`, `timeshift --delete`, `tmutil delete`; restic's kin rustic, resticprofile and
 * autorestic, borgmatic's actions, pgBackRest's `stanza-delete` and `expire`, WAL-G's `delete
 * --confirm`, btrbk's `prune` and `clean`) and that empty a data store at once
 * (`etcdctl del --prefix`, `kafka-topics --delete`, an Elasticsearch index deleted over HTTP).
 * A backup is the copy that is left when everything else is gone: deleting it is asked.
 */

function hit(rule: string, what: string): Hit {
  return { rule, reason: `\`${rule}\` ${what}, and nothing keeps another copy` };
}

/** `-n` / `--dry-run`: the tool only says what it would delete. */
function dry(args: readonly string[]): boolean {
  return hasOption(args, '--dry-run') || hasShort(args, 'n');
}

const RCLONE_VALUED = new Set([
  '--config',
  '--transfers',
  '--checkers',
  '--include',
  '--exclude',
  '--filter',
  '--filter-from',
  '--log-file',
  '--max-age',
  '--min-age',
  '--backup-dir',
  '--log-level',
  '--bwlimit',
]);

/**
 * rclone: `purge`, `delete`, `deletefile`. `rclone sync` to a remote passes, as `aws s3 sync
 * --delete` does: it is how a built site or a folder is published to a bucket, and what it deletes
 * is what the source no longer has.
 */
const rclone: ArgsCheck = (args) => {
  if (hasOption(args, '--dry-run')) return null;
  const sub = args[operandAt(args, RCLONE_VALUED)];
  if (sub === 'purge') return hit('rclone purge', 'deletes the path and everything under it on the remote, bucket included');
  if (sub === 'delete' || sub === 'deletefile') return hit(`rclone ${sub}`, 'deletes the files under the path on the remote');
  return null;
};

const RESTIC_VALUED = new Set([
  '-r',
  '--repo',
  '--repository-file',
  '-p',
  '--password-file',
  '--password-command',
  '--cache-dir',
  '-o',
  '--option',
  '--keep-last',
  '--keep-daily',
  '--keep-weekly',
  '--keep-monthly',
  '--keep-yearly',
  '--keep-within',
  '--keep-tag',
  '--host',
  '--tag',
  '--path',
]);

/** restic: `forget` (snapshots dropped; with `--prune` their data too), `prune`, and `key remove` (a key the repository opens with). */
const restic: ArgsCheck = (args) => {
  const at = operandAt(args, RESTIC_VALUED);
  const sub = args[at];
  const keyVerb = sub === 'key' ? args[operandAt(args, RESTIC_VALUED, at + 1)] : undefined;
  if (keyVerb === 'remove' || keyVerb === 'rm')
    return hit(`restic key ${keyVerb}`, 'removes a key the repository is opened with: the last one gone, no snapshot in it can be read again');
  if ((sub !== 'forget' && sub !== 'prune') || dry(args)) return null;
  return sub === 'prune'
    ? hit('restic prune', 'deletes from the repository the data no snapshot refers to — what forgotten snapshots kept')
    : hit(`restic forget${hasOption(args, '--prune') ? ' --prune' : ''}`, 'removes snapshots from the repository (with `--prune` their data too)');
};

const BORG_DELETES = new Set(['delete', 'prune', 'rdelete', 'repo-delete', 'compact']);

/** borg: `delete` of archives or the whole repository, `prune` by a keep policy, `compact` (what they marked freed for good; not `--dry-run`). */
const borg: ArgsCheck = (args) => {
  const sub = args[operandAt(args, new Set(['--remote-path', '--lock-wait', '--rsh']))];
  return sub !== undefined && BORG_DELETES.has(sub) && !dry(args) ? hit(`borg ${sub}`, 'deletes backup archives (or the whole repository) for good') : null;
};

/** btrfs `subvolume delete` (abbreviated as btrfs allows: `sub del`). */
const btrfs: ArgsCheck = (args) => {
  const i = operandAt(args);
  const group = args[i];
  const verb = args[operandAt(args, undefined, i + 1)];
  return group !== undefined && verb !== undefined && /^su(b(v(o(l(u(me?)?)?)?)?)?)?$/.test(group) && /^d(e(l(e(te?)?)?)?)?$/.test(verb)
    ? hit('btrfs subvolume delete', 'deletes a subvolume or snapshot and every file in it')
    : null;
};

const SNAPPER_VALUED = new Set(['-c', '--config', '-r', '--root']);

export const BACKUP_TOOLS: Record<string, ArgsCheck> = {
  rclone,
  restic,
  borg,
  btrfs,
  snapper: (args) => {
    const sub = args[operandAt(args, SNAPPER_VALUED)];
    return sub === 'delete' || sub === 'rm' ? hit(`snapper ${sub}`, 'deletes filesystem snapshots') : null;
  },
  timeshift: (args) =>
    hasOption(args, '--delete-all')
      ? hit('timeshift --delete-all', 'deletes every system snapshot')
      : hasOption(args, '--delete')
        ? hit('timeshift --delete', 'deletes a system snapshot')
        : null,
  tmutil: (args) => {
    const sub = args[operandAt(args)];
    return sub === 'delete' || sub === 'deletelocalsnapshots' ? hit(`tmutil ${sub}`, 'deletes Time Machine backups') : null;
  },
  // `tarsnap -d -f NAME` deletes an archive, `--nuke` all of them
  tarsnap: (args) =>
    hasOption(args, '--nuke') ? hit('tarsnap --nuke', 'deletes every archive') : hasShort(args, 'd') ? hit('tarsnap -d', 'deletes archives') : null,
  // `rdiff-backup --remove-older-than T`, and its newer spelling `rdiff-backup remove increments --older-than T`
  'rdiff-backup': (args) =>
    hasOption(args, '--remove-older-than') || (args[operandAt(args)] === 'remove' && !dry(args))
      ? hit('rdiff-backup remove', 'deletes the increments older than the time given (`0D`: all but the mirror)')
      : null,
  etcdctl: (args) => {
    if (args[operandAt(args, new Set(['--endpoints', '--cacert', '--cert', '--key', '--user', '-w', '--write-out', '--command-timeout']))] !== 'del')
      return null;
    const how = hasOption(args, '--prefix') ? '--prefix' : hasOption(args, '--from-key') ? '--from-key' : null;
    return how ? hit(`etcdctl del ${how}`, 'deletes every key in the range (`--prefix ""`: the whole store, a cluster\'s state with it)') : null;
  },
  // restic's kin: rustic (its CLI in Rust), resticprofile and autorestic (restic run from a profile or a config's locations)
  rustic: restic,
  resticprofile: restic,
  autorestic: (args) => {
    const sub = args[operandAt(args, new Set(['-c', '--config']))];
    return sub === 'forget' && !dry(args)
      ? hit(`autorestic forget${hasOption(args, '--prune') ? ' --prune' : ''}`, "removes snapshots from the locations' repositories")
      : null;
  },
  // borgmatic's actions named: borg's deletes (a bare `borgmatic`, its configured create-prune-check round, passes)
  borgmatic: (args) => {
    const sub = args.find((a) => BORG_DELETES.has(a));
    return sub !== undefined && !dry(args) ? hit(`borgmatic ${sub}`, 'deletes backup archives (or the whole repository) for good') : null;
  },
  // PostgreSQL's backup tools: pgBackRest's stanza (every backup and archived WAL of the cluster) and `expire`; WAL-G's `delete … --confirm` (without it, a dry run)
  pgbackrest: (args) => {
    const sub = args.find((a) => a === 'stanza-delete' || a === 'expire');
    return sub
      ? hit(
          `pgbackrest ${sub}`,
          sub === 'expire' ? 'deletes the backups and WAL past the retention given' : 'deletes the stanza: every backup and archived WAL of the cluster',
        )
      : null;
  },
  'wal-g': (args) =>
    args[operandAt(args, new Set(['--config']))] === 'delete' && hasOption(args, '--confirm')
      ? hit('wal-g delete --confirm', 'deletes base backups and WAL from the storage')
      : null,
  // btrbk's `prune` (snapshots and backups past the retention policy) and `clean` (incomplete backups); `-n`: a dry run
  btrbk: (args) => {
    const sub = args[operandAt(args, new Set(['-c', '--config', '-l', '--loglevel', '--format', '--lockfile', '--override']))];
    return (sub === 'prune' || sub === 'clean') && !dry(args) ? hit(`btrbk ${sub}`, 'deletes snapshots and backups') : null;
  },
  'kafka-topics': kafkaTopics('kafka-topics'),
  'kafka-topics.sh': kafkaTopics('kafka-topics.sh'),
};

function kafkaTopics(program: string): ArgsCheck {
  return (args) => (hasOption(args, '--delete') ? hit(`${program} --delete`, 'deletes topics and every message in them') : null);
}

/** An HTTP address's port and path: `localhost:9200/_all`, `http://es:9200/logs-*`. */
const ADDRESS = /^(?:https?:\/\/)?[\w.\-[\]@]+(?::(\d+))?(\/[^?#\s]*)?/;

/**
 * curl: a DELETE of Elasticsearch / OpenSearch indices — `_all`, a pattern (`*`, `logs-*`), or
 * an index on the search port (9200): every document in them goes. A document (`/idx/_doc/1`)
 * passes.
 */
export const searchIndexDelete: ArgsCheck = (args) => {
  if (curlMethod(args) !== 'DELETE') return null;
  for (const a of [...optionValues(args, '--url'), ...args]) {
    if (a.startsWith('-')) continue;
    const m = ADDRESS.exec(a);
    if (!m || !m[2]) continue;
    const parts = m[2].split('/').filter(Boolean);
    if (parts.length !== 1) continue;
    const index = decodeURIComponent(parts[0]!);
    if (index === '_all' || index.includes('*') || (m[1] === '9200' && !index.startsWith('_'))) {
      return hit(`curl -X DELETE ${index.includes('*') || index === '_all' ? index : '<index>'}`, 'deletes search indices and every document in them');
    }
  }
  return null;
};
