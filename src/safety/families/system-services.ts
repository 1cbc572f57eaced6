import type { Invocation } from '../command.ts';
import type { Hit } from './args.ts';
import { hasFlag, parseArgs } from './system-args.ts';
import { checkStartup, SYSTEMCTL_VALUED } from './system-startup.ts';

/**
 * The system family's checks that name no file (system.ts does the files): replacing or
 * deleting the crontab, flushing or switching off the firewall, signalling every process (or
 * every process of a user: `pkill -u name`), stopping remote access or the firewall service;
 * what starts with the machine or on a schedule is system-startup.ts's.
 */

const CRONTAB_VALUED = new Set(['-u']);
/** crontab's options that leave the table as it is: list, edit (a person at an editor), cronie's syntax test, version, help. */
const CRONTAB_READS = Object.entries({ l: '--list', e: '--edit', T: '--test', V: '--version', h: '--help' });
const IPTABLES = new Set(['iptables', 'ip6tables', 'iptables-legacy', 'ip6tables-legacy', 'iptables-nft', 'ip6tables-nft', 'ebtables', 'arptables']);
const IPTABLES_FLUSH = new Set(['-F', '--flush', '-X', '--delete-chain']);
const SYSTEMCTL_VERBS = new Set(['stop', 'disable', 'mask', 'kill']);
/** Services whose stop cuts the way into the machine or opens it to the network. */
const GUARD_SERVICES = new Map([
  ['ssh', 'remote logins to this machine'],
  ['sshd', 'remote logins to this machine'],
  ['firewalld', 'the firewall'],
  ['ufw', 'the firewall'],
  ['nftables', 'the firewall'],
  ['iptables', 'the firewall'],
  ['netfilter-persistent', 'the firewall'],
  ['apparmor', "AppArmor's confinement of programs"],
  ['auditd', 'the audit log of what runs on the machine'],
]);

/** The hit of a command that changes the machine's services, schedule or processes, or null. */
export function checkServices(inv: Invocation): Hit | null {
  const { program, args } = inv;
  if (program === 'crontab') return crontab(inv);
  if (program === 'kill') return kill(inv);
  if (program === 'pkill') return pkill(inv);
  if (IPTABLES.has(program)) {
    const flag = args.find((w) => IPTABLES_FLUSH.has(w.value));
    return flag
      ? {
          rule: `${program} ${flag.value}`,
          reason: `\`${program} ${flag.value}\` deletes the firewall rules, which are kept nowhere else: the machine is open until someone rebuilds them`,
        }
      : null;
  }
  if (program === 'ufw') {
    const verb = args.find((w) => !w.value.startsWith('-'))?.value;
    if (verb === 'disable' || verb === 'reset')
      return {
        rule: `ufw ${verb}`,
        reason: `\`ufw ${verb}\` ${verb === 'reset' ? 'deletes every firewall rule' : 'switches the firewall off'}, opening the machine to the network`,
      };
    return null;
  }
  if (program === 'nft') {
    // `nft flush ruleset` and `nft 'flush ruleset'`
    const words = args
      .map((w) => w.value)
      .join(' ')
      .split(/\s+/);
    const f = words.indexOf('flush');
    return f >= 0 && words[f + 1] === 'ruleset'
      ? { rule: 'nft flush ruleset', reason: '`nft flush ruleset` deletes every firewall rule, opening the machine to the network' }
      : null;
  }
  if (program === 'systemctl' || program === 'service') return service(inv) ?? checkStartup(inv);
  if (program === 'launchctl') return launchdFirewall(inv) ?? checkStartup(inv);
  return checkStartup(inv);
}

/** launchctl's verbs that stop a job or keep it from starting. */
const LAUNCHCTL_STOPS = new Set(['bootout', 'unload', 'disable', 'remove', 'stop', 'kill']);

/**
 * `launchctl bootout system/com.apple.alf`, `launchctl unload …/com.apple.alf.agent.plist`:
 * macOS's application firewall stopped, as `systemctl stop ufw` is; other jobs pass (`launchctl
 * unload` of an app's agent is everyday).
 */
function launchdFirewall(inv: Invocation): Hit | null {
  const words = inv.args.map((w) => w.value).filter((v) => !v.startsWith('-'));
  if (!LAUNCHCTL_STOPS.has(words[0] ?? '') || !words.slice(1).some((w) => /(?:^|[/.])com\.apple\.alf(?:\.agent)?(?:\.plist)?$/.test(w))) return null;
  const written = `launchctl ${words[0]} com.apple.alf`;
  return { rule: written, reason: `\`${written}\` switches off the firewall: that is the machine's administration, not the task` };
}

/**
 * `crontab -r` deletes the table; `crontab file`, `crontab -` and a bare `crontab` (no file, which
 * reads the new table from stdin: `crontab < /dev/null`, `echo '…' | crontab`) replace it. Listing,
 * editing (`-e`: a person at an editor), cronie's syntax test (`-T`), help and the version pass.
 */
function crontab(inv: Invocation): Hit | null {
  const p = parseArgs(inv.args, CRONTAB_VALUED);
  if (hasFlag(p, 'r', '--remove')) return { rule: 'crontab -r', reason: "`crontab -r` deletes the user's whole crontab, of which no copy is kept" };
  if (CRONTAB_READS.some(([short, long]) => hasFlag(p, short, long))) return null;
  const file = p.operands[0]?.value ?? '-';
  return {
    rule: 'crontab <file>',
    reason: `\`crontab${p.operands[0] ? ` ${file}` : ''}\` replaces the user's whole crontab with ${file === '-' ? 'what it reads on its input' : file}: the jobs it held are lost and the new ones run outside the task`,
  };
}

/** `kill -9 -1`, `kill -s KILL -- -1`: -1 as a process is every process the user may signal. */
function kill(inv: Invocation): Hit | null {
  const a = inv.args.map((w) => w.value);
  let i = 0;
  if (a[0] === '-l' || a[0] === '-L' || a[0] === '--list' || a[0] === '--table') return null;
  if (a[0] === '-s' || a[0] === '-n' || a[0] === '--signal') i = 2;
  else if (a[0] !== undefined && a[0] !== '--' && a[0].startsWith('-')) i = 1;
  for (; i < a.length; i++) {
    if (a[i] === '-1')
      return {
        rule: 'kill -1',
        reason: '`kill ... -1` signals every process the user may signal (the session, editors, the agent itself); what it ends cannot be brought back',
      };
  }
  return null;
}

const PKILL_VALUED = new Set([
  '-g',
  '--pgroup',
  '-G',
  '--group',
  '-P',
  '--parent',
  '-s',
  '--session',
  '-t',
  '--terminal',
  '-u',
  '--euid',
  '-U',
  '--uid',
  '-F',
  '--pidfile',
  '--signal',
  '--ns',
  '--nslist',
  '--cgroup',
  '-q',
  '--queue',
]);
/** Options that narrow pkill's choice below all of a user's processes. */
const PKILL_NARROW = ['-g', '--pgroup', '-P', '--parent', '-s', '--session', '-t', '--terminal', '-F', '--pidfile', '--ns', '--cgroup'];

/** `pkill -9 -u dev`, `pkill -KILL -u "$USER"`: a user named and no pattern (or one that matches all) signals every process of that user. */
function pkill(inv: Invocation): Hit | null {
  // `-9`, `-KILL`, `-SIGTERM`, `-USR1`: the signal, not options
  const args = inv.args.filter((w) => !/^-(\d+|[A-Z]{2,}[A-Z0-9+-]*)$/.test(w.value));
  const p = parseArgs(args, PKILL_VALUED);
  const user = p.values.get('-u') ?? p.values.get('--euid') ?? p.values.get('-U') ?? p.values.get('--uid');
  if (user === undefined || PKILL_NARROW.some((o) => p.values.has(o))) return null;
  const pattern = p.operands[0]?.value;
  if (pattern !== undefined && !/^(\^?\.[*+]?\$?|\^|\$|)$/.test(pattern)) return null;
  return {
    rule: 'pkill -u',
    reason: `\`pkill -u ${user}\` signals every process of ${user} (the session, editors, the agent itself); what it ends cannot be brought back`,
  };
}

/** `systemctl stop sshd`, `service ufw stop`: remote access or the firewall switched off. */
function service(inv: Invocation): Hit | null {
  const words = parseArgs(inv.args, SYSTEMCTL_VALUED).operands.map((w) => w.value);
  // systemctl <verb> <units...>; service <unit> <verb>
  const [verb, units] = inv.program === 'systemctl' ? [words[0], words.slice(1)] : [words[1], words.slice(0, 1)];
  if (!verb || !SYSTEMCTL_VERBS.has(verb)) return null;
  for (const u of units) {
    const what = GUARD_SERVICES.get(u.replace(/\.(service|socket)$/, ''));
    const written = inv.program === 'systemctl' ? `systemctl ${verb} ${u}` : `service ${u} ${verb}`;
    if (what) return { rule: written, reason: `\`${written}\` switches off ${what}: that is the machine's administration, not the task` };
  }
  return null;
}
