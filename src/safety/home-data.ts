import { posix } from 'node:path';

/**
 * The user's data outside the project that the removal rule keeps (docs/safety.md, P1): a folder
 * directly in the home folder (`~/Documents`, `~/projects`, a sibling of a project kept there), a
 * project beside this one or in a folder of code (`../other-repo`, `~/src/other-repo`), and the
 * `.git` of another repository. The guard sees names, not disks: what a name says is all it
 * judges. Dot folders (caches, settings: the system family's), temporary folders and names of a
 * build's output (`../proj-build`, `~/src/x/dist`) stay the task's to remove.
 */

/** Folders of the home folder that hold projects, one a folder: each folder in them is a project of its own. */
const CODE_FOLDERS = new Set([
  'projects',
  'Projects',
  'src',
  'code',
  'Code',
  'work',
  'Work',
  'dev',
  'Developer',
  'repos',
  'git',
  'github',
  'workspace',
  'workspaces',
]);
/** Where temporary folders are: what lies there is disposable. */
const TEMP_FOLDER = /^\/(tmp|var\/tmp|private\/tmp|private\/var\/folders|var\/folders|dev\/shm)(\/|$)/;
/** A name that says it is a build's output or a scratch copy: `build`, `proj-build`, `dist`, `x.tmp`. */
const OUTPUT_NAME = /(^|[-_.])(build|builds|dist|out|output|target|tmp|temp|cache)$/i;

/** A name ending in an extension (`notes.txt`, `a.tar.gz`): a file's. */
const FILE_NAME = /\.[A-Za-z0-9]{1,5}$/;

interface HomeDataContext {
  home: string;
  root: string | undefined;
}

/**
 * What of the user's own data outside the project `abs` (absolute) is, removed or moved away
 * whole, or null: a folder directly in the home folder, a sibling of the project, a folder in one
 * of the home's folders of code, another repository's `.git`.
 */
export function homeDataFolder(abs: string, ctx: HomeDataContext): string | null {
  const { home, root } = ctx;
  if (TEMP_FOLDER.test(abs) || (root && (abs === root || abs.startsWith(`${root}/`)))) return null;
  const name = posix.basename(abs);
  const parent = posix.dirname(abs);
  // `rm -rf ~/src/other/.git`, `rm -rf /srv/app/.git`: the history of a repository that is not this one
  if (name === '.git') return `the history of another repository (${abs})`;
  // `mv ~/notes.txt .`: a name with an extension is a file, not a folder of data
  if (name.startsWith('.') || OUTPUT_NAME.test(name) || FILE_NAME.test(name)) return null;
  if (parent === home) return `the folder ${abs} of the home folder, the user's own data`;
  if (posix.dirname(parent) === home && CODE_FOLDERS.has(posix.basename(parent))) return `the project ${abs} beside this one, the user's own work`;
  // `rm -rf ../other-repo`: beside the project, another project (a folder the guard cannot look into)
  if (root && parent === posix.dirname(root) && parent !== '/') return `the folder ${abs} beside the project, another project's or the user's own data`;
  return null;
}
