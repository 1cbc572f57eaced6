import type { KnowledgeBase } from '../core/kb.ts';
import { locateRepo } from '../core/location.ts';
import { type MemoryFolder, memoryFolder, memoryRoot } from './memory-folder.ts';

/** What an auto memory export or import knows beyond its input. */
export interface AutoMemoryOptions {
  /** the caller's folder (a relative --dir is read from it) */
  cwd?: string | undefined;
  /** the caller's environment (HOME, CLAUDE_CONFIG_DIR, CLAUDE_CODE_DISABLE_AUTO_MEMORY); default: the store's */
  env?: NodeJS.ProcessEnv | undefined;
  /** a hook's transcript_path (docs/auto-memory.md: where the folder is) */
  transcriptPath?: string | null | undefined;
  /** content that looks like a credential is imported anyway */
  allowSecret?: boolean | undefined;
}

/** The auto memory folder of the repository `kb` is in (memoryFolder), or `dir` when given. */
export function folderOf(kb: KnowledgeBase, dir: string | undefined, opts: AutoMemoryOptions): MemoryFolder {
  const cwd = opts.cwd ?? process.cwd();
  const env = opts.env ?? kb.repo.env;
  const root = memoryRoot(kb.repo.commonDir, locateRepo(cwd, env)?.worktree ?? null) ?? cwd;
  return memoryFolder({ root, env, cwd, dir, transcriptPath: opts.transcriptPath, sessionCwd: cwd });
}
