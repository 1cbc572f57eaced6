import type { Invocation } from './command.ts';
import { TAR_LONG_VALUED, TAR_VALUED, tarExtractDirs } from './families/system-args.ts';
import { generic, type PathUse } from './path-access.ts';
import type { Word } from './syntax.ts';

/**
 * What tar does to the paths it names. Extracting: each `-C` folder written into, the rest as any
 * reader. Creating, listing or appending: `-C DIR` (`--directory`) is the folder the names after
 * it are read from, and nothing of that folder is read itself (`tar czf src.tgz -C .. proj` reads
 * `../proj`, not the home folder above the project; `tar czf k.tgz -C ~ .ssh` reads `~/.ssh`).
 */
export function tarUses(inv: Invocation): PathUse[] {
  if (tarExtractDirs(inv.args)) return extractTar(inv);
  const { folders, readFrom } = changedFolders(inv.args);
  return generic(inv).map((u): PathUse => {
    if (folders.has(u.word)) return { ...u, access: 'meta', tree: false };
    const dir = readFrom.get(u.word);
    return dir !== undefined && !u.value.startsWith('/') ? { ...u, value: `${dir}/${u.value}` } : u;
  });
}

/** tar and unzip: `-C dir` / `-d dir` written into when they extract; the rest as any reader. */
export function extracts(dirs: (args: readonly Word[]) => string[] | string | null): (inv: Invocation) => PathUse[] {
  return (inv) => {
    const d = dirs(inv.args);
    const into =
      d === null
        ? []
        : (Array.isArray(d) ? d : [d]).map(
            (value): PathUse => ({ word: inv.args.find((w) => w.value === value || w.value.endsWith(value)) ?? inv.args[0]!, value, access: 'into' }),
          );
    return [...into, ...generic(inv)];
  };
}

const extractTar = extracts(tarExtractDirs);

/**
 * tar's words read in order: the words that name a `-C` folder, and for each name after one, the
 * folder it is read from (`-C a -C b x`: `a/b`). Clusters take their valued letters' words in turn
 * (`-czvf out.tgz`, the old style's `czfC out.tgz dir`), as families/system-args.ts tarExtractDirs reads them.
 */
function changedFolders(args: readonly Word[]): { folders: Set<Word>; readFrom: Map<Word, string> } {
  const folders = new Set<Word>();
  const readFrom = new Map<Word, string>();
  let dir: string | undefined;
  const change = (w: Word, value: string) => {
    folders.add(w);
    dir = dir === undefined || value.startsWith('/') ? value : `${dir}/${value}`;
  };
  const pending: string[] = [];
  let operandsOnly = false;
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (pending.length) {
      if (pending.shift() === 'C') change(w, v);
      continue;
    }
    if (!operandsOnly && v === '--') {
      operandsOnly = true;
      continue;
    }
    if (!operandsOnly && v.startsWith('--')) {
      const eq = v.indexOf('=');
      const name = eq < 0 ? v : v.slice(0, eq);
      if (eq >= 0) {
        if (name === '--directory') change(w, v.slice(eq + 1));
      } else if (TAR_LONG_VALUED.has(name)) {
        const next = args[++i];
        if (name === '--directory' && next) change(next, next.value);
      }
      continue;
    }
    // the old style: the first word a cluster without a dash (`tar czf a.tgz dir`)
    const old = i === 0 && /^[A-Za-z]+$/.test(v);
    if (!operandsOnly && (old || (v.startsWith('-') && v !== '-'))) {
      for (let k = old ? 0 : 1; k < v.length; k++) {
        const c = v[k]!;
        if (!TAR_VALUED.has(c)) continue;
        if (old) pending.push(c);
        else {
          // `-C..` holds its value; `-C ..` takes the next word
          if (k + 1 < v.length) {
            if (c === 'C') change(w, v.slice(k + 1));
          } else {
            const next = args[++i];
            if (c === 'C' && next) change(next, next.value);
          }
          break;
        }
      }
      continue;
    }
    if (dir !== undefined) readFrom.set(w, dir);
  }
  return { folders, readFrom };
}

/** A path the word `w` names from its `at`th character on (`-o/etc`: `/etc`), written into. */
const into = (w: Word, value: string): PathUse => ({ word: w, value, access: 'into' });

/** The programs otherExtractorUses reads. */
export const OTHER_EXTRACTORS: ReadonlySet<string> = new Set(['7z', '7za', '7zz', '7zr', 'cpio', 'dpkg', 'dpkg-deb', 'unrar', 'rar', 'zstd', 'unzstd', 'lz4']);

/**
 * The other extractors (docs/safety.md, "What a command does with a path"): the folder each
 * writes what an archive holds into — 7-Zip's `x`/`e` with `-oDIR`, cpio's copy-in (`-i`) into `-D
 * DIR` (`--directory`) or the current folder, `dpkg -x DEB DIR` and `dpkg-deb -x|-X DEB DIR`, unrar's
 * `x`/`e` into the operand that ends in `/`; and the file zstd or lz4 decompresses into (`-o FILE`).
 * The rest of their words as any reader's.
 */
export function otherExtractorUses(inv: Invocation): PathUse[] {
  const args = inv.args;
  const v = args.map((w) => w.value);
  const out: PathUse[] = [];
  switch (inv.program) {
    case '7z':
    case '7za':
    case '7zz':
    case '7zr':
      if (v[0] === 'x' || v[0] === 'e') for (const w of args) if (/^-o./.test(w.value)) out.push(into(w, w.value.slice(2)));
      break;
    case 'cpio': {
      const copyIn = v.some((x) => x === '--extract' || /^-[A-Za-z]*i/.test(x));
      if (!copyIn) break;
      const at = v.findIndex((x) => x === '-D' || x === '--directory');
      const eq = args.find((w) => w.value.startsWith('--directory='));
      if (at >= 0 && args[at + 1]) out.push(into(args[at + 1]!, args[at + 1]!.value));
      else if (eq) out.push(into(eq, eq.value.slice('--directory='.length)));
      else out.push(into(args[0] ?? inv.command.words[0]!, '.'));
      break;
    }
    case 'dpkg':
    case 'dpkg-deb': {
      const at = v.findIndex((x) => x === '-x' || x === '--extract' || (inv.program === 'dpkg-deb' && (x === '-X' || x === '--vextract')));
      const dest = at >= 0 ? args.slice(at + 1).filter((w) => !w.value.startsWith('-'))[1] : undefined;
      if (dest) out.push(into(dest, dest.value));
      break;
    }
    case 'unrar':
    case 'rar': {
      if (v[0] !== 'x' && v[0] !== 'e') break;
      const dest = args.slice(1).findLast((w) => !w.value.startsWith('-') && w.value.endsWith('/'));
      if (dest) out.push(into(dest, dest.value));
      break;
    }
    case 'zstd':
    case 'unzstd':
    case 'lz4': {
      const at = v.indexOf('-o');
      if (at >= 0 && args[at + 1]) out.push({ word: args[at + 1]!, value: args[at + 1]!.value, access: 'write' });
      break;
    }
  }
  return [...out, ...generic(inv)];
}
