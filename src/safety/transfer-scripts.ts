import type { Invocation } from './command.ts';
import { generic, type PathUse, use } from './path-access.ts';
import { plainWord } from './syntax.ts';

/**
 * The file-transfer clients handed their commands on the command line (`lftp -e 'put .env; bye'
 * host`, `lftp -c '…'`, `smbclient //h/s -c 'put .env'`): the local files their upload commands
 * (`put`, `mput`, `reput`, `mirror -R`/`--reverse`) name are read — and sent, so a secret among
 * them is judged as `curl -T .env` is. Their other words are read as any program's.
 */

/** Each client's options whose value is a list of its commands. */
const SCRIPT_OPTIONS: Record<string, ReadonlySet<string>> = {
  lftp: new Set(['-e', '-c']),
  smbclient: new Set(['-c', '--command']),
};

/** The upload commands whose operands are local files. */
const UPLOADS = new Set(['put', 'mput', 'reput']);

/** The local files the commands of a client's script upload. */
function uploaded(script: string): Array<{ path: string; tree: boolean }> {
  const out: Array<{ path: string; tree: boolean }> = [];
  for (const command of script.split(/[;\n]/)) {
    const words = command.trim().split(/\s+/).filter(Boolean);
    const verb = words[0];
    if (verb && UPLOADS.has(verb)) out.push(...words.slice(1).flatMap((w) => (w.startsWith('-') ? [] : [{ path: w, tree: false }])));
    // `mirror -R local remote`: the local folder, sent whole
    else if (verb === 'mirror' && words.some((w) => w === '-R' || w === '--reverse')) {
      const operands = words.slice(1).filter((w) => !w.startsWith('-'));
      if (operands[0]) out.push({ path: operands[0], tree: true });
    }
  }
  return out;
}

/** What `lftp` and `smbclient` do with paths: their words as any program's, and the files their command scripts upload, read. */
function transferClient(inv: Invocation): PathUse[] {
  const options = SCRIPT_OPTIONS[inv.program]!;
  const scripts: string[] = [];
  inv.args.forEach((w, i) => {
    if (options.has(w.value) && inv.args[i + 1]) scripts.push(inv.args[i + 1]!.value);
  });
  const files = scripts.flatMap(uploaded);
  // `mput .env*`: the client expands the pattern, as the shell would
  return [
    ...generic(inv),
    ...files.map((f) => use(plainWord(f.path), f.path, 'read', { ...(f.tree && { tree: true }), ...(/[*?[]/.test(f.path) && { glob: true }) })),
  ];
}

export const TRANSFER_SCRIPT_USES: Record<string, (inv: Invocation) => PathUse[]> = {
  lftp: transferClient,
  smbclient: transferClient,
};
