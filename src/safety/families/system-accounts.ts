import type { Invocation } from '../command.ts';
import type { Hit } from './args.ts';
import { parseArgs } from './system-args.ts';

/**
 * The system family's second root (docs/safety.md): an account made or changed to have user or
 * group id 0 (`useradd -o -u 0 x`, `usermod -u 0 -o x`, `groupadd -o -g 0 x`) is root under
 * another name, a way back in that no one looks for. Every other use of the account tools is
 * everyday in images and setup guides (`useradd -m dev`, `usermod -aG docker $USER`, `adduser -S
 * app`) and passes.
 */

/** The account tools and the option that sets the id each reads as root's. */
const ID_OPTION: Record<string, { short: string; long: string }> = {
  useradd: { short: '-u', long: '--uid' },
  usermod: { short: '-u', long: '--uid' },
  groupadd: { short: '-g', long: '--gid' },
  groupmod: { short: '-g', long: '--gid' },
};

/** The options of the account tools that take a value (so that their values are not read as ids). */
const VALUED = new Set([
  '-u',
  '--uid',
  '-g',
  '--gid',
  '-G',
  '--groups',
  '-d',
  '--home',
  '--home-dir',
  '-s',
  '--shell',
  '-c',
  '--comment',
  '-e',
  '--expiredate',
  '-f',
  '--inactive',
  '-k',
  '--skel',
  '-K',
  '--key',
  '-l',
  '--login',
  '-n',
  '--new-name',
  '-p',
  '--password',
  '-R',
  '--root',
  '-P',
  '--prefix',
  '-Z',
  '--selinux-user',
]);

/** The hit of an account tool that gives an account or group id 0, or null. */
export function checkAccounts(inv: Invocation): Hit | null {
  const id = Object.hasOwn(ID_OPTION, inv.program) ? ID_OPTION[inv.program]! : null;
  if (!id) return null;
  const p = parseArgs(inv.args, VALUED);
  const value = p.values.get(id.short) ?? p.values.get(id.long);
  if (value === undefined || !/^0+$/.test(value)) return null;
  return {
    rule: `${inv.program} ${id.short} 0`,
    reason: `\`${inv.program} ${id.short} 0\` makes an account or group with root's id: root under another name`,
  };
}
