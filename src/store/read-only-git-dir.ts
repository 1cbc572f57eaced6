import { AxmeError } from '../model/errors.ts';
import { readOnlyGitDirMessage } from '../model/read-only-git-dir.ts';

/** The errors of a write refused because the file system is mounted read-only here. */
const READ_ONLY = new Set(['EROFS']);

/**
 * A write of `ref` refused because the git folder is read-only to this process (EROFS: an agent's
 * shell command inside the kernel sandbox, which binds the repository's `.git` read-only), as an
 * error that says what to do (model/read-only-git-dir.ts). `data.readOnly` lets a surface name its own way (the CLI names the
 * operation's MCP tool). Null for any other error.
 */
export function readOnlyGitDirError(ref: string, err: unknown): AxmeError | null {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (!code || !READ_ONLY.has(code)) return null;
  return new AxmeError('WRONG_STATE', readOnlyGitDirMessage(ref, code), { ref, errno: code, readOnly: true });
}
