import { readdirSync, readFileSync, statSync } from 'node:fs';

/** The largest project file the guard reads for what a command runs (a package.json, a Makefile, a justfile): past it, unknown. */
export const PROJECT_FILE_MAX = 256 * 1024;

/**
 * The text of a project's file that defines what a command runs (EvalContext.fileText): null when
 * there is no file at `path`, undefined when it cannot be told — past PROJECT_FILE_MAX, not a
 * regular file, unreadable — so the command is judged by its own words. Read only for a command
 * that runs a project's script (project-scripts.ts).
 */
export function projectFileText(path: string): string | null | undefined {
  try {
    const st = statSync(path, { throwIfNoEntry: false });
    if (!st) return null;
    if (!st.isFile() || st.size > PROJECT_FILE_MAX) return undefined;
    // a file the system makes up as it is read (`/proc/self/environ`) says it holds nothing: it defines no script
    return st.size === 0 ? '' : readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** The most names the guard takes of one folder it lists for a workspaces glob (`packages/*`): past it, unknown. */
export const PROJECT_FOLDER_MAX = 1024;

/**
 * The names of the folders in a folder of the project (EvalContext.folderNames), for the members
 * a workspaces glob finds: undefined when it cannot be told — not a folder, unreadable, past
 * PROJECT_FOLDER_MAX entries. Listed only for a command that runs a script in workspaces.
 */
export function projectFolderNames(dir: string): string[] | undefined {
  try {
    const entries = readdirSync(dir, { withFileTypes: true });
    if (entries.length > PROJECT_FOLDER_MAX) return undefined;
    return entries.filter((e) => e.isDirectory()).map((e) => e.name);
  } catch {
    return undefined;
  }
}
