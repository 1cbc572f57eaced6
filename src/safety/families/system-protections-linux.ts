import type { Invocation } from '../command.ts';

/**
 * The system family's reading of Linux's own protections switched off (docs/safety.md, the system
 * row), beside system-protections.ts: SELinux set permissive (`setenforce 0`), AppArmor's profiles
 * unloaded or made to complain (`aa-teardown`, `aa-disable`, `aa-complain`; one profile removed
 * with `apparmor_parser -R`, as setup guides do, passes),
 * the audit rules deleted or auditing stopped (`auditctl -D`, `auditctl -e 0`), the journal
 * emptied (`journalctl --vacuum-time|size|files`), the kernel's hardening loosened (`sysctl -w
 * kernel.randomize_va_space=0`, `kernel.yama.ptrace_scope=0`, `kptr_restrict`, `dmesg_restrict`,
 * `core_pattern` or `modprobe` pointed at a program, `unprivileged_bpf_disabled`), and a kernel
 * module loaded from a file (`insmod ./x.ko`, `modprobe -d DIR`, `kmod insert`) or a security
 * module unloaded. Their reads pass (`getenforce`, `aa-status`, `auditctl -l|-s`, `journalctl
 * --disk-usage`, `sysctl kernel.x`, `lsmod`, `modprobe loop`, `sysctl -w net.core.somaxconn=1024`).
 */

export interface LinuxOff {
  rule: string;
  opens: string;
}

/** The kernel settings that harden it, and whether a value given loosens it. */
const KERNEL: ReadonlyArray<{ key: RegExp; loosens: (v: string) => boolean; what: string }> = [
  {
    key: /^kernel\.randomize_va_space$/,
    loosens: (v) => v === '0',
    what: "address-space randomization is off: the kernel's memory layout is predictable to an exploit",
  },
  {
    key: /^kernel\.yama\.ptrace_scope$/,
    loosens: (v) => v === '0',
    what: "any process may attach to another of the user's and read its memory (an agent's keys among it)",
  },
  {
    key: /^kernel\.(?:kptr_restrict|dmesg_restrict|kexec_load_disabled|unprivileged_bpf_disabled)$/,
    loosens: (v) => v === '0',
    what: 'the kernel shows or lets in what it kept from unprivileged users',
  },
  {
    key: /^kernel\.perf_event_paranoid$/,
    loosens: (v) => Number.parseInt(v, 10) < 2,
    what: "unprivileged users may trace the kernel and other users' processes",
  },
  {
    key: /^kernel\.(?:core_pattern|modprobe|hotplug|poweroff_cmd)$/,
    loosens: (v) => v.startsWith('|') || v.startsWith('/'),
    what: 'the kernel runs that program as root when it is triggered',
  },
  {
    key: /^fs\.protected_(?:symlinks|hardlinks|fifos|regular)$/,
    loosens: (v) => v === '0',
    what: "the file system's protections against link attacks are off",
  },
  { key: /^fs\.suid_dumpable$/, loosens: (v) => v !== '0', what: "set-user-id programs dump their memory, root's secrets among it" },
];

/** The security modules whose unloading switches a protection off. */
const SECURITY_MODULES = /^(?:apparmor|selinux|yama|lockdown|integrity|ima|tomoyo|smack|landlock)$/;

/** `sysctl -w key=value`, `sysctl key=value` of a kernel setting KERNEL names with a value that loosens it. */
function sysctlWrite(args: readonly string[]): LinuxOff | null {
  for (const x of args) {
    const eq = x.indexOf('=');
    if (x.startsWith('-') || eq < 0) continue;
    const key = x.slice(0, eq).replace(/\//g, '.');
    const value = x.slice(eq + 1).replace(/^['"]|['"]$/g, '');
    const hit = KERNEL.find((k) => k.key.test(key));
    if (hit?.loosens(value)) return { rule: `sysctl ${key}`, opens: hit.what };
  }
  return null;
}

/** The Linux protection a command switches off (module comment), or null. */
export function linuxOff(inv: Invocation): LinuxOff | null {
  const a = inv.args.map((w) => w.value);
  if (a.includes('--help') || a.includes('-h')) return null;
  const w = a.filter((x) => !x.startsWith('-'));
  switch (inv.program) {
    case 'setenforce':
      return /^(?:0|permissive)$/i.test(w[0] ?? '')
        ? { rule: 'setenforce 0', opens: 'SELinux stops enforcing its policy: every confined program runs unconfined' }
        : null;
    case 'aa-teardown':
      return { rule: 'aa-teardown', opens: 'every AppArmor profile is unloaded: the programs it confined run unconfined' };
    case 'aa-disable':
    case 'aa-complain':
      return w.length ? { rule: inv.program, opens: 'AppArmor stops enforcing the profiles named' } : null;
    case 'auditctl':
      if (a.includes('-D')) return { rule: 'auditctl -D', opens: 'every audit rule is deleted: what runs on the machine is no longer recorded' };
      return a.some((x, i) => x === '-e' && a[i + 1] === '0')
        ? { rule: 'auditctl -e 0', opens: 'auditing is off: what runs on the machine is no longer recorded' }
        : null;
    case 'journalctl':
      return a.some((x) => /^--vacuum-(?:time|size|files)/.test(x))
        ? { rule: 'journalctl --vacuum', opens: "the system's logs are deleted: what happened on the machine can no longer be read" }
        : null;
    case 'sysctl':
      return sysctlWrite(a);
    case 'insmod':
      return w.length ? { rule: 'insmod', opens: 'a module loaded into the kernel from a file: code that runs with every power over the machine' } : null;
    case 'modprobe':
      if (a.some((x) => x === '-d' || x.startsWith('--dirname')))
        return { rule: 'modprobe -d', opens: 'a module loaded into the kernel from another folder: code that runs with every power over the machine' };
      return a.some((x) => x === '-r' || x === '--remove') && w.some((x) => SECURITY_MODULES.test(x))
        ? { rule: 'modprobe -r', opens: 'a security module unloaded' }
        : null;
    case 'kmod':
      return w[0] === 'insert' || w[0] === 'insmod'
        ? { rule: 'kmod insert', opens: 'a module loaded into the kernel from a file: code that runs with every power over the machine' }
        : null;
    case 'rmmod':
      return w.some((x) => SECURITY_MODULES.test(x)) ? { rule: 'rmmod', opens: 'a security module unloaded' } : null;
    default:
      return null;
  }
}
