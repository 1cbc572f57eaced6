import type { Invocation } from '../command.ts';
import type { ArgsCheck, Hit } from './args.ts';

/**
 * What the system family (P1) and the infra family's backups (P4) read on the developer machines
 * that are no Linux server: Windows and macOS, whose own tools keep the machine's protections,
 * its boot and its restore points. A program is named with or without `.exe` (`wsl.exe`).
 *
 * System (denied): a WSL distribution unregistered (`wsl --unregister`: its whole disk, every
 * file in it, goes); the firewall switched off (`netsh advfirewall set … state off`, `netsh
 * firewall set opmode disable`); the boot configuration changed (`bcdedit /set|/delete|/deletevalue`,
 * as `efibootmgr -B`); a drive formatted (`format D:`); Gatekeeper switched off (`spctl
 * --master-disable`); macOS's application firewall switched off (`socketfilterfw --setglobalstate
 * off`, as `defaults write com.apple.alf globalstate 0` is); an account given root's id by
 * Directory Services (`dscl . -create /Users/x UniqueID 0`, as `useradd -o -u 0`). Their reads
 * pass: `wsl --list`, `netsh advfirewall show`, `bcdedit /enum`, `spctl --status`, `socketfilterfw
 * --getglobalstate` (and its apps added or unblocked: `--add`, `--unblock`), `dscl . -read`.
 *
 * Backups (asked): `vssadmin delete shadows`, `vssadmin resize shadowstorage` (the oldest copies
 * deleted to fit), `wmic shadowcopy delete`, `wbadmin delete
 * catalog|backup|systemstatebackup` delete the restore points Windows keeps.
 */

/** A Windows program's name without `.exe`, lower-cased (Windows' names are case-blind). */
function bare(program: string): string {
  return program.toLowerCase().replace(/\.exe$/, '');
}

const lower = (inv: Invocation) => inv.args.map((a) => a.value.toLowerCase());

/** bcdedit's switches that change the boot store. */
const BCDEDIT_WRITES = new Set([
  '/set',
  '/delete',
  '/deletevalue',
  '/bootsequence',
  '/default',
  '/import',
  '/createstore',
  '/displayorder',
  '/copy',
  '/create',
]);

/** The system family's hit on a Windows or macOS protection, boot or disk tool (see the module comment), or null. */
export function checkDesktops(inv: Invocation): Hit | null {
  const args = lower(inv);
  switch (bare(inv.program)) {
    case 'wsl':
      return args.includes('--unregister')
        ? { rule: 'wsl --unregister', reason: '`wsl --unregister` deletes a WSL distribution with its whole disk: every file in it is gone' }
        : null;
    case 'netsh': {
      const off =
        (args[0] === 'advfirewall' && args[1] === 'set' && args.at(-2) === 'state' && args.at(-1) === 'off') ||
        (args[0] === 'firewall' && args[1] === 'set' && args[2] === 'opmode' && (args[3] === 'disable' || args[3] === 'mode=disable'));
      return off ? { rule: 'netsh firewall off', reason: '`netsh` switches the Windows firewall off: every port of the machine is open to the network' } : null;
    }
    case 'bcdedit': {
      const act = args.find((a) => BCDEDIT_WRITES.has(a));
      return act
        ? {
            rule: `bcdedit ${act}`,
            reason: `\`bcdedit ${act}\` changes the boot configuration: the machine may no longer start, or start without its recovery`,
          }
        : null;
    }
    case 'format': {
      const drive = args.find((a) => /^[a-z]:\\?$/.test(a));
      return drive ? { rule: 'format', reason: `\`format ${drive.toUpperCase()}\` erases the drive: nothing on it can be got back` } : null;
    }
    case 'spctl':
      return args.some((a) => a === '--master-disable' || a === '--global-disable')
        ? { rule: 'spctl --master-disable', reason: '`spctl --master-disable` switches Gatekeeper off: any downloaded program runs unchecked' }
        : null;
    case 'socketfilterfw': {
      const at = args.findIndex((a) => a === '--setglobalstate' || a.startsWith('--setglobalstate='));
      const state = at < 0 ? null : args[at]!.includes('=') ? args[at]!.slice(args[at]!.indexOf('=') + 1) : args[at + 1];
      return state === 'off' || state === '0'
        ? {
            rule: 'socketfilterfw --setglobalstate off',
            reason: "`socketfilterfw --setglobalstate off` switches macOS's application firewall off: the machine's ports are open to the network",
          }
        : null;
    }
    case 'dscl': {
      const writes = args.some((a) => a === '-create' || a === '-change' || a === '-append' || a === '-merge');
      const at = args.findIndex((a) => a === 'uniqueid' || a === 'primarygroupid');
      return writes && at >= 0 && args.slice(at + 1).some((a) => /^0+$/.test(a))
        ? { rule: 'dscl UniqueID 0', reason: '`dscl` gives an account the id 0: root under another name, a way back in no one looks for' }
        : null;
    }
    default:
      return null;
  }
}

function backupHit(rule: string): Hit {
  return { rule, reason: `\`${rule}\` deletes the restore points Windows keeps, and nothing keeps another copy` };
}

const vssadmin: ArgsCheck = (args) => {
  const a = args.map((x) => x.toLowerCase());
  // `resize shadowstorage` to less than the copies take deletes the oldest of them
  if (a[0] === 'resize' && a[1] === 'shadowstorage') return backupHit('vssadmin resize shadowstorage');
  return a[0] === 'delete' && a[1] === 'shadows' ? backupHit('vssadmin delete shadows') : null;
};
const wmic: ArgsCheck = (args) => {
  const a = args.map((x) => x.toLowerCase());
  return a.includes('shadowcopy') && a.includes('delete') ? backupHit('wmic shadowcopy delete') : null;
};
const wbadmin: ArgsCheck = (args) => {
  const a = args.map((x) => x.toLowerCase());
  return a[0] === 'delete' && ['catalog', 'backup', 'systemstatebackup'].includes(a[1] ?? '') ? backupHit(`wbadmin delete ${a[1]}`) : null;
};

/** The infra family's Windows backup tools, by name with and without `.exe`. */
export const WINDOWS_BACKUP_TOOLS: Record<string, ArgsCheck> = {
  vssadmin,
  'vssadmin.exe': vssadmin,
  wmic,
  'wmic.exe': wmic,
  wbadmin,
  'wbadmin.exe': wbadmin,
};
