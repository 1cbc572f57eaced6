import type { Argv, Options, PositionalOptions } from 'yargs';
import { z } from 'zod';
import { inputSchema, type AnyOperation } from '../operations/operation.ts';
import { out, printJson, withKb, type CliIO } from './io.ts';
import { stdinFields, writeOptions } from './commands/shared.ts';

type Args = Record<string, unknown> & { C?: string; json?: boolean };

/** A flag's name for a field: `allow_secret` and `allowSecret` become `allow-secret`. */
export function flagOf(field: string): string {
  return field.replace(/_/g, '-').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

interface JsonField {
  type?: string;
  enum?: unknown[];
  anyOf?: JsonField[];
  items?: JsonField;
  description?: string;
}

/** The yargs option of one input field, from its JSON schema (input side: what a caller gives). */
export function optionOf(field: JsonField, required: boolean): Options {
  const describe = field.description ?? '';
  const list = field.anyOf?.some((f) => f.type === 'array') && field.anyOf.some((f) => f.type === 'string');
  if (list) return { type: 'string', describe: `${describe} (comma-separated)`, demandOption: required };
  if (field.type === 'array') {
    const choices = field.items?.enum as string[] | undefined;
    return { type: 'string', array: true, describe, demandOption: required, ...(choices ? { choices } : {}) };
  }
  if (field.enum) return { type: 'string', choices: field.enum as string[], describe, demandOption: required };
  if (field.type === 'number' || field.type === 'integer') return { type: 'number', describe, demandOption: required };
  if (field.type === 'boolean') return { type: 'boolean', describe, demandOption: required };
  return { type: 'string', describe, demandOption: required };
}

/** The fields of an operation's input as JSON schema properties, with which are required. */
export function fieldsOf(op: AnyOperation): { properties: Record<string, JsonField>; required: Set<string> } {
  const schema = z.toJSONSchema(inputSchema(op), { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, JsonField>; required?: string[] };
  return { properties: schema.properties ?? {}, required: new Set(schema.required ?? []) };
}

/**
 * The yargs command of an operation (its last command word; the parent command groups it):
 * one option per input field, positionals and --stdin where declared, --allow-secret for writes;
 * the result printed as the operation's text, or its JSON with --json. The options are worked
 * out when the command runs (or shows its help), not when its parent lists it.
 */
export function operationCommand(io: CliIO, op: AnyOperation) {
  if (!op.cli) throw new Error(`operation ${op.id} has no CLI command`);
  const { command, positional = [], stdin = [] } = op.cli;
  let cached: ReturnType<typeof fieldsOf> | undefined;
  const all = () => (cached ??= fieldsOf(op));
  // the command line needs only whether each positional is required: a schema of those alone
  const { required: positionalRequired } = positional.length ? fieldsOf({ ...op, input: Object.fromEntries(positional.map((p) => [p, op.input[p]])) }) : { required: new Set<string>() };
  return {
    command: [command.at(-1)!, ...positional.map((p) => (positionalRequired.has(p) ? `<${p}>` : `[${p}]`))].join(' '),
    describe: op.summary.charAt(0).toLowerCase() + op.summary.slice(1),
    builder: (y: Argv) => {
      const { properties, required } = all();
      let b: Argv = op.write ? writeOptions(y, stdin) : y;
      for (const [field, schema] of Object.entries(properties)) {
        const o = optionOf(schema, required.has(field) && !stdin.includes(field));
        b = positional.includes(field) ? b.positional(field, { type: o.type, describe: o.describe, choices: o.choices } as PositionalOptions) : b.option(flagOf(field), o);
      }
      return b;
    },
    handler: (a: Args) =>
      withKb(io, a, async (kb) => {
        const fromStdin = await stdinFields(io, a, stdin);
        const input: Record<string, unknown> = {};
        for (const field of Object.keys(all().properties)) {
          const v = fromStdin[field] ?? (positional.includes(field) ? a[field] : a[flagOf(field)]);
          if (v !== undefined) input[field] = v;
        }
        const r = await op.run(kb, input as never, { allowSecret: !!a.allowSecret });
        if (a.json) return printJson(io, op.json(r));
        out(io, op.text(r));
      }),
  };
}
