import type { Invocation } from '../command.ts';
import type { Hit } from './args.ts';
import { type ParsedArgs, parseArgs } from './system-args.ts';
import { guardedPath, KIND } from './system-paths.ts';
import type { FamilyContext } from './types.ts';

/**
 * The system family's check on the tools that write a disk without naming it as a file to write
 * (docs/safety.md): its signatures (`wipefs -a`), a swap area (`mkswap`), every block (`blkdiscard`,
 * `badblocks -w`, `nvme format`, `hdparm --security-erase`), its partition table (`sgdisk -Z`,
 * `parted mklabel`, `sfdisk`, `fdisk` fed a script), its encryption header (`cryptsetup luksFormat`),
 * its RAID superblock (`mdadm --zero-superblock`) — on the same devices `dd of=` and `shred` are
 * denied on (system-paths.ts: a disk, a partition, `md`, `mapper/`, `disk/by-*`…); and the
 * volumes named rather than pathed (`vgremove vg0`, `lvremove vg0/data`, `zpool destroy tank`,
 * `zfs destroy tank/data`). Their listings, reads and dry runs pass, and so do the same tools on a
 * file (`mkswap /tmp/swapfile`, `cryptsetup luksFormat ./disk.img`).
 */

/**
 * What a tool does, read from its arguments: the act that writes (for the rule: `-a`, `mklabel`),
 * or null when it only reads; `named`: it destroys what it names whatever that is (a volume
 * group, a pool), not only a device.
 */
interface DeviceTool {
  valued?: readonly string[];
  act(p: ParsedArgs, words: readonly string[]): string | null;
  named?: boolean;
  /** the operands it writes, when not all of them (`ddrescue IN OUT`: OUT) */
  written?(operands: readonly string[]): readonly string[];
}

/** The first long or short option of `options` given, as written in the list, or null. */
const given = (p: ParsedArgs, options: readonly string[]): string | null =>
  options.find((o) => (o.startsWith('--') ? p.flags.has(o) : p.flags.has(o.slice(1)))) ?? null;

/** The first operand that is one of `verbs` (lower-cased), as written there. */
const verbOf = (words: readonly string[], verbs: ReadonlySet<string>): string | null => words.find((w) => verbs.has(w.toLowerCase())) ?? null;

/** A tool that writes unless one of `reads` (a listing, a dry run, help) is given; `act` names it. */
const unless = (act: string, reads: readonly string[]) => (p: ParsedArgs) => (given(p, reads) ? null : act);

const PARTED_WRITES = new Set([
  'mklabel',
  'mktable',
  'mkpart',
  'mkpartfs',
  'rm',
  'resizepart',
  'resize',
  'rescue',
  'name',
  'set',
  'toggle',
  'disk_set',
  'disk_toggle',
  'move',
  'cp',
  'mkfs',
  'type',
]);
const CRYPTSETUP_WRITES = new Set(['luksformat', 'erase', 'lukserase', 'lukskillslot', 'luksremovekey', 'luksheaderrestore', 'reencrypt', 'convert']);
const NVME_WRITES = new Set(['format', 'sanitize', 'write-zeroes', 'write', 'delete-ns', 'ns-delete', 'dsm']);
/** fdisk's, gdisk's and cfdisk's options that only show: without one they read their commands from the input and write the table. */
const FDISK_READS = ['-l', '--list', '-x', '--list-details', '-s', '--getsz', '-h', '--help', '-V', '--version', '-v'];
const LVM_READS = ['-t', '--test', '-h', '--help', '--version'];

const TOOLS: Record<string, DeviceTool> = {
  wipefs: {
    valued: ['-o', '--offset', '-t', '--types', '-O', '--output', '--lock'],
    act: (p) => (given(p, ['-n', '--no-act']) ? null : given(p, ['-a', '--all', '-o', '--offset'])),
  },
  mkswap: {
    valued: ['-L', '--label', '-U', '--uuid', '-p', '--pagesize', '-e', '--endianness', '-s', '--size', '-o', '--offset'],
    act: unless('', ['-h', '--help', '-V', '--version']),
  },
  blkdiscard: { valued: ['-o', '--offset', '-l', '--length', '-p', '--step'], act: unless('', ['-h', '--help', '-V', '--version']) },
  badblocks: { valued: ['-b', '-c', '-d', '-e', '-i', '-o', '-p', '-t'], act: (p) => given(p, ['-w']) },
  sgdisk: {
    act: (p) => {
      if (given(p, ['-P', '--pretend'])) return null;
      const reads = new Set([
        'p',
        'i',
        'v',
        'b',
        'O',
        'L',
        'F',
        'E',
        'f',
        'D',
        '?',
        'V',
        '--print',
        '--info',
        '--verify',
        '--backup',
        '--print-mbr',
        '--list-types',
        '--first-aligned-in-largest',
        '--end-of-largest',
        '--first-in-largest',
        '--display-alignment',
        '--help',
        '--version',
        '--usage',
      ]);
      const writes = [...p.flags].filter((f) => !reads.has(f));
      return writes.length ? (writes[0]!.length === 1 ? `-${writes[0]}` : writes[0]!) : null;
    },
  },
  parted: {
    valued: ['-a', '--align'],
    act: (p, words) => {
      if (given(p, ['-l', '--list', '-h', '--help', '-v', '--version'])) return null;
      // `parted /dev/sda` alone reads its commands from the input: what it is fed decides, so it counts as writing
      const commands = words.slice(1).flatMap((w) => w.split(/\s+/));
      return commands.length ? (commands.find((c) => PARTED_WRITES.has(c)) ?? null) : '(its input)';
    },
  },
  sfdisk: {
    valued: [
      '-N',
      '--partno',
      '-X',
      '--label',
      '-Y',
      '--label-nested',
      '-O',
      '--backup-file',
      '-w',
      '--wipe',
      '-W',
      '--wipe-partitions',
      '--color',
      '--lock',
      '-u',
      '--unit',
    ],
    act: (p, words) => {
      const reads = [
        '-l',
        '--list',
        '-d',
        '--dump',
        '-J',
        '--json',
        '-s',
        '--show-size',
        '-g',
        '--show-geometry',
        '-V',
        '--verify',
        '-F',
        '--list-free',
        '-n',
        '--no-act',
        '-h',
        '--help',
        '-v',
        '--version',
      ];
      if (given(p, reads)) return null;
      // `--part-type DEV N` shows; `--part-type DEV N TYPE` sets
      if (given(p, ['--part-type', '--part-label', '--part-uuid', '--part-attrs']) && words.length < 3) return null;
      return given(p, ['--delete', '-A', '--activate', '-r', '--reorder', '--move-data', '--relocate']) ?? '(its input)';
    },
  },
  fdisk: {
    valued: ['-b', '-o', '--output', '-t', '--type', '-w', '--wipe', '-W', '--wipe-partitions', '-C', '-H', '-S', '--lock'],
    act: unless('(its input)', FDISK_READS),
  },
  gdisk: { act: unless('(its input)', FDISK_READS) },
  cfdisk: { act: unless('(its keys)', FDISK_READS) },
  cgdisk: { act: unless('(its keys)', FDISK_READS) },
  cryptsetup: { act: (_p, words) => verbOf(words, CRYPTSETUP_WRITES) },
  mdadm: { act: (p) => given(p, ['--zero-superblock', '--create', '-C', '--build', '-B']) },
  hdparm: {
    act: (p) =>
      given(p, [
        '--security-erase',
        '--security-erase-enhanced',
        '--security-set-pass',
        '--trim-sector-ranges',
        '--trim-sector-ranges-stdin',
        '--write-sector',
        '--make-bad-sector',
        '--fwdownload',
        '--dco-restore',
      ]),
  },
  nvme: { act: (_p, words) => (NVME_WRITES.has(words[0] ?? '') ? words[0]! : null) },
  ddrescue: { act: unless('', ['-h', '--help', '-V', '--version']), written: (operands) => operands.slice(1, 2) },
  pvremove: { act: unless('', LVM_READS) },
  vgremove: { act: unless('', LVM_READS), named: true },
  lvremove: { act: unless('', LVM_READS), named: true },
  zpool: { act: (_p, words) => (words[0] === 'destroy' || words[0] === 'labelclear' ? words[0] : null), named: true },
  zfs: { act: (_p, words) => (words[0] === 'destroy' ? words[0] : null), named: true },
};

/** The hit of a tool that writes a disk device, or destroys a volume it names, or null. */
export function checkDevices(inv: Invocation, ctx: FamilyContext): Hit | null {
  // `lvm lvremove vg0/data`: LVM's own shell runs the tool named after it
  const lvm = inv.program === 'lvm' && inv.args.length > 0;
  const program = lvm ? inv.args[0]!.value : inv.program;
  const tool = Object.hasOwn(TOOLS, program) ? TOOLS[program]! : null;
  if (!tool) return null;
  const p = parseArgs(lvm ? inv.args.slice(1) : inv.args, new Set(tool.valued ?? []));
  const words = p.operands.map((w) => w.value);
  const act = tool.act(p, words);
  if (act === null) return null;
  const label = act && !act.startsWith('(') ? `${program} ${act}` : program;
  const fed = act.startsWith('(') ? ` with what it reads on ${act.slice(1, -1)}` : '';
  for (const value of tool.written ? tool.written(words) : words) {
    const g = guardedPath(value, ctx);
    if (g?.kind === 'device')
      return { rule: `${label} ${g.area}`, reason: `\`${label}\` writes over ${g.shown}${fed}, ${KIND.device}: nothing on it can be got back` };
  }
  if (!tool.named) return null;
  // the volume group, logical volume, pool or dataset it destroys: named, not pathed
  const target = (program === 'zpool' || program === 'zfs' ? words.slice(1) : words).find((w) => w !== '');
  if (target === undefined) return null;
  return {
    rule: `${label} ${target}`,
    reason: `\`${label}\` destroys ${target}, a volume of the machine's disks, with all it holds: nothing on it can be got back`,
  };
}
