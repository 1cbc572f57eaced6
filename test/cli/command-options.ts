/**
 * Every command of the CLI and its arguments, read from the one table (src/cli/command-tree.ts)
 * by running each command's yargs builder against a recorder: what the help and the parser see,
 * not a hand list. Used by the bad-input sweep (test/cli/bad-input-sweep.test.ts).
 */
import { tmpdir } from 'node:os';
import { Writable } from 'node:stream';
import { commandsOf, topLevelWords } from '../../src/cli/command-tree.ts';
import type { CliIO } from '../../src/cli/io.ts';
import { numberBoundsOf } from '../../src/cli/number-values.ts';

/** One argument of a command: a positional word or an option, as its builder declared it. */
export interface Arg {
  name: string;
  positional: boolean;
  type: 'string' | 'number' | 'boolean' | undefined;
  choices?: readonly unknown[];
  array?: boolean;
  required: boolean;
  variadic?: boolean;
}

/** A command that runs (no subcommand of its own): its words and its arguments. */
export interface Leaf {
  words: string[];
  args: Arg[];
}

/** A CLI that prints nothing: what a builder is given when only its declarations are read. */
export const quiet: CliIO = {
  cwd: tmpdir(),
  env: {},
  stdin: process.stdin,
  stdout: new Writable({ write: (_c, _e, cb) => cb() }),
  stderr: new Writable({ write: (_c, _e, cb) => cb() }),
  self: null,
};

type Module = { command: string | string[]; aliases?: string[]; builder?: unknown };

/** A command's usage line (its first, when it has several). */
const usageLine = (mod: Module) => String(Array.isArray(mod.command) ? mod.command[0] : mod.command);

/** The positionals of a usage line (`add <name> [more..]`): required or not, variadic or not. */
function usageWords(usage: string): Array<{ name: string; required: boolean; variadic: boolean }> {
  return [...usage.matchAll(/([<[])([^>\]]+)[>\]]/g)].map((m) => ({
    name: m[2]!.replace(/\.\.$/, ''),
    required: m[1] === '<',
    variadic: m[2]!.endsWith('..'),
  }));
}

/** What one command's builder declares, run against a recorder: its subcommands, in order, and its own arguments. */
function declared(mod: Module): { subs: Module[]; args: Arg[] } {
  const [, ...rest] = usageLine(mod).split(' ');
  const subs: Module[] = [];
  const args: Arg[] = usageWords(rest.join(' ')).map((p) => ({ name: p.name, positional: true, type: 'string', required: p.required, variadic: p.variadic }));
  const option = (name: string, o: Record<string, unknown>) => {
    args.push({
      name,
      positional: false,
      // a number option is read as text and checked as it is parsed (src/cli/number-values.ts)
      type: numberBoundsOf(o) ? 'number' : (o.type as Arg['type']),
      choices: o.choices as unknown[] | undefined,
      array: !!o.array,
      required: !!o.demandOption,
    });
  };
  const recorder: unknown = new Proxy(
    {},
    {
      get: (_t, key) => {
        if (key === 'command') return (m: Module) => (subs.push(m), recorder);
        if (key === 'option') return (name: string, o: Record<string, unknown>) => (option(name, o), recorder);
        if (key === 'options') return (all: Record<string, Record<string, unknown>>) => (Object.entries(all).forEach(([n, o]) => option(n, o)), recorder);
        if (key === 'positional')
          return (name: string, o: Record<string, unknown>) => {
            const p = args.find((a) => a.positional && a.name === name);
            if (p) Object.assign(p, { type: o.type ?? 'string', choices: o.choices });
            return recorder;
          };
        return () => recorder;
      },
    },
  );
  if (typeof mod.builder === 'function') (mod.builder as (y: unknown) => unknown)(recorder);
  return { subs, args };
}

/** Walks one command: its subcommands, or its own arguments when it has none (a default `$0` runs under its parent's words). */
function walk(words: string[], mod: Module, into: Leaf[]): void {
  const word = usageLine(mod).split(' ')[0]!;
  const here = word === '$0' ? words : [...words, word];
  const { subs, args } = declared(mod);
  const own = subs.filter((s) => !usageLine(s).startsWith('$0'));
  const byDefault = subs.find((s) => usageLine(s).startsWith('$0'));
  for (const s of own) walk(here, s, into);
  if (byDefault) walk(here, byDefault, into);
  else if (!own.length) into.push({ words: here, args });
}

/** Each top-level command's word and the words of the subcommands its builder registers (their aliases too; a default is `$0`), in the help's order. */
export async function subcommandWords(): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  for (const c of (await commandsOf(quiet, topLevelWords())) as Module[])
    found.set(
      usageLine(c).split(' ')[0]!,
      declared(c).subs.flatMap((s) => [usageLine(s).split(' ')[0]!, ...(s.aliases ?? [])]),
    );
  return found;
}

/** Every command that runs, with its arguments, in the order of the help. */
export async function everyCommand(): Promise<Leaf[]> {
  const leaves: Leaf[] = [];
  for (const c of await commandsOf(quiet, topLevelWords())) walk([], c as Module, leaves);
  return leaves;
}
