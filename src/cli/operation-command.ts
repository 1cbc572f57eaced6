import type { Argv, Options, PositionalOptions } from 'yargs';
import { z } from 'zod';
import { AxmeError } from '../model/errors.ts';
import { LIMITS } from '../model/limits.ts';
import type { NumberBounds } from '../model/number-value.ts';
import { readOnlyGitDirMessage } from '../model/read-only-git-dir.ts';
import { unknownFieldsError } from '../model/strict-schema.ts';
import { afterOperation } from '../operations/after-operation.ts';
import { type AnyOperation, type CliPrinter, flagOf, inputSchema, surfaceInput, warningsOf } from '../operations/operation.ts';
import { stdinFields, writeOptions } from './commands/shared.ts';
import { type CliArgs, type CliIO, note, out, printJson, readStdin, SilentExit, withKb } from './io.ts';
import { numberOption } from './number-values.ts';

export { flagOf };

interface JsonField {
  type?: string;
  minimum?: number;
  maximum?: number;
  enum?: unknown[];
  anyOf?: JsonField[];
  items?: JsonField;
  description?: string;
}

/** The bounds a number field's schema declares (those past the safe integers are what `.int()` says, not a bound). */
function boundsOf(field: JsonField): NumberBounds {
  const bound = (n: number | undefined) => (n !== undefined && Math.abs(n) < Number.MAX_SAFE_INTEGER ? n : undefined);
  const min = bound(field.minimum);
  const max = bound(field.maximum);
  return { ...(field.type === 'integer' ? { integer: true } : {}), ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) };
}

/** The yargs option of one input field named `flag`, from its JSON schema (input side: what a caller gives). */
export function optionOf(field: JsonField, required: boolean, flag: string, short?: string): Options {
  const describe = field.description ?? '';
  const list = field.anyOf?.some((f) => f.type === 'array') && field.anyOf.some((f) => f.type === 'string');
  if (list) return { type: 'string', describe: `${describe} (comma-separated)`, demandOption: required };
  if (field.type === 'array') {
    const choices = field.items?.enum as string[] | undefined;
    return { type: 'string', array: true, describe, demandOption: required, ...(choices ? { choices } : {}) };
  }
  if (field.enum) return { type: 'string', choices: field.enum as string[], describe, demandOption: required };
  if (field.type === 'number' || field.type === 'integer') return numberOption(flag, boundsOf(field), { describe, demandOption: required }, short);
  if (field.type === 'boolean') return { type: 'boolean', describe, demandOption: required };
  return { type: 'string', describe, demandOption: required };
}

function schemaFields(shape: z.ZodRawShape): { properties: Record<string, JsonField>; required: Set<string> } {
  const schema = z.toJSONSchema(z.object(shape), { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, JsonField>; required?: string[] };
  return { properties: schema.properties ?? {}, required: new Set(schema.required ?? []) };
}

/**
 * The fields of an operation's input as JSON schema properties, with which are required: all of
 * them, or those one surface takes (`cli`: its presentation flags too; `mcp`: without what it omits).
 */
export function fieldsOf(op: AnyOperation, surface?: 'cli' | 'mcp'): { properties: Record<string, JsonField>; required: Set<string> } {
  if (!surface) return schemaFields(inputSchema(op).shape);
  const shape = surfaceInput(op, surface);
  return schemaFields(surface === 'cli' && op.cli?.flags ? { ...shape, ...op.cli.flags } : shape);
}

/** A field's name on the command line (a positional's, or the flag's before flagOf). */
export function cliName(op: AnyOperation, field: string): string {
  return (op.cli?.names as Record<string, string> | undefined)?.[field] ?? field;
}

/**
 * The usage error for a command line (before `--`) that gives one of the command's required
 * words as an option (`--question` beside `ask <question>`: yargs would keep one of the two and
 * drop the other without a word, or say the word is missing), else undefined. An optional word
 * may be given either way (`axme diff --from v1`).
 */
export function positionalFlag(op: AnyOperation, argv: readonly string[]): string | undefined {
  const positional = op.cli?.positional ?? [];
  if (!positional.length) return undefined;
  const { required } = schemaFields(Object.fromEntries(positional.map((p) => [p, op.input[p]])));
  const names = positional.filter((f) => required.has(f)).map((f) => cliName(op, f));
  for (const arg of argv) {
    if (arg === '--') break;
    const given = /^--([^=]+)/.exec(arg)?.[1];
    const name = given === undefined ? undefined : names.find((n) => n === given || flagOf(n) === given);
    if (name !== undefined)
      return `--${given} is not an option: <${name}> is a word after the command (${['axme', ...op.cli!.command.slice(0, -1), usageOf(op)].join(' ')}); give it there, once`;
  }
  return undefined;
}

/** The words of a command line's usage: the last command word and its positionals (`search <query..>`). */
export function usageOf(op: AnyOperation): string {
  const { command, positional = [], variadic } = op.cli!;
  const { required } = positional.length ? schemaFields(Object.fromEntries(positional.map((p) => [p, op.input[p]]))) : { required: new Set<string>() };
  return [
    command.at(-1)!,
    ...positional.map((p, i) => {
      const name = `${cliName(op, p)}${variadic && i === positional.length - 1 ? '..' : ''}`;
      return required.has(p) ? `<${name}>` : `[${name}]`;
    }),
  ].join(' ');
}

/**
 * The yargs command of an operation (its last command word; the parent command groups it):
 * one option per input field, positionals and --stdin where declared, --allow-secret for writes;
 * the result printed as the operation's text, or its JSON with --json (or by `cli.print`). The
 * options are worked out when the command runs (or shows its help), not when its parent lists it.
 */
export function operationCommand(io: CliIO, op: AnyOperation) {
  if (!op.cli) throw new Error(`operation ${op.id} has no CLI command`);
  const cli = op.cli;
  const { positional = [], stdin = [], variadic, alias = {}, help = {} } = cli;
  let cached: ReturnType<typeof fieldsOf> | undefined;
  const all = () => (cached ??= fieldsOf(op, 'cli'));
  const inputFields = () => Object.keys(surfaceInput(op, 'cli'));
  return {
    command: usageOf(op),
    ...(cli.aliases ? { aliases: cli.aliases } : {}),
    describe: cli.describe ?? op.summary.charAt(0).toLowerCase() + op.summary.slice(1),
    builder: (y: Argv) => {
      const { properties, required } = all();
      let b: Argv = op.write ? writeOptions(y, stdin) : y;
      if (cli.stdinJson) return b;
      for (const [field, schema] of Object.entries(properties)) {
        const short = (alias as Record<string, string>)[field];
        const o = optionOf(schema, required.has(field) && !stdin.includes(field), flagOf(cliName(op, field)), short);
        const describe = (help as Record<string, string>)[field] ?? o.describe;
        if (positional.includes(field)) {
          const array = variadic && field === positional.at(-1);
          b = b.positional(cliName(op, field), {
            type: o.type,
            describe,
            choices: o.choices,
            coerce: o.coerce,
            ...(array ? { array: true } : {}),
          } as PositionalOptions);
        } else b = b.option(flagOf(cliName(op, field)), { ...o, describe, ...(short ? { alias: short } : {}) });
      }
      return b;
    },
    handler: async (a: CliArgs) => {
      const folder = a.C ?? io.cwd;
      const input = () => (cli.stdinJson ? jsonFromStdin(io, op) : inputFrom(io, op, a, inputFields(), all().properties));
      const show = async (r: unknown) => {
        const code = await printResult(op, r, printer(io, a));
        if (code) throw new SilentExit(code);
      };
      if (op.folder) return show(await op.run({ cwd: folder, env: io.env, progress: (line) => io.stderr.write(`${line}\n`) }, (await input()) as never));
      return withKb(io, a, async (kb) => {
        await show(
          await op
            .run(kb, (await input()) as never, { allowSecret: !!a.allowSecret, cwd: folder, env: io.env })
            .catch((err) => Promise.reject(withTool(err, op.mcp?.tool))),
        );
        await afterOperation(op, kb, { answersAgain: false, self: io.self, cwd: folder, env: io.env });
      });
    },
  };
}

/**
 * What a command prints of its result, and its exit code: `cli.print` when it has one, else with
 * `--json` the result as `cli.json` or `json` gives it, else `cli.text` or `text`.
 */
export async function printResult(op: AnyOperation, r: unknown, p: CliPrinter): Promise<number> {
  const cli = op.cli;
  let code = 0;
  if (cli?.print) code = (await cli.print(r, p)) || 0;
  else if (p.json) p.printJson(cli?.json ? cli.json(r) : op.json(r));
  else p.out(cli?.text ? cli.text(r, p) : op.text(r));
  // a save's warnings (an anchor that names nothing) are diagnostics: beside the answer, which --json carries them in too
  for (const w of warningsOf(r)) p.note(`axme: warning: ${w.message}`);
  return code;
}

/** The input of a run from the command line: positionals, flags and the --stdin field. */
async function inputFrom(io: CliIO, op: AnyOperation, a: CliArgs, fields: string[], schemas: Record<string, JsonField>): Promise<Record<string, unknown>> {
  const { positional = [], stdin = [], variadic } = op.cli!;
  const fromStdin = await stdinFields(io, a, stdin);
  const input: Record<string, unknown> = {};
  for (const field of fields) {
    const name = cliName(op, field);
    let v = fromStdin[field] ?? (positional.includes(field) ? a[name] : a[flagOf(name)]);
    // the words after `--` are among them (`axme search -- --no-verify`: main.ts markOperands)
    if (variadic && field === positional.at(-1) && Array.isArray(v)) v = v.join(' ');
    // a flag of one value given twice: yargs makes its values a list, which the schema would call the wrong type
    else if (Array.isArray(v) && !positional.includes(field) && !takesList(schemas[field]))
      throw new AxmeError('INVALID_INPUT', `--${flagOf(name)} was given more than once (${v.map((x) => JSON.stringify(x)).join(', ')}): give it once`);
    if (v !== undefined) input[field] = v;
  }
  return input;
}

/** Whether a field takes a list (repeated or comma-separated flags): an array, or an array or a string. */
const takesList = (f: JsonField | undefined) => f?.type === 'array' || !!f?.anyOf?.some((x) => x.type === 'array');

/** `cli.stdinJson`: the whole input, one JSON object on standard input (the MCP tool's arguments). */
async function jsonFromStdin(io: CliIO, op: AnyOperation): Promise<unknown> {
  const raw = await readStdin(io, LIMITS.fileBytes * 8);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (err) {
    throw new AxmeError(
      'INVALID_INPUT',
      `standard input is not JSON (${(err as Error).message}): pipe the ${op.mcp?.tool ?? op.id} arguments as one JSON object`,
    );
  }
  // a misspelt field is refused by name at any depth, never dropped: the MCP tool's own check (model/strict-schema.ts)
  const unknown = unknownFieldsError(z.object(surfaceInput(op, 'cli')), value, `the ${op.mcp?.tool ?? op.id} input`);
  if (unknown) throw unknown;
  return value;
}

function printer(io: CliIO, a: CliArgs): CliPrinter {
  return {
    json: !!a.json,
    args: a,
    tty: !!(io.stdout as { isTTY?: boolean }).isTTY,
    env: io.env,
    out: (text) => out(io, text),
    note: (text) => note(io, text),
    printJson: (value) => printJson(io, value),
  };
}

/** A write refused by a read-only git folder (the kernel sandbox), naming the MCP tool that does the same outside it. */
function withTool(err: unknown, tool: string | undefined): unknown {
  if (!(err instanceof AxmeError) || err.data.readOnly !== true || !tool) return err;
  return new AxmeError(err.code, readOnlyGitDirMessage(String(err.data.ref), String(err.data.errno), tool), err.data);
}
