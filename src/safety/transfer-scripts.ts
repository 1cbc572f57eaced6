import type { Invocation } from './command.ts';
import { generic, type PathUse, use } from './path-access.ts';
import { plainWord } from './syntax.ts';
import { transferUploads } from './transfer-commands.ts';

/**
 * What the file-transfer clients do with paths (transfer-commands.ts): their words as any
 * program's, and the local files their command scripts upload, read — and sent, so a secret among
 * them is judged as `curl -T .env` is.
 */
function transferClient(inv: Invocation): PathUse[] {
  const files = transferUploads(inv);
  // `mput .env*`: the client expands the pattern, as the shell would
  return [
    ...generic(inv),
    ...files.map((f) => use(plainWord(f.path), f.path, 'read', { ...(f.tree && { tree: true }), ...(/[*?[]/.test(f.path) && { glob: true }) })),
  ];
}

export const TRANSFER_SCRIPT_USES: Record<string, (inv: Invocation) => PathUse[]> = {
  lftp: transferClient,
  smbclient: transferClient,
  sftp: transferClient,
  ftp: transferClient,
  tftp: transferClient,
};
