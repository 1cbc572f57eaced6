import type { Invocation } from '../command.ts';
import type { Hit } from './args.ts';
import { parseArgs } from './system-args.ts';

/**
 * The system family's tools that erase a disk, or change how the machine starts, without naming
 * a device path for system-devices.ts to read (docs/safety.md): macOS's `diskutil` erasing,
 * repartitioning or deleting what it names (`diskutil eraseDisk APFS x disk2`, `diskutil apfs
 * deleteContainer disk4`: a disk is named `disk2` as often as `/dev/disk2`); the firmware
 * written (`flashrom -w`, `-E`); the boot entries changed (`efibootmgr -B`, `-c`, `-o`); a boot
 * loader installed or removed (`grub-install`, `bootctl install|remove`). Their listings and
 * reads pass: `diskutil list|info`, `flashrom -r`, `efibootmgr -v`, `bootctl status`.
 */

/** diskutil's verbs that erase, repartition or delete (any case, as diskutil reads them). */
const DISKUTIL_WRITES = new Set(
  [
    'eraseDisk',
    'eraseVolume',
    'reformat',
    'secureErase',
    'zeroDisk',
    'randomDisk',
    'partitionDisk',
    'splitPartition',
    'mergePartitions',
    'resizeVolume',
    'addPartition',
    'eraseCD',
    'deleteContainer',
    'deleteVolume',
    'deleteSnapshot',
    'deleteVolumeGroup',
    'deleteLVG',
    'deleteLV',
    'delete',
    'convert',
    'resizeContainer',
    'createContainer',
  ].map((v) => v.toLowerCase()),
);
/** diskutil's verb groups whose own verb follows (`diskutil apfs deleteContainer disk4`, `diskutil cs delete`). */
const DISKUTIL_GROUPS = new Set(['apfs', 'cs', 'corestorage', 'appleraid', 'ar']);

/** efibootmgr's options that change the boot entries, their order or the next boot. */
const EFIBOOT_WRITES = [
  'B',
  'c',
  'C',
  'o',
  'O',
  'a',
  'A',
  'n',
  'N',
  't',
  'T',
  '--delete-bootnum',
  '--create',
  '--create-only',
  '--bootorder',
  '--delete-bootorder',
  '--active',
  '--inactive',
  '--bootnext',
  '--delete-bootnext',
  '--timeout',
  '--delete-timeout',
];
const EFIBOOT_VALUED = new Set(['-b', '-o', '-n', '-t', '-l', '-L', '-d', '-p', '-e', '-E', '-u']);
/** bootctl's verbs that write the EFI partition or its boot loader. */
const BOOTCTL_WRITES = new Set(['install', 'update', 'remove', 'unlink', 'cleanup', 'set-default', 'set-oneshot']);

const help = (words: readonly string[]) => words.some((w) => w === '-h' || w === '--help' || w === '--version' || w === '-V');

/** The hit of a tool that erases a disk or changes the machine's firmware or boot, or null. */
export function checkBootDisks(inv: Invocation): Hit | null {
  const words = inv.args.map((a) => a.value);
  if (help(words)) return null;
  switch (inv.program) {
    case 'diskutil': {
      const operands = words.filter((w) => !w.startsWith('-'));
      const first = operands[0]?.toLowerCase();
      const verb = first && DISKUTIL_GROUPS.has(first) ? operands[1] : operands[0];
      if (!verb || !DISKUTIL_WRITES.has(verb.toLowerCase())) return null;
      return { rule: `diskutil ${verb}`, reason: `\`diskutil ${verb}\` erases or repartitions what it names: nothing on it can be got back` };
    }
    case 'flashrom': {
      const p = parseArgs(inv.args, new Set(['-p', '--programmer', '-c', '--chip', '-l', '--layout', '-i', '--image', '-o', '--output']));
      const act = ['w', 'E', '--write', '--erase'].find((f) => p.flags.has(f));
      if (!act) return null;
      return { rule: 'flashrom --write', reason: "`flashrom` writing or erasing replaces the machine's firmware: a bad image leaves it unable to start" };
    }
    case 'efibootmgr': {
      const p = parseArgs(inv.args, EFIBOOT_VALUED);
      const act = EFIBOOT_WRITES.find((f) => p.flags.has(f));
      if (!act) return null;
      const shown = act.length === 1 ? `-${act}` : act;
      return { rule: `efibootmgr ${shown}`, reason: `\`efibootmgr ${shown}\` changes the firmware's boot entries: the machine may no longer start` };
    }
    case 'grub-install':
    case 'grub2-install':
      return { rule: inv.program, reason: `\`${inv.program}\` writes a boot loader onto the disk and /boot: a wrong one leaves the machine unable to start` };
    case 'bootctl': {
      const verb = words.find((w) => !w.startsWith('-'));
      if (!verb || !BOOTCTL_WRITES.has(verb)) return null;
      return { rule: `bootctl ${verb}`, reason: `\`bootctl ${verb}\` changes the boot loader in the EFI partition: the machine may no longer start` };
    }
    default:
      return null;
  }
}
