// What a user's `ps`, `pgrep -f` and `pkill -f` see of the sandbox's processes: for the tests of
// which paths stay off command lines.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Every process's command line (its arguments joined by spaces), by id. */
export function commandLines(): Map<number, string> {
  const out = new Map<number, string>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      out.set(Number(name), readFileSync(join('/proc', name, 'cmdline'), 'utf8').replaceAll('\0', ' '));
    } catch {
      // ended meanwhile
    }
  }
  return out;
}

/** The ids of `root` and every process under it. */
export function tree(root: number): Set<number> {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const ppid = Number(/^PPid:\s+(\d+)$/m.exec(readFileSync(join('/proc', name, 'status'), 'utf8'))?.[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // ended meanwhile
    }
  }
  const out = new Set<number>();
  const walk = (p: number) => {
    out.add(p);
    for (const c of children.get(p) ?? []) walk(c);
  };
  walk(root);
  return out;
}
