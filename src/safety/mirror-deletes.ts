import { operandAt } from './argv.ts';
import type { Invocation } from './command.ts';
import { hasFlag, parseArgs, RSYNC_VALUED, rsyncDeleteDest } from './families/system-args.ts';
import { plainWord, type Word } from './syntax.ts';
import { transferScripts } from './transfer-commands.ts';

/**
 * The mirrors: programs that make a destination match a source, deleting there what the source
 * lacks, or that move what they send away from where it was (docs/safety.md, "The user's data
 * outside the project"). Read by the removal rule as `rm -r` of the destination, and `mv` of the
 * sources: `rsync --delete` (`--del`, `--delete-*`) and `--remove-source-files`; `rclone sync`
 * (its destination), `rclone move` (its source), `rclone delete|purge|deletefile|rmdirs PATH`; the
 * storage CLIs' syncs told to delete (`aws s3 sync --delete`, `gsutil rsync -d`, `gcloud storage
 * rsync --delete-unmatched-destination-objects`, `azcopy sync --delete-destination=true`, `mc
 * mirror --remove`, `s5cmd sync --delete`, `b2 sync --delete`); `unison A B -force A` (B made
 * A); lftp's `mirror --delete` (`-e`) from a remote into a local folder. Only local paths: a
 * remote's (`s3://b`, `remote:path`, `host:path`) is the infra family's.
 */

export interface MirrorRemoval {
  /** how the reason names it: `rsync --delete`, `rclone sync` */
  verb: string;
  /** the folders whose content not in the source is deleted, or that are deleted */
  deleted: Word[];
  /** the sources taken away once sent */
  moved: Word[];
}

/** A remote's path, not this machine's: `s3://b/x`, `gs://b`, `https://…`, `remote:path`, `host:path` (not `C:\…`). */
function remote(v: string): boolean {
  return /^[A-Za-z][\w+.-]*:\/\//.test(v) || (/^[^/~.$][^/]*:/.test(v) && !/^[A-Za-z]:[\\/]/.test(v));
}

/** The operands at or after `from`, as argv.ts operandAt finds them (options skipped, with the value of those in `valued`). */
function operandsFrom(args: readonly Word[], from: number, valued: ReadonlySet<string>): Word[] {
  const values = args.map((w) => w.value);
  const out: Word[] = [];
  for (let i = operandAt(values, valued, from); i >= 0; i = operandAt(values, valued, i + 1)) out.push(args[i]!);
  return out;
}

const local = (words: readonly (Word | undefined)[]): Word[] => words.filter((w): w is Word => w !== undefined && !remote(w.value));

const RCLONE_VALUED = new Set([
  '--config',
  '--exclude',
  '--include',
  '--filter',
  '--filter-from',
  '--exclude-from',
  '--include-from',
  '--transfers',
  '--checkers',
  '--log-file',
  '--log-level',
  '--bwlimit',
  '--backup-dir',
  '--suffix',
  '--max-age',
  '--min-age',
  '--max-size',
  '--min-size',
  '--order-by',
  '--compare-dest',
  '--copy-dest',
]);
const CLOUD_VALUED = new Set([
  '--exclude',
  '--include',
  '--profile',
  '--region',
  '--acl',
  '--storage-class',
  '--sse',
  '--sse-kms-key-id',
  '--cache-control',
  '--content-type',
  '--endpoint-url',
  '--grants',
  '--metadata-directive',
  '--expires',
  '--source-region',
  '--page-size',
  '--output',
  '--query',
  '--ca-bundle',
  '-x',
  '-a',
  '-o',
  '-h',
  '-p',
  '-j',
  '--log',
  '--numworkers',
  '--credentials-file',
  '--exclude-regex',
  '--include-regex',
  '--threads',
  '--log-level',
  '--cap-mbps',
  '--project',
]);
const UNISON_VALUED = new Set([
  '-force',
  '-prefer',
  '-path',
  '-ignore',
  '-ignorenot',
  '-logfile',
  '-root',
  '-servercmd',
  '-sshargs',
  '-backup',
  '-backupdir',
  '-ui',
  '-repeat',
  '-retry',
  '-maxthreads',
  '-fastcheck',
]);

/** The words after the subcommand path `path` (its first word at or after `from`), or -1 where the program's words are not that path. */
function after(args: readonly Word[], path: readonly string[], valued: ReadonlySet<string>): number {
  const values = args.map((w) => w.value);
  let i = 0;
  for (const want of path) {
    i = operandAt(values, valued, i);
    if (i < 0 || values[i] !== want) return -1;
    i++;
  }
  return i;
}

/** A sync of a storage CLI (`aws s3 sync`, `gsutil rsync`…) that deletes at its destination when `deletes` says so: its local destination. */
function cloudSync(inv: Invocation, path: readonly string[], deletes: (words: readonly string[]) => boolean): MirrorRemoval | null {
  const at = after(inv.args, path, CLOUD_VALUED);
  if (at < 0 || !deletes(inv.args.map((w) => w.value))) return null;
  const ops = operandsFrom(inv.args, at, CLOUD_VALUED);
  const deleted = local([ops[1]]);
  return deleted.length ? { verb: `${inv.program} ${path.join(' ')}`, deleted, moved: [] } : null;
}

const has =
  (...names: string[]) =>
  (words: readonly string[]) =>
    words.some((w) => names.some((n) => w === n || w.startsWith(`${n}=`)));
const azcopyDeletes = (words: readonly string[]) =>
  words.some(
    (w, i) =>
      w === '--delete-destination=true' || w === '--delete-destination=prompt' || (w === '--delete-destination' && /^(true|prompt)$/i.test(words[i + 1] ?? '')),
  );

const READERS: Record<string, (inv: Invocation) => MirrorRemoval | null> = {
  rsync: (inv) => {
    const dest = rsyncDeleteDest(inv.args);
    const p = parseArgs(inv.args, RSYNC_VALUED);
    const moved = hasFlag(p, null, '--remove-source-files') && p.operands.length >= 2 ? local(p.operands.slice(0, -1)) : [];
    if (!dest && !moved.length) return null;
    return { verb: dest ? 'rsync --delete' : 'rsync --remove-source-files', deleted: dest ? [dest] : [], moved };
  },
  rclone: (inv) => {
    const at = after(inv.args, [], RCLONE_VALUED);
    const ops = operandsFrom(inv.args, at, RCLONE_VALUED);
    const sub = ops[0]?.value;
    if (sub === 'sync') return { verb: 'rclone sync', deleted: local([ops[2]]), moved: [] };
    if (sub === 'move' || sub === 'moveto') return { verb: `rclone ${sub}`, deleted: [], moved: local([ops[1]]) };
    if (sub === 'delete' || sub === 'purge' || sub === 'deletefile' || sub === 'rmdirs') return { verb: `rclone ${sub}`, deleted: local([ops[1]]), moved: [] };
    return null;
  },
  aws: (inv) => cloudSync(inv, ['s3', 'sync'], has('--delete')),
  gsutil: (inv) => cloudSync(inv, ['rsync'], (w) => w.some((x) => /^-[A-Za-z]*d[A-Za-z]*$/.test(x) || x === '--delete-unmatched-destination-objects')),
  gcloud: (inv) => cloudSync(inv, ['storage', 'rsync'], has('--delete-unmatched-destination-objects')),
  azcopy: (inv) => cloudSync(inv, ['sync'], azcopyDeletes),
  mc: (inv) => cloudSync(inv, ['mirror'], has('--remove')),
  s5cmd: (inv) => cloudSync(inv, ['sync'], has('--delete')),
  b2: (inv) => cloudSync(inv, ['sync'], has('--delete')),
  unison: (inv) => {
    const roots = operandsFrom(inv.args, 0, UNISON_VALUED);
    const at = inv.args.findIndex((w) => w.value === '-force');
    const forced = at >= 0 ? inv.args[at + 1]?.value : undefined;
    if (roots.length < 2 || forced === undefined) return null;
    return { verb: 'unison -force', deleted: local(roots.slice(0, 2).filter((r) => r.value !== forced)), moved: [] };
  },
  lftp: (inv) => {
    const deleted: Word[] = [];
    for (const script of transferScripts(inv))
      for (const command of script.split(/[;\n]/)) {
        const words = command.trim().split(/\s+/).filter(Boolean);
        if (words[0] !== 'mirror' || words.some((w) => w === '-R' || w === '--reverse')) continue;
        if (!words.some((w) => w === '--delete' || /^-[A-Za-z]*e[A-Za-z]*$/.test(w))) continue;
        const ops = words.slice(1).filter((w) => !w.startsWith('-'));
        if (ops[1]) deleted.push(plainWord(ops[1]));
      }
    return deleted.length ? { verb: 'lftp mirror --delete', deleted: local(deleted), moved: [] } : null;
  },
};

/** What a mirror deletes or moves away (see the module's comment), or null for any other command. */
export function mirrorRemoval(inv: Invocation): MirrorRemoval | null {
  const read = Object.hasOwn(READERS, inv.program) ? READERS[inv.program]! : null;
  const r = read ? read(inv) : null;
  return r && (r.deleted.length || r.moved.length) ? r : null;
}
