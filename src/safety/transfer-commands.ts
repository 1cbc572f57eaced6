import type { Invocation } from './command.ts';

/**
 * The file-transfer clients' own command scripts (docs/safety.md, exfiltration): the commands
 * `lftp -e|-c`, `smbclient -c` are handed on the command line, and those `sftp`, `ftp` and `tftp`
 * read on stdin from a here-string or heredoc (`sftp h <<< 'put /tmp/e'`) or, tftp's, from `-c`
 * (`tftp h -c put /tmp/e`); and the local files their upload commands (`put`, `mput`, `reput`,
 * `mirror -R`/`--reverse`) name — sent to the host, so a secret among them is judged as `curl -T
 * FILE` is. Pure text, read by path-uses (transfer-scripts.ts) and by the sinks (network-sinks.ts).
 */

/** Each client's options whose value is a list of its commands. */
const SCRIPT_OPTIONS: Record<string, ReadonlySet<string>> = {
  lftp: new Set(['-e', '-c']),
  smbclient: new Set(['-c', '--command']),
};

/** The clients that read their commands on stdin. */
const STDIN_SCRIPTS = new Set(['sftp', 'ftp', 'tftp', 'lftp', 'smbclient']);

/** The upload commands whose operands are local files. */
const UPLOADS = new Set(['put', 'mput', 'reput']);

/** A local file a client's script uploads: `tree` where it sends a folder whole (`mirror -R`). */
export interface Upload {
  path: string;
  tree: boolean;
}

/** The local files the commands of a client's script upload. */
export function uploadedBy(script: string): Upload[] {
  const out: Upload[] = [];
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

/** The command scripts a transfer client runs (see the module's comment); none for another program. */
export function transferScripts(inv: Invocation): string[] {
  const scripts: string[] = [];
  const options = SCRIPT_OPTIONS[inv.program];
  if (options)
    inv.args.forEach((w, i) => {
      if (options.has(w.value) && inv.args[i + 1]) scripts.push(inv.args[i + 1]!.value);
    });
  // tftp's `-c put FILE`: the command is the words after it
  if (inv.program === 'tftp') {
    const at = inv.args.findIndex((w) => w.value === '-c');
    if (at >= 0)
      scripts.push(
        inv.args
          .slice(at + 1)
          .map((w) => w.value)
          .join(' '),
      );
  }
  if (STDIN_SCRIPTS.has(inv.program)) for (const r of inv.command.redirects) if (r.input !== null) scripts.push(r.input);
  return scripts;
}

/** The local files a transfer client's scripts upload. */
export function transferUploads(inv: Invocation): Upload[] {
  return transferScripts(inv).flatMap(uploadedBy);
}
