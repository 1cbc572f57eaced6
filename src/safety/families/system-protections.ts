import type { Invocation } from '../command.ts';
import type { Hit } from './args.ts';
import { linuxOff } from './system-protections-linux.ts';
import { checkWindowsProtections } from './system-protections-windows.ts';

/**
 * The system family's reading of a machine's protections switched off (docs/safety.md, the system
 * row): what keeps the network out, unsigned code from running, the disk encrypted, the backups
 * running and root's powers to root, undone by the tools of Linux and macOS — and Windows'
 * (system-protections-windows.ts). Each is one program and the words that turn the protection
 * off; its reads and the changes that tighten pass (`ufw default deny incoming`, `csrutil status`,
 * `fdesetup status`, `tmutil status`, `defaults read …`, `setcap cap_net_bind_service+ep node`).
 */

/** One program's protection switched off: the rule it reports and what that opens. */
interface Off {
  rule: string;
  opens: string;
}

const lower = (inv: Invocation) => inv.args.map((a) => a.value.toLowerCase());
const words = (args: readonly string[]) => args.filter((a) => !a.startsWith('-'));

/**
 * `defaults write DOMAIN KEY VALUE` of the settings that keep macOS locked: the domain (a
 * preferences file's path or name) by its last part, the key, and whether the value given opens it.
 */
const DEFAULTS: ReadonlyArray<{ domain: string; key: string; opens: (value: string) => boolean; what: string }> = [
  { domain: 'com.apple.launchservices', key: 'lsquarantine', opens: falsy, what: 'downloads lose the quarantine mark Gatekeeper checks' },
  { domain: 'com.apple.security', key: 'gkautorearm', opens: falsy, what: 'Gatekeeper, once off, stays off' },
  { domain: 'com.apple.alf', key: 'globalstate', opens: falsy, what: "the application firewall is off: the machine's ports are open to the network" },
  { domain: 'com.apple.screensaver', key: 'askforpassword', opens: falsy, what: 'the screen unlocks without a password' },
  { domain: 'com.apple.loginwindow', key: 'autologinuser', opens: () => true, what: 'the machine logs in without a password' },
  { domain: 'com.apple.loginwindow', key: 'guestenabled', opens: truthy, what: 'anyone logs in as a guest' },
];

function falsy(v: string): boolean {
  return ['0', 'false', 'no'].includes(v);
}
function truthy(v: string): boolean {
  return ['1', 'true', 'yes'].includes(v);
}

/** The groups whose members act as root through sudo, or administer a Mac. */
const ADMIN_GROUPS = new Set(['sudo', 'wheel', 'admin', 'root']);
/** Capabilities that give a program root's powers over users, files or processes. */
const ROOT_CAPS = /cap_(?:setuid|setgid|dac_override|dac_read_search|sys_admin|sys_ptrace|sys_module|chown|fowner)\b/;

/** The protection a Linux or macOS command switches off, or null. */
function unixOff(inv: Invocation): Off | null {
  const a = lower(inv);
  const w = words(a);
  switch (inv.program) {
    case 'ufw':
      // `ufw default allow [incoming]`: incoming is the default direction
      return w[0] === 'default' && w[1] === 'allow' && (w[2] ?? 'incoming') !== 'outgoing'
        ? { rule: 'ufw default allow', opens: 'every port the firewall closed is open to the network' }
        : null;
    case 'firewall-cmd':
      return a.some((x, i) => x === '--set-default-zone=trusted' || (x === '--set-default-zone' && a[i + 1] === 'trusted'))
        ? { rule: 'firewall-cmd --set-default-zone=trusted', opens: 'the trusted zone accepts everything: every port is open to the network' }
        : null;
    case 'pfctl':
      return a.includes('-d') ? { rule: 'pfctl -d', opens: 'the packet filter is off: every port is open to the network' } : null;
    case 'csrutil':
      return w.includes('disable') ? { rule: 'csrutil disable', opens: "System Integrity Protection is off: root may change macOS's own files" } : null;
    case 'fdesetup':
      return w[0] === 'disable' ? { rule: 'fdesetup disable', opens: 'FileVault is off: the disk is readable by whoever holds the machine' } : null;
    case 'nvram':
      return a.some((x) => /^(?:boot-args|csr-active-config)=/.test(x))
        ? { rule: 'nvram boot-args', opens: "the next boot runs with the kernel's checks changed" }
        : null;
    case 'tmutil':
      return ['disable', 'removedestination', 'disablelocal'].includes(w[0] ?? '')
        ? { rule: `tmutil ${w[0]}`, opens: 'Time Machine stops backing the machine up' }
        : null;
    case 'systemsetup':
      return a.some((x, i) => (x === '-setremotelogin' || x === '-setremoteappleevents') && a[i + 1] === 'on')
        ? { rule: 'systemsetup -setremotelogin on', opens: 'the machine takes remote logins' }
        : null;
    case 'kickstart':
      return a.includes('-activate') ? { rule: 'ARD kickstart -activate', opens: 'remote management takes control of the screen from the network' } : null;
    case 'defaults':
      return defaultsWrite(a);
    case 'asr':
      return a.includes('--erase') ? { rule: 'asr --erase', opens: 'the target volume is erased' } : null;
    case 'sysadminctl':
      return a.includes('-adduser') && a.includes('-admin') ? { rule: 'sysadminctl -addUser -admin', opens: 'a new administrator account' } : null;
    case 'dseditgroup':
      return a.includes('-a') && a.includes('edit') && ADMIN_GROUPS.has(a.at(-1) ?? '')
        ? { rule: `dseditgroup -a ${a.at(-1)}`, opens: 'an account made an administrator' }
        : null;
    case 'chmod': {
      // the set-user-id bit: whoever runs the file runs it as its owner (`chmod u+s`, `+s`, `4755`); a folder's setgid (`g+s`) is everyday
      const mode = a.find((x) => !/^-[rRcfv]*$|^--/.test(x));
      return mode !== undefined && setsUserId(mode) ? { rule: 'chmod u+s', opens: "whoever runs the file runs it as its owner: root's, once chowned" } : null;
    }
    case 'setcap': {
      const cap = a.find((x) => ROOT_CAPS.test(x));
      return cap ? { rule: 'setcap', opens: `a program given ${cap.match(ROOT_CAPS)![0]}: root's powers to whoever runs it` } : null;
    }
    default:
      return inv.program.startsWith('newfs') && a.some((x) => x.startsWith('/dev/'))
        ? { rule: inv.program, opens: 'a new file system over the volume: what it held is erased' }
        : null;
  }
}

/** Whether a chmod mode sets the set-user-id bit (`u+s`, `+s`, `a+s`, `4755`, `6755`). */
function setsUserId(mode: string): boolean {
  if (/^[0-7]{4}$/.test(mode)) return (Number.parseInt(mode, 8) & 0o4000) !== 0;
  return mode.split(',').some((c) => /^[ugoa]*[+=][rwxXst]*s/.test(c) && /^(?:[ua][ugoa]*|[go]*u[ugoa]*|)[+=]/.test(c));
}

/** `defaults write DOMAIN KEY [-type] VALUE` of a setting in DEFAULTS that the value opens. */
function defaultsWrite(a: readonly string[]): Off | null {
  const w = a.filter((x) => !/^-(?:bool|boolean|int|integer|float|string|currenthost|g|globaldomain)$/.test(x));
  if (w[0] !== 'write' || w.length < 3) return null;
  const domain = w[1]!
    .replace(/\.plist$/, '')
    .split('/')
    .at(-1)!;
  const key = w[2]!;
  const value = w[3] ?? '';
  const hit = DEFAULTS.find((d) => d.domain === domain && d.key === key && d.opens(value));
  return hit ? { rule: `defaults write ${hit.domain} ${key}`, opens: hit.what } : null;
}

/** The system family's hit on a command that switches one of the machine's protections off (module comment), or null. */
export function checkProtections(inv: Invocation): Hit | null {
  const off = unixOff(inv) ?? linuxOff(inv) ?? checkWindowsProtections(inv);
  return off ? { rule: off.rule, reason: `\`${off.rule}\` switches one of the machine's protections off: ${off.opens}` } : null;
}
