import type { Lang } from './interpreter-argv.ts';
import { readArgs, readExpr } from './interpreter-values.ts';

/**
 * Folders whose every file Python code walks and removes: `Path.home().rglob("*")`,
 * `Path("/etc").glob("**\/*")`, `os.walk(os.path.expanduser("~"))`, in code that also removes
 * files (`p.unlink()`, `os.remove`, `shutil.rmtree`, `.rmdir()`) — as `rm -rf FOLDER` (which
 * files the loop picks is not read: `if p.is_file()` still removes every file).
 */

const WALK = /\.\s*r?glob\s*\(|\bos\.walk\b/g;
const REMOVES = /\.\s*(?:unlink|rmdir)\s*\(|\bos\.(?:remove|unlink)\s*\(|\bshutil\.rmtree\s*\(/;
/** How far back a walked folder's expression may start. */
const REACH = 200;

/** The folders `code` walks removing what it finds (see the module comment); Python only. */
export function walkedFolders(code: string, lang: Lang): string[] {
  if (lang !== 'python' || !REMOVES.test(code)) return [];
  const out: string[] = [];
  for (const m of code.matchAll(WALK)) {
    if (m[0].startsWith('os')) {
      const v = readArgs(code, m.index + m[0].length, lang).values[0];
      if (v && 'str' in v) out.push(v.str);
      continue;
    }
    // `.rglob("*")` and `.glob("**…")`: the receiver is the expression that ends where the call starts
    if (!m[0].includes('rglob') && !/^\s*[fFrR]?['"]\*\*/.test(code.slice(m.index + m[0].length))) continue;
    for (let k = Math.max(0, m.index - REACH); k < m.index; k++) {
      if (k > 0 && !/[\s([,;=:]/.test(code[k - 1]!)) continue;
      const e = readExpr(code, k, lang);
      if (e.value !== null && e.end === m.index) {
        out.push(e.value);
        break;
      }
    }
  }
  return out;
}
