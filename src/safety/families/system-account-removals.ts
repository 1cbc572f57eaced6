import type { Invocation } from '../command.ts';
import type { Hit } from './args.ts';

/**
 * The system family's reading of an account removed with its home folder (docs/safety.md, the system row): `userdel -r|--remove`, `deluser --remove-home|--remove-all-files`,
 * FreeBSD's `pw userdel -r`, macOS's `dscl . -delete /Users/NAME` and `sysadminctl -deleteUser`
 * (without `-keepHome`). Every file the user kept goes with the
 * home folder. Their reads pass (`id`, `getent passwd`, `dscl . -read`), a user taken out of a group
 * (`deluser u docker`), and `passwd -d`, which an image or a setup guide runs (redteam10's battery).
 */
export function checkAccountRemoval(inv: Invocation): Hit | null {
  const a = inv.args.map((w) => w.value);
  const home = (rule: string) => ({ rule, reason: `\`${rule}\` removes an account with its home folder: every file the user kept there goes with it` });
  switch (inv.program) {
    case 'userdel':
      return a.some((x) => x === '--remove' || /^-[a-zA-Z]*r/.test(x)) ? home('userdel -r') : null;
    case 'deluser':
      return a.some((x) => x === '--remove-home' || x === '--remove-all-files') ? home('deluser --remove-home') : null;
    case 'pw':
      return a[0] === 'userdel' && a.includes('-r') ? home('pw userdel -r') : null;
    case 'dscl':
      return a.includes('-delete') && a.some((x) => /^\/Users\/[^/]+\/?$/.test(x)) ? home('dscl -delete /Users') : null;
    case 'sysadminctl':
      return a.some((x) => x.toLowerCase() === '-deleteuser') && !a.some((x) => x.toLowerCase() === '-keephome') ? home('sysadminctl -deleteUser') : null;
    default:
      return null;
  }
}
