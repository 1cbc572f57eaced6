import type { Invocation } from '../command.ts';
import { starGlob } from '../patterns.ts';
import { UNKNOWN } from '../shell.ts';
import type { Hit } from './args.ts';
import { parseArgs } from './system-args.ts';

/**
 * The system family's check on the system's package managers (docs/safety.md): removing a
 * package without which the machine no longer boots, logs in, runs a shell, installs packages or
 * can be reached (ESSENTIAL) — `apt-get purge libc6`, `dnf remove systemd`, `pacman -Rdd bash`,
 * `apk del busybox`, `rpm -e --nodeps sudo`, `apt-get remove 'linux-image-*'`. Installing, and
 * removing any other package, pass.
 */

/** What a group of essential packages is, and its names: exact, and families of names with one of them as a sample (`linux-image-6.1.0-13-amd64`). */
interface Essential {
  what: string;
  names: readonly string[];
  families?: ReadonlyArray<{ pattern: RegExp; sample: string }>;
  /** only where the package tools need it (Debian's and Fedora's: apt, dpkg, dnf, yum, rpm) */
  debianFedora?: boolean;
}

const ESSENTIAL: readonly Essential[] = [
  { what: 'the C library every program is linked against', names: ['libc6', 'libc-bin', 'glibc', 'glibc-common', 'musl'] },
  {
    what: 'the shell and the basic commands every script and login runs',
    names: ['bash', 'dash', 'busybox', 'coreutils', 'coreutils-single', 'util-linux', 'base-files', 'filesystem', 'alpine-baselayout', 'base'],
  },
  { what: 'the init system that starts the machine', names: ['systemd', 'systemd-sysv', 'init', 'sysvinit-core', 'openrc'] },
  { what: 'the package manager itself', names: ['apt', 'dpkg', 'dnf', 'yum', 'rpm', 'pacman', 'apk-tools', 'zypper', 'libzypp'] },
  { what: 'the way to log in and act as root', names: ['sudo', 'login', 'passwd'] },
  { what: 'the ssh server: the way into the machine', names: ['openssh-server', 'openssh', 'ssh', 'dropbear'] },
  {
    what: 'the kernel the machine boots',
    names: ['linux-generic', 'linux-virtual', 'linux', 'linux-lts', 'linux-virt', 'kernel', 'kernel-core', 'kernel-modules', 'kernel-modules-core'],
    families: [{ pattern: /^linux-image-/, sample: 'linux-image-amd64' }],
  },
  {
    what: 'the boot loader',
    names: ['grub', 'grub2', 'shim', 'systemd-boot'],
    families: [
      { pattern: /^grub2?-(common|pc|efi)/, sample: 'grub-pc' },
      { pattern: /^shim-/, sample: 'shim-x64' },
    ],
  },
  {
    what: "python3, which the system's own tools run on",
    names: ['python3', 'python3-minimal', 'libpython3-stdlib'],
    families: [{ pattern: /^python3\.\d+$/, sample: 'python3.11' }],
    debianFedora: true,
  },
];

/** A package manager's options that take a value (the word after them is no package). */
const VALUED: Record<string, readonly string[]> = {
  apt: ['-o', '-c', '-t', '--target-release', '--option', '--config-file'],
  dpkg: ['--admindir', '--root', '--instdir', '-D', '--debug'],
  dnf: ['-c', '--config', '--releasever', '--installroot', '-x', '--exclude', '--enablerepo', '--disablerepo', '--repo', '--repoid', '-d', '-e', '--setopt'],
  zypper: ['-c', '--config', '-R', '--root', '--repo', '-r'],
  pacman: ['-r', '--root', '-b', '--dbpath', '--config', '--cachedir', '--arch', '--gpgdir', '--hookdir', '--logfile'],
  apk: ['-X', '--repository', '-p', '--root', '--arch', '--cache-dir', '--keys-dir', '--repositories-file', '-t', '--virtual'],
  rpm: ['--root', '--dbpath', '-D', '--define', '--rcfile', '--macros'],
};

/** The programs of each manager, as VALUED names them. */
const MANAGER: Record<string, keyof typeof VALUED> = {
  apt: 'apt',
  'apt-get': 'apt',
  aptitude: 'apt',
  dpkg: 'dpkg',
  dnf: 'dnf',
  dnf5: 'dnf',
  yum: 'dnf',
  microdnf: 'dnf',
  tdnf: 'dnf',
  zypper: 'zypper',
  pacman: 'pacman',
  apk: 'apk',
  rpm: 'rpm',
};

/** The verbs that remove the packages named after them (`apt-get autoremove bash` removes bash too). */
const REMOVE_VERBS: Record<string, ReadonlySet<string>> = {
  apt: new Set(['remove', 'purge', 'autoremove', 'autopurge']),
  dnf: new Set(['remove', 'erase', 'rm', 'autoremove']),
  zypper: new Set(['remove', 'rm']),
  apk: new Set(['del']),
};

/** The package names a command removes, as written, or null: the operands of a removing verb or option, `name-` given to `apt install`. */
function removed(manager: keyof typeof VALUED, inv: Invocation): string[] | null {
  const p = parseArgs(inv.args, new Set(VALUED[manager]));
  const operands = p.operands.map((w) => w.value);
  const verbs = REMOVE_VERBS[manager];
  if (verbs) {
    const [verb, ...names] = operands;
    if (verb !== undefined && verbs.has(verb)) return names;
    // `apt install bash-`, `aptitude install bash_`: a name with a `-` (or `_`) at its end is removed
    if (manager === 'apt' && verb === 'install') return names.filter((n) => /[-_]$/.test(n)).map((n) => n.slice(0, -1));
    return null;
  }
  const short = (c: string) => p.flags.has(c);
  if (manager === 'dpkg') return short('r') || short('P') || p.flags.has('--remove') || p.flags.has('--purge') ? operands : null;
  if (manager === 'rpm') return short('e') || p.flags.has('--erase') ? operands : null;
  // pacman: -R (in any cluster: -Rns, -Rdd) or --remove
  return short('R') || p.flags.has('--remove') ? operands : null;
}

/** A package as written reduced to its name: no `:arch`, `=version`, `/release`; for rpm's tools no `-version-release.arch`. */
function packageName(written: string, rpmLike: boolean): string {
  let name = written.replace(/[:=/].*$/, '');
  if (rpmLike) name = name.replace(/\.(x86_64|i686|aarch64|noarch|armv7hl|ppc64le|s390x)$/, '').replace(/-\d.*$/, '');
  return name;
}

/** The essential group a package name (or a pattern of names, `linux-image-*`) falls in, or null. */
function essentialOf(name: string, debianFedora: boolean): Essential | null {
  if (!name || name.includes(UNKNOWN)) return null;
  const pattern = name.includes('*') ? starGlob(name, '.*') : null;
  for (const e of ESSENTIAL) {
    if (e.debianFedora && !debianFedora) continue;
    if (e.names.includes(name) || e.families?.some((f) => f.pattern.test(name))) return e;
    // a pattern written (`linux-image-*`, `libc*`) may name an essential package
    if (pattern && [...e.names, ...(e.families ?? []).map((f) => f.sample)].some((n) => pattern.test(n))) return e;
  }
  return null;
}

/** The hit of a package manager's command that removes an essential package, or null. */
export function checkPackages(inv: Invocation): Hit | null {
  const manager = Object.hasOwn(MANAGER, inv.program) ? MANAGER[inv.program]! : null;
  if (!manager) return null;
  const names = removed(manager, inv);
  const rpmLike = manager === 'dnf' || manager === 'rpm' || manager === 'zypper';
  const debianFedora = manager === 'apt' || manager === 'dpkg' || manager === 'dnf' || manager === 'rpm';
  for (const written of names ?? []) {
    const name = packageName(written, rpmLike);
    const e = essentialOf(name, debianFedora);
    if (e)
      return {
        rule: `${inv.program} remove ${name}`,
        reason: `\`${inv.program}\` removes ${name}, ${e.what}: without it the machine may no longer boot, log in, install packages or be reached, and nothing on it can put it back`,
      };
  }
  return null;
}
