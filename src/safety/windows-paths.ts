/**
 * Windows paths as the guard's rules read paths (docs/safety.md, "Windows' commands"): a drive's
 * folders as the root's (`C:\Windows\System32` is `/Windows/System32`, its system folders guarded
 * as `/etc` is: WINDOWS_SYSTEM_FOLDERS), the users' folders as the folder the home folder is in
 * (`C:\Users\u` is the home folder where it is named `u`, `C:\Users\bob` another user's home
 * beside it), and the variables that name them (`%USERPROFILE%`, `%SystemRoot%`, `%APPDATA%`, and
 * PowerShell's `$env:USERPROFILE` and `$HOME`).
 * A variable it does not know stays as written, a name only the shell knows.
 */

/** The system folders at the top of a Windows drive: a recursive removal, owner or permission change of one wrecks the machine. */
export const WINDOWS_SYSTEM_FOLDERS: readonly string[] = ['Windows', 'Program Files', 'Program Files (x86)', 'ProgramData'];

/** cmd.exe's and PowerShell's variables naming places, as the path each names (`~` the user's folder). */
const PLACES: Readonly<Record<string, string>> = {
  userprofile: '~',
  home: '~',
  homepath: '~',
  appdata: '~/AppData/Roaming',
  localappdata: '~/AppData/Local',
  systemroot: '/Windows',
  windir: '/Windows',
  programfiles: '/Program Files',
  'programfiles(x86)': '/Program Files (x86)',
  programdata: '/ProgramData',
  allusersprofile: '/ProgramData',
  systemdrive: '',
  homedrive: '',
  temp: '/tmp',
  tmp: '/tmp',
};

/**
 * A Windows path (`C:\Users\u\Documents`, `%USERPROFILE%\Documents\*`, `\Windows`) as the path the
 * rules read, given the home folder; null for a word that is no Windows path (`/s`, `build`, `a/b`).
 */
export function windowsPath(text: string, home: string): string | null {
  const place = (all: string, name: string) => {
    const key = name.toLowerCase();
    return Object.hasOwn(PLACES, key) ? PLACES[key]! : all;
  };
  // cmd.exe's `%USERPROFILE%`, PowerShell's `$env:USERPROFILE` (`${env:APPDATA}`) and `$HOME`
  let p = text
    .replace(/%([A-Za-z()0-9_]+)%/g, place)
    .replace(/\$\{?env:([A-Za-z()0-9_]+)\}?/gi, place)
    .replace(/^\$home(?=[\\/]|$)/i, '~');
  const drive = /^[A-Za-z]:(?=[\\/]|$)/.exec(p);
  if (!drive && !p.includes('\\') && p === text) return null;
  p = (drive ? p.slice(2) : p).replace(/\\/g, '/');
  if (drive && p === '') p = '/';
  // the users' folders: the one named as the home folder is it, another is a user's home beside it
  const users = /^\/Users\/([^/]+)(\/.*)?$/i.exec(p);
  if (users) {
    const slash = home.lastIndexOf('/');
    const name = users[1]!;
    const rest = users[2] ?? '';
    return name === home.slice(slash + 1) ? `~${rest}` : `${home.slice(0, slash)}/${name}${rest}`;
  }
  return p;
}
