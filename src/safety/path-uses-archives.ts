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
