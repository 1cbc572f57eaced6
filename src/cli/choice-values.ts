import { eitherOf, nearNames } from '../model/near-names.ts';

/**
 * A value an option or a positional word does not take, said before yargs' own check ("Invalid
 * values: Argument: enforce, Given: …"), or undefined when every value is a choice: the usage error's message names the value given and the choice it
 * was most likely meant to be (model/near-names.ts: `--enforce require` → required), else every
 * choice. `args` is the parsed command line (a yargs middleware's), `choices` the command's
 * (`getOptions().choices`), `argv` the words as typed (to say `--name` or `<name>`).
 */
export function choiceError(args: Record<string, unknown>, choices: Record<string, readonly unknown[]>, argv: readonly string[]): string | undefined {
  for (const [key, allowed] of Object.entries(choices)) {
    const value = args[key];
    if (value === undefined || !allowed.length) continue;
    const names = allowed.map(String);
    const bad = (Array.isArray(value) ? value : [value]).map(String).find((v) => !names.includes(v));
    if (bad === undefined) continue;
    return choiceProblem(typed(key, argv), bad, names);
  }
  return undefined;
}

/**
 * A list option named with no value (`--status` alone, `--status=`, `--status --all`), said as a
 * usage error, or undefined: yargs reads it as an empty list, which a command would take as "no
 * filter" and answer as if the option were not there. `arrays` are the command's list options
 * (`getOptions().array`), `choices` their choices where they have some.
 */
export function emptyListError(
  args: Record<string, unknown>,
  arrays: readonly string[],
  choices: Record<string, readonly unknown[]>,
  argv: readonly string[],
): string | undefined {
  for (const key of arrays) {
    const value = args[key];
    if (!Array.isArray(value) || value.length) continue;
    const what = typed(key, argv);
    if (!what.startsWith('--')) continue;
    const allowed = (choices[key] ?? []).map(String);
    const give = allowed.length ? `give ${eitherOf(allowed)}` : 'give one';
    return `${what} needs a value: ${give}, or leave ${what} out`;
  }
  return undefined;
}

/** `Invalid values: <what> takes a, b or c, not "<value>": did you mean …?` (yargs' first words kept; the question only when a choice is near). */
export function choiceProblem(what: string, value: string, choices: readonly string[]): string {
  const meant = nearNames(value, choices);
  return `Invalid values: ${what} takes ${eitherOf(choices)}, not ${JSON.stringify(value.slice(0, 60))}${meant.length ? `: did you mean ${eitherOf(meant)}?` : ''}`;
}

/** The key as the command line spells it: `--key` when given as an option, else `<key>` (a positional word). */
function typed(key: string, argv: readonly string[]): string {
  const kebab = key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  const asOption = argv.some((a) => a === `--${kebab}` || a.startsWith(`--${kebab}=`) || a === `--${key}` || a.startsWith(`--${key}=`));
  return asOption ? `--${kebab}` : `<${kebab}>`;
}
