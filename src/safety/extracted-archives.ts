import type { Invocation } from './command.ts';
import { TAR_LONG_VALUED, TAR_VALUED, tarExtractDirs, unzipExtractDir } from './families/system-args.ts';
import type { Word } from './syntax.ts';

/**
 * What an archive extraction writes and where its archive comes from (written-scripts.ts): the
 * folders tar, bsdtar or unzip extract into (the current one without `-C` / `-d`), and the archive
 * — a file it names, or null where it reads its input (`curl -L URL | tar xz`, `tar xzf -`). A file
 * the line then runs below such a folder may be one the archive held (`./t/install.sh`).
 */
export interface Extraction {
  folders: string[];
  /** the archive's file as written, or null: its input */
  archive: Word | null;
}

/** The programs that extract an archive into folders. */
export const EXTRACTORS = new Set(['tar', 'gtar', 'bsdtar', 'unzip']);

/** What `inv` extracts, or null where it does not (a listing, a creation, another program). */
export function extraction(inv: Invocation): Extraction | null {
  if (inv.program === 'unzip') {
    const folder = unzipExtractDir(inv.args);
    const archive = inv.args.find((w, i) => !w.value.startsWith('-') && !/^-[A-Za-z]*d$/.test(inv.args[i - 1]?.value ?? ''));
    return folder === null || !archive ? null : { folders: [folder], archive };
  }
  if (!EXTRACTORS.has(inv.program)) return null;
  const folders = tarExtractDirs(inv.args);
  if (!folders) return null;
  const archive = tarArchive(inv.args);
  return { folders, archive: archive?.value === '-' ? null : archive };
}

/** The word naming the archive tar reads (`-f x.tgz`, `--file=x.tgz`, `xzf x.tgz`), or null: its input. */
function tarArchive(args: readonly Word[]): Word | null {
  const pending: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (pending.length) {
      if (pending.shift() === 'f') return w;
      continue;
    }
    if (v === '--') break;
    if (v.startsWith('--')) {
      const eq = v.indexOf('=');
      const name = eq < 0 ? v : v.slice(0, eq);
      // `--file=x.tgz`: the value is the word past the `=`, as written
      if (name === '--file') return eq < 0 ? (args[i + 1] ?? null) : { ...w, value: v.slice(eq + 1) };
      if (eq < 0 && TAR_LONG_VALUED.has(name)) i++;
      continue;
    }
    const old = i === 0 && /^[A-Za-z]+$/.test(v);
    if (!old && (!v.startsWith('-') || v === '-')) continue;
    for (let k = old ? 0 : 1; k < v.length; k++) {
      const c = v[k]!;
      if (!TAR_VALUED.has(c)) continue;
      if (old) pending.push(c);
      else {
        if (c === 'f') return k + 1 < v.length ? { ...w, value: v.slice(k + 1) } : (args[i + 1] ?? null);
        if (k + 1 >= v.length) i++;
        break;
      }
    }
  }
  return null;
}
