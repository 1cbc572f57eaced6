import type { Invocation } from '../command.ts';
import { unquote } from '../windows-commands.ts';

/**
 * Windows' protections switched off (system-protections.ts reads Linux's and macOS's): Defender's
 * scanning and its exclusions, the firewall's profiles, the services that keep them, the event
 * logs, the registry values behind UAC, remote desktop and Defender's policy, the keys that start
 * a program at every login, WinRM opened, accounts made administrators, the disks erased by
 * PowerShell's storage cmdlets, and the files and processes holding every login's password
 * (the SAM and SECURITY hives saved, LSASS's memory dumped). Cmdlets and programs are matched as
 * Windows matches them, in any case, with or without `.exe`; PowerShell's parameters by any start
 * of their names (`-Enabled:$false`). Their reads pass: `Get-MpPreference`, `Get-NetFirewallProfile`,
 * `sc query`, `reg query`, `wevtutil qe`, `Get-LocalGroupMember`, `cmdkey /list`, `Get-Disk`.
 */

/** What a command switches off: the rule it reports and what that opens. */
interface Off {
  rule: string;
  opens: string;
}

/** The services that keep Windows' protections: Defender, its network inspection, the firewall, the Security Center, the event log. */
const GUARD_SERVICES = new Set(['windefend', 'wdnissvc', 'sense', 'mpssvc', 'wscsvc', 'eventlog', 'securityhealthservice']);

/** A PowerShell value that is false. */
const FALSE = /^(?:\$?false|0)$/;
/** A PowerShell value that is true (a switch given alone is true). */
const TRUE = /^(?:\$?true|1)$/;

/**
 * Registry values that open the machine when set, by their key's end and name: `value` says
 * which data opens it (null: any).
 */
const REG_VALUES: ReadonlyArray<{ name: string; value: RegExp | null; what: string }> = [
  { name: 'disableantispyware', value: /^(?:0x)?0*1$/, what: "Defender's scanning is off" },
  { name: 'disablerealtimemonitoring', value: /^(?:0x)?0*1$/, what: "Defender's real-time scanning is off" },
  { name: 'disablebehaviormonitoring', value: /^(?:0x)?0*1$/, what: "Defender's behaviour monitoring is off" },
  { name: 'enablelua', value: /^(?:0x)?0+$/, what: 'User Account Control is off: every program runs as administrator' },
  { name: 'consentpromptbehavioradmin', value: /^(?:0x)?0+$/, what: 'administrators are never asked before a program takes their rights' },
  { name: 'fdenytsconnections', value: /^(?:0x)?0+$/, what: 'remote desktop takes connections from the network' },
];
/** Registry keys whose subkeys are Windows' own settings: deleting them breaks the machine or drops its policies. */
const REG_SYSTEM_KEYS = /\\(?:software\\microsoft\\windows(?: nt)?\\currentversion|software\\policies|system\\currentcontrolset)(?:\\|$)/;
/** The hives that hold every local account's password hash and the machine's secrets. */
const SECRET_HIVES = /^(?:hklm|hkey_local_machine)\\(?:sam|security|system)$/;
/** Keys that start a program at every login. */
const RUN_KEYS = /\\currentversion\\(?:run|runonce|runservices)$/;

const bare = (program: string) => program.toLowerCase().replace(/\.exe$/, '');
/** Whether PowerShell's parameter word `-Name[:value]` names `full` (any start of it). */
function param(word: string, full: string): boolean {
  const name = word.slice(1).split(':', 1)[0]!;
  return word.startsWith('-') && name.length > 0 && full.startsWith(name);
}
/** A PowerShell parameter's value: after a colon in its word, or the next word (a switch given alone: `true`). */
function paramValue(a: readonly string[], i: number): string {
  const inline = a[i]!.indexOf(':');
  if (inline >= 0) return a[i]!.slice(inline + 1);
  const next = a[i + 1];
  return next === undefined || next.startsWith('-') ? 'true' : next;
}
/** Each parameter of `full`'s names given, with its value. */
function given(a: readonly string[], full: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < a.length; i++) if (param(a[i]!, full)) out.push(paramValue(a, i));
  return out;
}

/** The protection a Windows command switches off, or null. */
export function checkWindowsProtections(inv: Invocation): Off | null {
  // as written: a backslash is a key's separator and `$true` PowerShell's, not bash's
  const a = inv.args.map((w) => unquote(w.raw).toLowerCase());
  switch (bare(inv.program)) {
    case 'set-mppreference': {
      const off = a.find((x, i) => /^-disable/.test(x) && TRUE.test(paramValue(a, i)));
      if (off) return { rule: `Set-MpPreference ${off.split(':')[0]}`, opens: 'Defender stops scanning what it scanned' };
      return a.some((x) => /^-exclusion/.test(x)) ? { rule: 'Set-MpPreference -Exclusion', opens: 'Defender skips what the exclusion names' } : null;
    }
    case 'add-mppreference':
      return a.some((x) => /^-exclusion/.test(x)) ? { rule: 'Add-MpPreference -Exclusion', opens: 'Defender skips what the exclusion names' } : null;
    case 'set-netfirewallprofile':
      return given(a, 'enabled').some((v) => FALSE.test(v))
        ? { rule: 'Set-NetFirewallProfile -Enabled False', opens: "the firewall is off: the machine's ports are open" }
        : null;
    case 'sc': {
      const verb = a[0] ?? '';
      const name = a[1] ?? '';
      if (!GUARD_SERVICES.has(name)) return null;
      const disabled = verb === 'config' && a.slice(2).some((x, i, r) => x === 'disabled' && r[i - 1] === 'start=');
      return disabled || verb === 'stop' || verb === 'delete'
        ? { rule: `sc ${verb} ${name}`, opens: `the ${name} service that keeps a protection stops` }
        : null;
    }
    case 'stop-service':
    case 'set-service':
    case 'remove-service': {
      const names = [...given(a, 'name'), ...a.filter((x) => !x.startsWith('-'))].flatMap((x) => x.split(','));
      const guard = names.find((n) => GUARD_SERVICES.has(n));
      const stops = bare(inv.program) !== 'set-service' || given(a, 'startuptype').includes('disabled') || given(a, 'status').includes('stopped');
      return guard && stops ? { rule: `${inv.program} ${guard}`, opens: `the ${guard} service that keeps a protection stops` } : null;
    }
    case 'wevtutil':
      return a[0] === 'cl' || a[0] === 'clear-log' ? { rule: 'wevtutil cl', opens: 'an event log is emptied: the record of what ran is gone' } : null;
    case 'clear-eventlog':
    case 'remove-eventlog':
      return { rule: inv.program, opens: 'an event log is emptied: the record of what ran is gone' };
    case 'reg':
      return regCommand(a);
    case 'remove-item':
    case 'ri':
    case 'remove-itemproperty': {
      const key = a.find((x) => /^(?:hklm|hkcu|hkey_[a-z_]+):?\\/.test(x));
      return key && REG_SYSTEM_KEYS.test(key.replace(':', ''))
        ? { rule: `${inv.program} registry`, opens: "Windows' own settings deleted from the registry" }
        : null;
    }
    case 'winrm':
      return a[0] === 'set' && a.some((x) => /(?:allowunencrypted|basic)\s*=\s*"?true/.test(x))
        ? { rule: 'winrm set AllowUnencrypted', opens: 'remote PowerShell takes passwords and commands in the clear' }
        : null;
    case 'enable-psremoting':
      return { rule: 'Enable-PSRemoting', opens: 'the machine takes PowerShell sessions from the network' };
    case 'net':
      return a[0] === 'localgroup' && a[1] === 'administrators' && a.includes('/add')
        ? { rule: 'net localgroup administrators /add', opens: 'an account made an administrator' }
        : null;
    case 'add-localgroupmember':
      return given(a, 'group').some((g) => g.replace(/'|"/g, '') === 'administrators') || a.includes('administrators')
        ? { rule: 'Add-LocalGroupMember Administrators', opens: 'an account made an administrator' }
        : null;
    case 'enable-localuser':
      return a.some((x) => x === 'guest' || x === 'administrator') ? { rule: 'Enable-LocalUser', opens: 'a built-in account that logs in' } : null;
    case 'format-volume':
    case 'clear-disk':
    case 'remove-partition':
      return { rule: inv.program, opens: 'a disk or volume is erased: nothing on it can be got back' };
    case 'procdump':
    case 'procdump64':
    case 'procdump64a':
    case 'rundll32': {
      const lsass = a.some((x) => /^lsass(?:\.exe)?$/.test(x)) || a.some((x) => x.includes('comsvcs') || x === 'minidump');
      return lsass && (bare(inv.program).startsWith('procdump') || a.some((x) => x === 'minidump'))
        ? { rule: `${inv.program} lsass`, opens: "LSASS's memory, every login's password and tickets, written to a file" }
        : null;
    }
    default:
      return null;
  }
}

/** `reg delete|add|save` of a key in REG_SYSTEM_KEYS, a value in REG_VALUES, a Run key, or a hive of passwords. */
function regCommand(a: readonly string[]): Off | null {
  const verb = a[0] ?? '';
  const key = (a[1] ?? '').replace(/^"|"$/g, '');
  if (verb === 'save' || verb === 'export') {
    return SECRET_HIVES.test(key) ? { rule: `reg ${verb} ${key.split('\\')[1]}`, opens: "a copy of the hive that holds the accounts' password hashes" } : null;
  }
  if (verb === 'delete') return REG_SYSTEM_KEYS.test(key) ? { rule: 'reg delete', opens: "Windows' own settings deleted from the registry" } : null;
  if (verb !== 'add') return null;
  const at = a.indexOf('/v');
  const name = at >= 0 ? (a[at + 1] ?? '') : '';
  const d = a.indexOf('/d');
  const data = d >= 0 ? (a[d + 1] ?? '') : '';
  if (RUN_KEYS.test(key)) return { rule: 'reg add Run', opens: 'a program started at every login' };
  const hit = REG_VALUES.find((r) => r.name === name && (r.value === null || r.value.test(data)));
  return hit ? { rule: `reg add ${name}`, opens: hit.what } : null;
}
