import type { Word } from '../syntax.ts';

/** A command's arguments split the way getopt reads them: options, their values, operands. */
export interface ParsedArgs {
  /** short letters given (`-Rf` gives R and f) and long option names (`--recursive`) */
  flags: Set<string>;
  /** values of valued options, by the option as written in `valued` (`-t`, `--target-directory`) */
  values: Map<string, string>;
  operands: Word[];
}

/**
 * Splits arguments into options and operands: `--` ends the options, `--name=value` and the
 * options listed in `valued` (`-t DIR`, `-tDIR`, `-at DIR`) take a value, `-` alone is an operand.
 * `isOperand` lets a program keep words that look like options (chmod's `-w` mode).
 */
export function parseArgs(args: readonly Word[], valued: ReadonlySet<string>, isOperand?: (value: string) => boolean): ParsedArgs {
  const flags = new Set<string>();
  const values = new Map<string, string>();
  const operands: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (v === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (!v.startsWith('-') || v === '-' || isOperand?.(v)) {
      operands.push(w);
      continue;
    }
    if (v.startsWith('--')) {
      const eq = v.indexOf('=');
      const name = eq < 0 ? v : v.slice(0, eq);
      flags.add(name);
      if (eq >= 0) values.set(name, v.slice(eq + 1));
      else if (valued.has(name)) values.set(name, args[++i]?.value ?? '');
      continue;
    }
    for (let k = 1; k < v.length; k++) {
      const opt = `-${v[k]}`;
      flags.add(v[k]!);
      if (valued.has(opt)) {
        values.set(opt, k + 1 < v.length ? v.slice(k + 1) : (args[++i]?.value ?? ''));
        break;
      }
    }
  }
  return { flags, values, operands };
}

/** Whether a short letter or one of the long names was given. */
export function hasFlag(p: ParsedArgs, letter: string | null, ...long: string[]): boolean {
  return (letter !== null && p.flags.has(letter)) || long.some((l) => p.flags.has(l));
}

/** The value of the first of these options that was given, or null. */
export function valueOf(p: ParsedArgs, ...names: string[]): string | null {
  for (const n of names) {
    const v = p.values.get(n);
    if (v !== undefined) return v;
  }
  return null;
}
