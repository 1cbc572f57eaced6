import type { Invocation } from './command.ts';
import { type PathUse, use } from './path-access.ts';

/**
 * What jq (and its ports gojq and jaq) does with its words: the
 * first operand is the filter (`.env.API_URL`, a program, no path) unless `-f`/`--from-file`
 * names the file holding it; the other operands are the inputs it reads; `--slurpfile` and
 * `--rawfile` read a file under a name, `--arg`/`--argjson` take a name and a value, and after
 * `--args`/`--jsonargs` the operands are values. So `jq '.env' package.json` reads package.json,
 * and `jq . .env` reads `.env`.
 */

/** Options that take two words (a name, then a value or a file). */
const TWO = new Set(['--arg', '--argjson', '--slurpfile', '--rawfile']);
/** Options that take one word. */
const ONE = new Set(['-L', '--indent', '--seq-separator']);

/** jq's path uses (module comment). */
export function jqUses(inv: Invocation): PathUse[] {
  const out: PathUse[] = [];
  const args = inv.args;
  let filterGiven = false;
  let values = false;
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (v === '--args' || v === '--jsonargs') values = true;
    else if (TWO.has(v)) {
      if (v === '--slurpfile' || v === '--rawfile') {
        const file = args[i + 2];
        if (file) out.push(use(file, file.value, 'read'));
      }
      i += 2;
    } else if (ONE.has(v)) i++;
    else if (v === '-f' || v === '--from-file') {
      const file = args[++i];
      if (file) out.push(use(file, file.value, 'read'));
      filterGiven = true;
    } else if (v.startsWith('-') && v !== '-') continue;
    else if (!filterGiven) filterGiven = true;
    else if (!values) out.push(use(w, v, 'read'));
  }
  return out;
}
