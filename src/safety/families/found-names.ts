import type { Invocation } from '../command.ts';
import { programName } from '../command.ts';
import { plainWord, type Word } from '../syntax.ts';

/**
 * What a find's `-exec CMD … {}` runs, with `{}` put as the names find hands on (docs/safety.md,
 * the `system` row): `find /dev -name 'sd?' -exec dd if=/dev/zero of={} \;` runs `dd of=/dev/sd?`,
 * `ls /dev/sd? | xargs wipefs -a` (read as `find /dev/sd? -maxdepth 0 -exec wipefs -a {} +`)
 * runs `wipefs -a /dev/sd?`, so the device and system-path rules judge them as written out. The
 * names are each start joined with each name test (`-name`, `-iname`), a path test's pattern
 * (`-path`), or the starts themselves where the find goes no deeper (`-maxdepth 0`) or they are
 * devices (`/dev/sd?`: a file, listed as itself), and below a folder of devices with no name
 * test, any device in it (`find /dev -type b -exec wipefs -a {} \;` runs `wipefs -a /dev/*`); an `-exec`
 * without `{}` and a find with neither are left as they are.
 */

const EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);
/** How many names are tried: a few starts times a few tests. */
const MAX_NAMES = 16;

/** The invocations a find's `-exec` runs with `{}` put as each name it may hand on; none when it names none. */
export function foundInvocations(inv: Invocation): Invocation[] {
  if (inv.program !== 'find') return [];
  const a = inv.args;
  const start = a.findIndex((w) => /^[-(!]/.test(w.value));
  const roots = (start < 0 ? a : a.slice(0, start)).map((w) => w.value);
  const expression = start < 0 ? [] : a.slice(start).map((w) => w.value);
  const names = foundNames(roots.length ? roots : ['.'], expression).slice(0, MAX_NAMES);
  if (!names.length) return [];
  const out: Invocation[] = [];
  a.forEach((w, i) => {
    if (!EXEC.has(w.value)) return;
    const end = a.findIndex((x, k) => k > i && (x.value === ';' || x.value === '+'));
    const words = a.slice(i + 1, end < 0 ? undefined : end);
    if (!words.length || !words.some((x) => x.value.includes('{}'))) return;
    for (const name of names) {
      const args: Word[] = words.slice(1).map((x) => (x.value.includes('{}') ? { ...plainWord(x.value.split('{}').join(name)), glob: /[*?[]/.test(name) } : x));
      out.push({ ...inv, program: programName(words[0]!.value), args });
    }
  });
  return out;
}

/** The names a find hands on, as patterns: see the module comment. */
function foundNames(roots: readonly string[], expression: readonly string[]): string[] {
  const depth = expression.indexOf('-maxdepth');
  if (depth >= 0 && expression[depth + 1] === '0') return [...roots];
  // a device is a file: handed on itself (`ls /dev/sd? | xargs wipefs -a` lists it, not what is in it)
  const out: string[] = roots.filter((r) => r.startsWith('/dev/'));
  let named = false;
  expression.forEach((v, i) => {
    const value = expression[i + 1];
    if (value === undefined) return;
    if (v === '-name' || v === '-iname') for (const r of roots) out.push(`${r.replace(/\/+$/, '')}/${value}`);
    else if (v === '-path' || v === '-ipath' || v === '-wholename') out.push(value);
    else return;
    named = true;
  });
  // no name test: below a folder of devices, any device in it (`find /dev -type b -exec wipefs -a {} \;`)
  if (!named) for (const r of roots) if (r === '/dev' || r.startsWith('/dev/')) out.push(`${r.replace(/\/+$/, '')}/*`);
  return out;
}
