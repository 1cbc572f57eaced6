import { type Invocation, programName } from '../command.ts';
import type { Hit } from './args.ts';
import { parseArgs } from './system-args.ts';
import { LOGIN_ITEM_CHECKS } from './system-login-items.ts';

/**
 * The system family's start-up and scheduling checks (docs/safety.md, the `system` row): what makes
 * a program run at every boot or login, or again and again, outside the session and the guard —
 * a systemd unit enabled or linked (`systemctl --user enable --now x`), a systemd-run timer, the
 * user's services kept running without a login (`loginctl enable-linger`), the same through
 * D-Bus, the other init systems' boot services, a launchd job loaded, a Windows scheduled task, and a key added to the user's own
 * `authorized_keys` (`ssh-copy-id localhost`). Starting, stopping and reading units passes
 * (`systemctl --user restart dev`, `systemctl status nginx`), and so does a one-shot delayed run,
 * whose command is read as `at`'s is (`systemd-run --on-active=30 make`).
 */

/** How the reasons end: what to do instead. */
const PERSON = "what starts with the machine is its owner's to set up, not the task's";

/**
 * systemctl's verbs that add a unit to what starts at boot or login (enable, link, a dependency
 * added, presets applied), or change what every later unit runs with (a drop-in from stdin,
 * the manager's environment).
 */
const SYSTEMCTL_STARTUP = new Set(['enable', 'reenable', 'link', 'preset', 'preset-all', 'add-wants', 'add-requires', 'set-environment']);
/** systemctl's options that take a value. */
export const SYSTEMCTL_VALUED = new Set([
  '-t',
  '--type',
  '-s',
  '--signal',
  '-H',
  '--host',
  '-M',
  '--machine',
  '-p',
  '--property',
  '-P',
  '-n',
  '--lines',
  '-o',
  '--output',
  '--state',
  '--job-mode',
  '--root',
  '--kill-whom',
  '--what',
  '--timestamp',
  '--drop-in',
]);

/** `systemctl enable|reenable|link|preset|add-wants … UNIT`, `systemctl edit --stdin`, `systemctl set-environment`. */
function systemctl(inv: Invocation): Hit | null {
  const p = parseArgs(inv.args, SYSTEMCTL_VALUED);
  const verb = p.operands[0]?.value;
  if (!verb) return null;
  const user = inv.args.some((w) => w.value === '--user') ? ' --user' : '';
  if (SYSTEMCTL_STARTUP.has(verb)) {
    const what =
      verb === 'set-environment'
        ? 'changes what every unit started later runs with (PATH among them)'
        : 'makes a unit start at every boot or login, outside the session';
    return { rule: `systemctl${user} ${verb}`, reason: `\`systemctl${user} ${verb}\` ${what}: ${PERSON}` };
  }
  // `systemctl edit --stdin x`: a drop-in read from the input (an editor alone is a person's)
  if (verb === 'edit' && inv.args.some((w) => w.value === '--stdin'))
    return {
      rule: `systemctl${user} edit --stdin`,
      reason: `\`systemctl edit --stdin\` writes what it reads into a unit, which then runs outside the session: ${PERSON}`,
    };
  return null;
}

/** systemd-run's options that make a timer or a trigger: the command runs later, again and again or at boot. `--on-active` (once, after a delay) is read as `at`. */
const SYSTEMD_RUN_LATER =
  /^--(on-calendar|on-boot|on-startup|on-unit-active|on-unit-inactive|on-clock-change|on-timezone-change|timer-property|path-property|socket-property)(=|$)/;

/** `systemd-run --on-calendar=hourly cmd`: the wrapper's options, read from the words before the command it runs. */
function systemdRunTimer(inv: Invocation): Hit | null {
  const words = inv.command.words;
  const end = words.length - inv.args.length - 1;
  const at = words.findIndex((w, i) => i < end && programName(w.value) === 'systemd-run');
  if (at < 0) return null;
  const timer = words.slice(at + 1, end).find((w) => SYSTEMD_RUN_LATER.test(w.value));
  if (!timer) return null;
  const option = timer.value.replace(/=.*/, '');
  return {
    rule: `systemd-run ${option}`,
    reason: `\`systemd-run ${option}\` schedules \`${inv.program}\` to run later, again or at boot, outside the session and its checks: ${PERSON}`,
  };
}

/** `loginctl enable-linger [user]`: the user's services start at boot and outlive every login. */
function loginctl(inv: Invocation): Hit | null {
  if (!inv.args.some((w) => w.value === 'enable-linger')) return null;
  return {
    rule: 'loginctl enable-linger',
    reason: `\`loginctl enable-linger\` starts the user's services at boot and keeps them running with no one logged in: ${PERSON}`,
  };
}

/** The D-Bus services whose methods start, enable or keep units: systemd's manager and logind. */
const DBUS_MANAGERS = /^org\.freedesktop\.(systemd1|login1)$/;
/** Methods that only read: `GetUnit`, `ListUnits`, `Introspect`, `org.freedesktop.DBus.Properties.Get`. */
const DBUS_READS = /^(Get|List|Introspect|Lookup|Dump|Ping|Peer)/;

/**
 * `dbus-send --dest=org.freedesktop.systemd1 … Manager.StartUnit`, `busctl call
 * org.freedesktop.systemd1 … StartTransientUnit …`, `gdbus call --dest … --method …`: a call to
 * systemd or logind that is no read. `StartTransientUnit` runs a command the call's arguments hold,
 * which the guard does not read; systemctl and systemd-run are the ways it reads.
 */
function dbusCall(inv: Invocation): Hit | null {
  const a = inv.args.map((w) => w.value);
  let dest: string | undefined;
  let method: string | undefined;
  if (inv.program === 'dbus-send') {
    dest = a.find((x) => x.startsWith('--dest='))?.slice(7);
    method = a.filter((x) => !x.startsWith('-') && !x.startsWith('/') && !/^[a-z0-9]+:/.test(x))[0];
  } else if (inv.program === 'gdbus') {
    dest = valueAfter(a, ['--dest', '-d']);
    method = valueAfter(a, ['--method', '-m']);
  } else if (inv.program === 'busctl') {
    const ops = a.filter((x) => !x.startsWith('-'));
    if (ops[0] !== 'call') return null;
    [, dest, , , method] = ops;
  } else return null;
  if (!dest || !method || !DBUS_MANAGERS.test(dest)) return null;
  const name = method.slice(method.lastIndexOf('.') + 1);
  if (DBUS_READS.test(name)) return null;
  return {
    rule: `${inv.program} ${dest} ${name}`,
    reason: `\`${inv.program}\` calls ${name} on ${dest}, which starts, enables or keeps units running outside the session (or runs a command its arguments hold): systemctl and systemd-run are the ways the guard reads`,
  };
}

/** The value of the first of `names` given apart (`--dest x`) or joined (`--dest=x`). */
function valueAfter(args: readonly string[], names: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (names.includes(args[i]!)) return args[i + 1];
    const joined = names.find((n) => n.startsWith('--') && args[i]!.startsWith(`${n}=`));
    if (joined) return args[i]!.slice(joined.length + 1);
  }
  return undefined;
}

/** launchctl's verbs that load a job (a plist, or a command for `submit`), to run now and at every login with `-w`. */
const LAUNCHCTL_LOADS = new Set(['load', 'bootstrap', 'submit', 'enable']);

/** `launchctl load|bootstrap|submit|enable …`; `list`, `print`, `kickstart`, `unload`, `bootout` pass. */
function launchctl(inv: Invocation): Hit | null {
  const verb = inv.args.find((w) => !w.value.startsWith('-'))?.value;
  if (!verb || !LAUNCHCTL_LOADS.has(verb)) return null;
  return {
    rule: `launchctl ${verb}`,
    reason: `\`launchctl ${verb}\` loads a job launchd runs outside the session, at every login where it is kept: ${PERSON}`,
  };
}

/** `schtasks /create`, `/change`: a Windows task that runs a program on a schedule or at logon. */
function schtasks(inv: Invocation): Hit | null {
  const verb = inv.args.find((w) => /^[/-](create|change)$/i.test(w.value))?.value;
  if (!verb) return null;
  const v = `/${verb.slice(1).toLowerCase()}`;
  return { rule: `schtasks ${v}`, reason: `\`schtasks ${v}\` sets a program to run on a schedule or at logon, outside the session: ${PERSON}` };
}

/**
 * The other init systems' ways to add a service to what starts at boot: `update-rc.d x defaults|enable`
 * (not `-n`, which only shows), `chkconfig x on`, `chkconfig --add x`, `rc-update add x [runlevel]`;
 * their listings pass.
 */
function initScripts(inv: Invocation): Hit | null {
  const a = inv.args.map((w) => w.value);
  const verb =
    inv.program === 'update-rc.d'
      ? !a.includes('-n') && a.find((x) => x === 'defaults' || x === 'enable')
      : inv.program === 'chkconfig'
        ? (a.includes('--add') && '--add') || (a.at(-1) === 'on' && 'on')
        : (a[0] === 'add' || a[0] === '-a') && 'add';
  if (!verb) return null;
  return { rule: `${inv.program} ${verb}`, reason: `\`${inv.program} ${verb}\` adds a service to what starts at boot, outside the session: ${PERSON}` };
}

/** Names of this machine as ssh-copy-id's target: a key sent there lets whoever holds it log in here. */
const THIS_MACHINE = /^(localhost|localhost\.localdomain|127(\.\d+){3}|::1|\[::1\]|0\.0\.0\.0|0)$/;
const SSH_COPY_ID_VALUED = new Set(['-i', '-p', '-o', '-F', '-t', '-x']);

/** `ssh-copy-id [-i key] [user@]localhost`: a key added to this user's own authorized_keys. */
function sshCopyId(inv: Invocation): Hit | null {
  const target = parseArgs(inv.args, SSH_COPY_ID_VALUED).operands[0]?.value;
  const host = target?.slice(target.lastIndexOf('@') + 1);
  if (!host || !THIS_MACHINE.test(host)) return null;
  return {
    rule: 'ssh-copy-id localhost',
    reason: "`ssh-copy-id` to this machine adds the key to the user's own ~/.ssh/authorized_keys: whoever holds it logs in here",
  };
}

const CHECKS: Record<string, (inv: Invocation) => Hit | null> = {
  systemctl,
  loginctl,
  'dbus-send': dbusCall,
  gdbus: dbusCall,
  busctl: dbusCall,
  launchctl,
  schtasks,
  'schtasks.exe': schtasks,
  'ssh-copy-id': sshCopyId,
  'update-rc.d': initScripts,
  chkconfig: initScripts,
  'rc-update': initScripts,
  // macOS's login hooks and items, Windows' Run keys, the npm clients' script shell (system-login-items.ts)
  ...LOGIN_ITEM_CHECKS,
};

/** The hit of a command that makes a program start with the machine, at login or on a schedule, or null. */
export function checkStartup(inv: Invocation): Hit | null {
  const check = Object.hasOwn(CHECKS, inv.program) ? CHECKS[inv.program]! : null;
  return (check ? check(inv) : null) ?? (inv.via.includes('systemd-run') ? systemdRunTimer(inv) : null);
}
