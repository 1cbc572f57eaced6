import { posix } from 'node:path';
import { findRemoves, foundBelow, namedSamples, TRIED_WORDS_MAX } from './find-expression.ts';
import { LOCALIZED_DOCUMENT_FOLDERS } from './localized-user-dirs.ts';
import { resolvePath } from './paths.ts';
import { UNKNOWN, type Word } from './shell.ts';

/**
 * The user's data outside the project that the removal rule keeps (docs/safety.md, P1): a folder
 * directly in the home folder (`~/Documents`, `~/projects`, a sibling of a project kept there), a
 * project beside this one or in a folder of code (`../other-repo`, `~/src/other-repo`), the `.git`
 * of another repository, a mounted disk and each folder directly in it (`/mnt/backup`,
 * `/media/u/USB`, Windows' drives and home folders in WSL), and the apps' data in the home
 * (`~/.local/share`, its keyrings and trash, mail, browser profiles); and, one by one, the user's
 * documents (userDocument). The guard sees names, not disks: what a name says is all it judges.
 * Dot folders (caches, settings: the system family's), temporary folders and names of a build's
 * output (`../proj-build`, `~/src/x/dist`) stay the task's to remove.
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
/**
 * Folders of the home folder whose every file is the user's own, at any depth: the desktop's
 * folders of documents and media (XDG's and macOS's; in other languages, localized-user-dirs.ts)
 * and the folders a cloud service syncs, where a file removed here is removed everywhere. Not
 * `~/Downloads`: what lies there came from elsewhere.
 */
const DOCUMENT_FOLDERS = new Set([
  'Documents',
  'Desktop',
  'Pictures',
  'Photos',
  'Music',
  'Videos',
  'Movies',
  'Dropbox',
  'OneDrive',
  'Nextcloud',
  'Google Drive',
]);
/** A document's extension: such a file directly in the home folder is the user's (`~/notes.txt`), not a script an installer left (`~/install.sh`). */
const DOCUMENT_FILE =
  /\.(txt|md|markdown|org|rst|tex|pdf|docx?|odt|rtf|pages|xlsx?|ods|numbers|csv|tsv|pptx?|odp|key|epub|jpe?g|png|gif|heic|tiff?|raw|svg|psd|mp3|m4a|flac|wav|ogg|mp4|mov|mkv|avi|kdbx)$/i;
/**
 * The apps' data in the home folder, paths from it: kept whole, and each file or folder directly in
 * them — the desktop's trash, mail, KWallet, the browsers' and mail clients' profiles, macOS's mail,
 * messages and iCloud Drive, and the keychains' folder (the keychains in it are secret paths,
 * the credentials rule's, while its listing passes: the folder itself is kept here). (The keyrings
 * and pass's store are secret paths whole.)
 */
const APP_DATA = [
  '.local/share/Trash',
  '.local/share/evolution',
  '.local/share/akonadi',
  '.local/share/kwalletd',
  '.Trash',
  '.mozilla/firefox',
  '.thunderbird',
  'Library/Mail',
  'Library/Messages',
  'Library/Mobile Documents',
  'Library/Keychains',
  // the browsers' profiles on macOS (Linux's are under ~/.config, the system family's): history, bookmarks, saved passwords
  'Library/Safari',
  'Library/Application Support/Google/Chrome',
  'Library/Application Support/Chromium',
  'Library/Application Support/Firefox',
  'Library/Application Support/Microsoft Edge',
  'Library/Application Support/BraveSoftware',
  'Library/Application Support/Arc',
  'Library/Application Support/Thunderbird',
  // Windows' (a home read from `C:\Users\u`, `%USERPROFILE%`, `$env:APPDATA`): its stored logins and keys, mail, the browsers' profiles
  'AppData/Roaming/Microsoft/Credentials',
  'AppData/Roaming/Microsoft/Protect',
  'AppData/Local/Microsoft/Credentials',
  'AppData/Local/Microsoft/Outlook',
  'AppData/Roaming/Mozilla/Firefox',
  'AppData/Roaming/Thunderbird',
  'AppData/Local/Google/Chrome',
  'AppData/Local/Microsoft/Edge',
  'AppData/Local/BraveSoftware',
];
/**
 * Folders of the apps' data among caches, kept whole (`rm -rf ~/.local/share`): what is in them
 * passes unless APP_DATA names it (`~/.local/share/pnpm`, `~/.var/app/<id>`, `~/Library/Containers/<id>`,
 * Windows' `~/AppData/Local/npm-cache`).
 */
const APP_DATA_HOLDERS = new Set([
  '.local/share',
  '.var/app',
  'Library/Application Support',
  'Library/Containers',
  'Library/Group Containers',
  'AppData/Roaming',
  'AppData/Local',
]);
/** Where temporary folders are: what lies there is disposable. */
const TEMP_FOLDER = /^\/(tmp|var\/tmp|private\/tmp|private\/var\/folders|var\/folders|dev\/shm)(\/|$)/;
/** A name that says it is a build's output or a scratch copy: `build`, `proj-build`, `dist`, `x.tmp`. */
const OUTPUT_NAME = /(^|[-_.])(build|builds|dist|out|output|target|tmp|temp|cache)$/i;
/**
 * Names that are no document wherever they lie: a build's output, a project's dependencies and
 * caches (`node_modules`, `.venv`, `__pycache__`), the desktop's junk (`.DS_Store`, `Thumbs.db`,
 * `desktop.ini`, `._x`), an office program's lock file (`~$x.docx`), an editor's swap file.
 */
const DISPOSABLE_NAME =
  /^(node_modules|__pycache__|\.venv|venv|\.tox|\.next|\.nuxt|\.turbo|\.parcel-cache|\.pytest_cache|\.mypy_cache|\.ruff_cache|\.gradle|\.ds_store|thumbs\.db|desktop\.ini|\._.+|~\$.+|\..+\.sw[po])$/i;
/** The folders where disks are mounted, all of them at once. */
const DISKS = /^\/(?:mnt|media|run\/media)$/;
/** A disk's mount point: `/mnt/backup`, `/media/u/USB`, `/run/media/u/USB`, `/Volumes/X`, WSL's `/mnt/c`. */
const MOUNTED = /^(?:\/mnt\/[^/]+|\/media\/[^/]+(?:\/[^/]+)?|\/run\/media\/[^/]+(?:\/[^/]+)?|\/Volumes\/[^/]+)$/;
/** A swap file beside the disks (`/mnt/swapfile` on a CI runner): no disk. */
const SWAP_FILE = /^swap/i;
/** A Windows user's home folder on its drive in WSL: `/mnt/c/Users/u`. */
const WINDOWS_HOME = /^\/mnt\/[a-z]\/Users\/[^/]+(?=\/|$)/;

/** A name ending in an extension (`notes.txt`, `a.tar.gz`): a file's. */
const FILE_NAME = /\.[A-Za-z0-9]{1,5}$/;

interface HomeDataContext {
  home: string;
  root: string | undefined;
}

/** The home folder `abs` is in or is — the user's, or a Windows user's in WSL — and the path from it (`''` for the home itself); or null. */
function inHome(abs: string, home: string): { home: string; rel: string } | null {
  if (abs === home || abs.startsWith(`${home}/`)) return { home, rel: abs.slice(home.length + 1) };
  const windows = WINDOWS_HOME.exec(abs)?.[0];
  return windows ? { home: windows, rel: abs.slice(windows.length + 1) } : null;
}

/** Whether the guard leaves `abs` to the task: a temporary folder, the project or a folder in it. */
function tasks(abs: string, root: string | undefined): boolean {
  return TEMP_FOLDER.test(abs) || (root !== undefined && (abs === root || abs.startsWith(`${root}/`)));
}

/**
 * What of the user's own data outside the project `abs` (absolute) is, removed or moved away
 * whole, or null: a folder directly in the home folder, a sibling of the project, a folder in one
 * of the home's folders of code, another repository's `.git`, a disk or a folder directly in one,
 * the apps' data.
 */
export function homeDataFolder(abs: string, ctx: HomeDataContext): string | null {
  const { home, root } = ctx;
  if (tasks(abs, root)) return null;
  const name = posix.basename(abs);
  const parent = posix.dirname(abs);
  // `rm -rf ~/src/other/.git`, `rm -rf /srv/app/.git`: the history of a repository that is not this one
  if (name === '.git') return `the history of another repository (${abs})`;
  const where = inHome(abs, home);
  const app = where && appData(where.rel);
  if (app) return `${app}, the user's own data`;
  // `rm -rf /mnt/backup`, `rm -rf /media/u/USB`: a disk (a USB stick, a backup, Windows' C: in WSL) and all it holds
  if (MOUNTED.test(abs) && !FILE_NAME.test(name) && !SWAP_FILE.test(name)) return `the mounted disk ${abs}, the user's own data`;
  if (DISKS.test(abs)) return `${abs}, where the disks are mounted`;
  if (where && where.home !== home && !where.rel) return `the Windows home folder ${abs}`;
  // `mv ~/notes.txt .`: a name with an extension is a file, not a folder of data
  if (name.startsWith('.') || OUTPUT_NAME.test(name) || FILE_NAME.test(name)) return null;
  if (where && parent === where.home) return `the folder ${abs} of the home folder, the user's own data`;
  if (MOUNTED.test(parent)) return `the folder ${abs} of the disk ${parent}, the user's own data`;
  if (posix.dirname(parent) === home && CODE_FOLDERS.has(posix.basename(parent))) return `the project ${abs} beside this one, the user's own work`;
  // `rm -rf ../other-repo`: beside the project, another project (a folder the guard cannot look into)
  if (root && parent === posix.dirname(root) && parent !== '/') return `the folder ${abs} beside the project, another project's or the user's own data`;
  return null;
}

/** What the apps' data `rel` (a path from the home folder) is — a folder of it, or a file or folder directly in one — or null. */
function appData(rel: string): string | null {
  if (APP_DATA_HOLDERS.has(rel)) return `the apps' data folder ~/${rel}`;
  const folder = APP_DATA.find((d) => rel === d || (rel.startsWith(`${d}/`) && !rel.slice(d.length + 1).includes('/')));
  if (!folder) return null;
  return rel === folder ? `the apps' data folder ~/${rel}` : `~/${rel} in the apps' data folder ~/${folder}`;
}

/**
 * What of the user's documents `abs` (absolute; a pattern's last part may hold wildcards) is,
 * removed or emptied one by one, or null: a file or folder at any depth in a folder of documents
 * (`~/Documents/thesis.docx`, `~/Pictures/2024/*.jpg`; the folder itself, whose files a pattern in
 * it takes) but a disposable name there (`~/Documents/x/node_modules`, `.DS_Store`, `x.tmp`), and a
 * document directly in the home folder by its extension (`~/notes.txt`, `~/*.pdf`).
 */
export function userDocument(abs: string, ctx: HomeDataContext): string | null {
  const where = inHome(abs, ctx.home);
  if (!where?.rel || tasks(abs, ctx.root)) return null;
  const name = posix.basename(abs);
  const top = where.rel.split('/')[0]!;
  if (isDocumentFolder(top)) return DISPOSABLE_NAME.test(name) || OUTPUT_NAME.test(name) ? null : `the user's document ${abs}`;
  return top === where.rel && DOCUMENT_FILE.test(name) && !name.startsWith('.') && !DISPOSABLE_NAME.test(name)
    ? `the user's document ${abs} in the home folder`
    : null;
}

/** Whether a folder directly in the home folder is one of the desktop's folders of documents, in English or another language (`Dokumente`, `Imágenes`). */
function isDocumentFolder(name: string): boolean {
  return DOCUMENT_FOLDERS.has(name) || LOCALIZED_DOCUMENT_FOLDERS.has(name.normalize('NFC'));
}

/**
 * What of the user's documents a removing find (`args`: its roots, then its expression) may
 * remove, read as find evaluates it (find-expression.ts), or null: each name its tests select
 * (and a name none names), directly in and somewhere below a folder of documents it starts in or
 * above (`find ~/Documents -name '*.docx' -delete`, `find ~ -iname '*.jpg' -exec rm {} +`), and
 * a document directly in the home folder (`find ~ -maxdepth 1 -name '*.pdf' -delete`). A name
 * that is no document (`*.tmp`, `node_modules`, `.DS_Store`) passes, as its `rm` does, and so
 * does what is empty (`-type d -empty`).
 */
export function findsDocuments(args: readonly Word[], ctx: HomeDataContext & { cwd: string | null }): string | null {
  const values = args.map((w) => w.value);
  const first = values.findIndex((v) => /^[-(!]/.test(v));
  const roots = first === 0 ? ['.'] : values.slice(0, first < 0 ? undefined : first);
  const expression = first < 0 ? [] : values.slice(first);
  if (expression.some((v) => v.includes(UNKNOWN))) return null;
  // what `-empty` selects holds nothing to lose (`find ~/Documents -type d -empty -delete`)
  const removes = expression.length > TRIED_WORDS_MAX ? () => true : findRemoves(expression, { empty: 'no' });
  const samples = namedSamples(expression).map((s) => s.name);
  const { home } = ctx;
  for (const root of roots) {
    if (root.includes(UNKNOWN) || (ctx.cwd === null && !/^[/~]/.test(root))) continue;
    const abs = resolvePath(root, { cwd: ctx.cwd ?? '/', home });
    const above = abs === '/' || abs === home || home.startsWith(`${abs}/`);
    const folders = above ? [home, ...[...DOCUMENT_FOLDERS].map((d) => `${home}/${d}`)] : userDocument(`${abs}/\u0001`, ctx) ? [abs] : [];
    for (const folder of folders) {
      const base = folder === '/' ? '' : folder;
      // directly in the folder and a folder deeper (not below the home folder itself: its other folders are not documents)
      const targets = samples.flatMap((s) => (folder === home ? [`${base}/${s}`] : [`${base}/${s}`, `${base}/\u0001/${s}`]));
      for (const target of targets) {
        const doc = userDocument(target, ctx);
        if (!doc) continue;
        for (const dir of [false, true]) {
          const { file, above: through } = foundBelow(root, abs, target, dir);
          if (removes(file, through)) return doc.replaceAll('\u0001', '*');
        }
      }
    }
  }
  return null;
}
