import type { FolderNames } from './package-workspaces.ts';
import type { PathKind } from './paths.ts';
import type { PrLookup, PrState } from './pr-gate.ts';
import type { FileText } from './project-scripts.ts';

/** What a tool call is checked against besides the policy: where it runs, and the lookups the engine is handed (the PR state, the files of the project). */
export interface EvalContext {
  /** the folder the call runs in (absolute) */
  cwd: string;
  home: string;
  /** the project root: relative path patterns are anchored there */
  root?: string | undefined;
  /** the repository's common git folder (in a linked worktree, where the history is) */
  commonDir?: string | undefined;
  /** the branch checked out in `dir` (or the repository at `gitDir`), null when detached or unknown */
  branchOf(dir: string, gitDir: string | null): string | null;
  /** the URL a remote of the repository in `dir` (or at `gitDir`) has now; null when unknown */
  remoteUrl?: ((dir: string, gitDir: string | null, name: string) => string | null) | undefined;
  /** a setting of the repository in `dir` (or at `gitDir`) as git reads it (`branch.main.pushRemote`); null when unset or unknown */
  gitSetting?: ((dir: string, gitDir: string | null, key: string) => string | null) | undefined;
  /** the state of a pull request; `unknown` when it cannot be checked */
  lookupPr(repo: string, pr: number): Promise<PrState | PrLookup>;
  /** resolves symbolic links of an existing file (a link to a protected file is that file) */
  realpath?: ((path: string) => string | null) | undefined;
  /** what is at an absolute path now: a folder, a file, or null when nothing is or it cannot be told (then a name's spelling decides) */
  pathKind?: ((path: string) => PathKind | null) | undefined;
  /**
   * the text of a project's file that defines what a command runs (a package.json, a Makefile, a
   * justfile: project-scripts.ts), asked only for commands that run a project's script: null when
   * there is no such file, undefined when it cannot be told (too big, unreadable) — then the
   * command is judged by its own words
   */
  fileText?: FileText | undefined;
  /** the names of the folders in a folder of the project (a workspaces glob's members: project-scripts.ts), undefined when it cannot be told */
  folderNames?: FolderNames | undefined;
  /**
   * axme's own state, which an agent must not change whatever the rules say: the policy cache
   * and sessions (`<git-common-dir>/axme`), the harness settings that install the hooks
   */
  protectedPaths?: string[] | undefined;
  /**
   * how much work checking one command line may take before it is denied as too long, in the
   * units of CHECK_BUDGET (work-budget.ts, its default): work done, not time, so a busy machine decides as an idle one
   */
  budget?: number | undefined;
  /**
   * when the answer is due (a `performance.now()` reading): the hook's, which must answer before
   * its client gives up on it. Past it the check stops and denies (the machine too busy to finish,
   * not the command too long). None by default: then only the work budget bounds a check.
   */
  deadline?: number | undefined;
}
