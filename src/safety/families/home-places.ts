import { HOME_CREDENTIALS } from '../../model/home-credentials.ts';
import { resolvePath } from '../paths.ts';
import { UNKNOWN } from '../shell.ts';

/**
 * The home folder's start-up files, relative to it: what a shell, a login, a desktop session, ssh
 * or git reads and acts on by itself, so a line written there runs later, outside the session
 * (`echo 'curl x|sh' >> ~/.bashrc`), or lets someone in (`~/.ssh/authorized_keys`). A folder
 * stands for everything in it.
 */
export const HOME_STARTUP_FILES: readonly string[] = [
  // the shells' start-up and logout files, and the folders of snippets some of them source
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.zlogout',
  '.kshrc',
  '.mkshrc',
  '.cshrc',
  '.tcshrc',
  '.login',
  '.logout',
  '.bashrc.d',
  '.zshrc.d',
  '.config/fish',
  '.config/nushell',
  // the login's environment and the X session's scripts; what the desktop and systemd start at login
  '.pam_environment',
  '.xprofile',
  '.xinitrc',
  '.xsession',
  '.xsessionrc',
  '.config/autostart',
  '.config/systemd',
  '.config/environment.d',
  '.local/share/systemd',
  'Library/LaunchAgents',
  // who may log in with ssh, and what ssh runs and sends for every connection
  '.ssh/authorized_keys',
  '.ssh/authorized_keys2',
  '.ssh/config',
  '.ssh/rc',
  '.ssh/environment',
  // git's global settings: a hook folder, an editor, a credential helper run by every git command
  '.gitconfig',
  '.config/git',
];

/**
 * What a write or removal below a folder only the shell knows is taken as the home folder's:
 * its start-up files and its credential stores (model/home-credentials.ts, the folder or file each
 * entry names; not a build tool's settings, `readBy`, which projects keep too). Anything else
 * there (`$X/.gitignore`, `$OUT/.env`, `$DIST/.nojekyll`) is the folder's own.
 */
const HOME_OWN_PLACES: readonly string[] = [...HOME_STARTUP_FILES, ...HOME_CREDENTIALS.filter((c) => !c.readBy).map((c) => c.path)];

/**
 * The home folder's start-up file or credential store that a path below folders only the shell
 * knows names when those folders are the home folder (`$X/.ssh` gives `.ssh`, `"$D/.aws/credentials"`
 * `.aws`, `$A/$B/.bashrc` `.bashrc`): `rest`, the path's literal part, and `place`, the entry it
 * falls in; null for any other path, one whose rest is a glob or unknown in part, or one that
 * starts with a known folder.
 */
export function homePlaceBelowUnknown(value: string): { rest: string; place: string } | null {
  const m = LEADING_UNKNOWN_FOLDERS.exec(value);
  if (!m) return null;
  const literal = value.slice(m[0].length);
  if (!literal || /[*?[\]\uE000]/.test(literal)) return null;
  // `$X/../.ssh`: a `..` leaves another folder only the shell knows, the home folder among them
  const rest = resolvePath(`/${literal}`, { cwd: '/', home: '/' }).slice(1);
  const place = rest ? HOME_OWN_PLACES.find((p) => rest === p || rest.startsWith(`${p}/`)) : undefined;
  return place ? { rest, place } : null;
}

/** The folders at the start of a path that are each only what the shell knows (`$X/`, `"$A"/"$B"/`). */
const LEADING_UNKNOWN_FOLDERS = new RegExp(`^(${UNKNOWN}+/+)+`);
