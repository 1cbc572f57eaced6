import { fedByItself, printedBy, SPLIT, staticOutput, UNKNOWN } from './expand.ts';
import { ifsFields } from './ifs-fields.ts';
import type { SimpleCommand } from './syntax.ts';

/**
 * What the builtins that set variables without `=` set (shell-vars.ts): `read` (its names, or
 * `-a` an array), `mapfile`/`readarray` (an array of lines) and `printf -v NAME` — each name with
 * the value the command line tells, or UNKNOWN: what a static stage before it writes (`echo x |
 * { read v; … }`), a here-string or a heredoc it reads (`read v <<< "…"`), the text printf prints
 * of literal words.
 */
export interface BuiltinSet {
  name: string;
  /** `$name`: the whole value, an array's first element */
  value: string;
  /** the elements of an array it sets (`read -a`, `mapfile`) */
  elements?: string[];
}

/** The builtins that set variables without `=`, each with its options that take a value. */
const SETTERS: Record<string, ReadonlySet<string>> = {
  read: new Set(['-a', '-d', '-i', '-n', '-N', '-p', '-t', '-u']),
  mapfile: new Set(['-d', '-n', '-O', '-s', '-u', '-C', '-c']),
  readarray: new Set(['-d', '-n', '-O', '-s', '-u', '-C', '-c']),
  printf: new Set(['-v']),
};

/** A name a variable can have. */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * What the builtin at `cmd.words[at]` sets; `feeder`, the stage before it in its pipeline when
 * there is one; `lineIfs`, the IFS the command line set before it (undefined: none), which an
 * `IFS=…` of its own overrides. Empty for any other command, and for a builtin with no name to set.
 */
export function builtinSets(cmd: SimpleCommand, at: number, feeder: SimpleCommand | undefined, lineIfs?: string): BuiltinSet[] {
  const setter = cmd.words[at]?.value ?? '';
  const valued = Object.hasOwn(SETTERS, setter) ? SETTERS[setter]! : null;
  if (!valued) return [];
  const options = new Map<string, string>();
  const flags = new Set<string>();
  const operands: string[] = [];
  const words = cmd.words.slice(at + 1).map((w) => w.value);
  for (let i = 0; i < words.length; i++) {
    const v = words[i]!;
    if (operands.length || !v.startsWith('-') || v === '-' || v === '--') {
      if (v !== '--' || operands.length) operands.push(v);
      continue;
    }
    // `-rp prompt`, `-d ''`, `-vNAME`: a cluster's valued letter takes the rest or the next word
    for (let k = 1; k < v.length; k++) {
      const opt = `-${v[k]}`;
      if (!valued.has(opt)) {
        flags.add(opt);
        continue;
      }
      options.set(opt, k + 1 < v.length ? v.slice(k + 1) : (words[++i] ?? ''));
      break;
    }
  }
  if (setter === 'printf') {
    const name = options.get('-v');
    if (name === undefined || !NAME.test(name)) return [];
    const known = operands.some((v) => v.includes(UNKNOWN) || v.includes(SPLIT)) ? null : printedBy('printf', operands);
    return [{ name, value: known ?? UNKNOWN }];
  }
  const text = inputText(cmd, feeder);
  const delimiter = options.has('-d') ? (options.get('-d')![0] ?? '\0') : '\n';
  if (setter === 'read') {
    const array = options.get('-a');
    const names = array === undefined ? (operands.length ? operands : ['REPLY']) : [array];
    if (!names.every((n) => NAME.test(n))) return [];
    const line = text === null ? null : readLine(text, delimiter, flags.has('-r'));
    // `IFS=, read a b`: the IFS of its own, else the line's
    const own = cmd.words.slice(0, at).findLast((w) => w.value.startsWith('IFS='));
    const ifs = own ? own.value.slice(4) : lineIfs;
    if (array !== undefined) {
      const elements = line === null ? null : ifsFields(line, ifs).filter(Boolean);
      return [{ name: array, value: elements ? (elements[0] ?? '') : UNKNOWN, ...(elements ? { elements } : {}) }];
    }
    const fields = line === null ? null : ifsFields(line, ifs, names.length);
    return names.map((name, k) => ({ name, value: fields === null ? UNKNOWN : (fields[k] ?? '') }));
  }
  const name = operands[0] ?? 'MAPFILE';
  if (!NAME.test(name)) return [];
  if (text === null) return [{ name, value: UNKNOWN }];
  const lines = text.split(delimiter === '\0' ? '\0' : delimiter);
  if (lines.at(-1) === '') lines.pop();
  const elements = flags.has('-t') ? lines : lines.map((l, k) => (k < lines.length - 1 || text.endsWith(delimiter) ? l + delimiter : l));
  return [{ name, value: elements[0] ?? '', elements }];
}

/** What `cmd` reads on its stdin when the command line tells it: a static stage before it, else its own here-string or heredoc. */
function inputText(cmd: SimpleCommand, feeder: SimpleCommand | undefined): string | null {
  if (feeder) return staticOutput({ commands: [feeder], tooDeep: false });
  const input = cmd.redirects.find((r) => r.input !== null);
  return input ? fedByItself(input) : null;
}

/** The line `read` takes: up to the delimiter, its backslashes read unless `-r` (ifsFields splits it). */
function readLine(text: string, delimiter: string, raw: boolean): string {
  const end = text.indexOf(delimiter);
  const line = end < 0 ? text : text.slice(0, end);
  return raw ? line : line.replace(/\\(.)/g, '$1');
}
