import { operandAt } from '../argv.ts';
import type { Invocation } from '../command.ts';
import type { FamilyContext } from './types.ts';

/**
 * Small readers of a command line shared by the publish and infra families: where the subcommand
 * stands after global options, whether an option was given.
 * They work on the argument values (quotes removed) and allocate little: they run on every command.
 */

export { operandAt, operands } from '../argv.ts';
export { COMPOSE_VALUED, dockerSubcommand } from '../container-cli.ts';

/** Whether one of the long (or exact) options was given, alone or as `--name=value` (not `=false`). */
export function hasOption(args: readonly string[], ...names: string[]): boolean {
  for (const a of args) {
    if (a === '--') return false;
    for (const n of names) {
      if (a === n) return true;
      if (a.length > n.length && a.startsWith(n) && a.charCodeAt(n.length) === 61 /* = */) return a.slice(n.length + 1) !== 'false';
    }
  }
  return false;
}

/** Whether a short option letter was given, alone or in a cluster (`-r`, `-rf`). */
export function hasShort(args: readonly string[], letter: string): boolean {
  for (const a of args) {
    if (a === '--') return false;
    if (a.length >= 2 && a.charCodeAt(0) === 45 && a.charCodeAt(1) !== 45 && a.includes(letter) && /^-[A-Za-z]+$/.test(a)) return true;
  }
  return false;
}

/** The values given to an option (`--output x`, `--output=x`, `-o x`, `-ox`). */
export function optionValues(args: readonly string[], ...names: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    for (const n of names) {
      if (a === n) out.push(args[i + 1] ?? '');
      else if (a.startsWith(n) && (a.charCodeAt(n.length) === 61 || (n.length === 2 && n.charCodeAt(1) !== 45)))
        out.push(a.slice(a.charCodeAt(n.length) === 61 ? n.length + 1 : n.length));
    }
  }
  return out;
}

/** `--dry-run` (or `=true`): the publish only reports what it would do. */
export function dryRun(args: readonly string[]): boolean {
  return hasOption(args, '--dry-run');
}

/** The argument values of an invocation. */
export function values(inv: Invocation): string[] {
  const out = new Array<string>(inv.args.length);
  for (let i = 0; i < inv.args.length; i++) out[i] = inv.args[i]!.value;
  return out;
}

/** What a family check reports. */
export interface Hit {
  rule: string;
  reason: string;
}

/** A check that needs only the argument values. */
export type ArgsCheck = (args: string[]) => Hit | null;

/** One program's check: its argument values, and a way to check a program it runs in turn (`npx vsce publish`). */
export type ToolCheck = (args: string[], env: ToolEnv) => Hit | null;

export interface ToolEnv {
  ctx: FamilyContext;
  /** checks `program args` as if it had been run directly (a runner's tool, `python -m twine`) */
  run: (program: string, args: string[]) => Hit | null;
}

/**
 * Gradle's options that take a value (`-x flywayClean` a task it does not run, `-p dir`, `-D k=v`,
 * `--tests Name`): its tasks are the operands after them, for the publish and infra families alike.
 */
export const GRADLE_VALUED: ReadonlySet<string> = new Set([
  '-x',
  '--exclude-task',
  '-p',
  '--project-dir',
  '-b',
  '--build-file',
  '-c',
  '--settings-file',
  '-g',
  '--gradle-user-home',
  '-I',
  '--init-script',
  '-D',
  '-P',
  '--console',
  '--warning-mode',
  '--max-workers',
  '--include-build',
  '--priority',
  '--project-cache-dir',
  '--configuration',
  '--tests',
]);
