import { z } from 'zod';
import { AxmeError } from './errors.ts';
import { eitherOf, nearNames } from './near-names.ts';

/** The parts of a zod schema's definition the walk reads and rebuilds. */
interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  error?: (issue: { code?: string; keys?: string[] }) => unknown;
  element?: z.ZodType;
  innerType?: z.ZodType;
  options?: z.ZodType[];
}

/** Definitions whose one inner schema is wrapped (optional, default, …): rebuilt around the strict inner one. */
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

/**
 * `schema` with every plain object in it, at any depth, refusing a field it does not name
 * (`unrecognized_keys`) instead of dropping it: a misspelt field inside a list of objects (a
 * close's decision with `enforcment`) must not pass as done. An object left open (a loose one,
 * a record, a catch-all) stays open; checks, defaults and descriptions are kept. An unknown
 * field's message names it, the field meant where one is near, and the fields taken there. The
 * MCP tools' arguments go through it (mcp/operation-tool.ts), and the CLI's JSON input
 * (unknownFieldsError): one check, one message, on both surfaces.
 */
export function deeplyStrict<T extends z.ZodType>(schema: T): T {
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  let next: Def | null = null;
  if (def.type === 'object' && def.shape) {
    const shape = Object.fromEntries(Object.entries(def.shape).map(([k, v]) => [k, deeplyStrict(v)]));
    next = def.catchall ? { ...def, shape } : { ...def, shape, catchall: z.never(), error: unknownFieldMessage(Object.keys(shape), def.error) };
  } else if (def.type === 'array' && def.element) next = { ...def, element: deeplyStrict(def.element) };
  else if (WRAPPERS.has(def.type) && def.innerType) next = { ...def, innerType: deeplyStrict(def.innerType) };
  else if (def.type === 'union' && def.options) next = { ...def, options: def.options.map((o) => deeplyStrict(o)) };
  if (!next) return schema;
  const out = (schema as unknown as { clone(def: Def): T }).clone(next);
  // a description (and any other metadata) lives in the registry by schema: the rebuilt one carries it too
  const meta = z.globalRegistry.get(schema);
  if (meta) z.globalRegistry.add(out, meta);
  return out;
}

/** An object's message for a field it does not name: the field, the one meant where one is near, and the fields it takes. */
function unknownFieldMessage(known: string[], before: Def['error']): NonNullable<Def['error']> {
  return (issue) => {
    if (issue.code !== 'unrecognized_keys' || !issue.keys) return before?.(issue);
    const said = issue.keys.map((k) => {
      const meant = nearNames(k, known);
      return `${JSON.stringify(k)}${meant.length ? ` (did you mean ${eitherOf(meant)}?)` : ''}`;
    });
    return `unknown field${said.length === 1 ? '' : 's'} ${said.join(', ')}: it takes ${known.join(', ')} here`;
  };
}

/** A zod issue as the walk reads it: an unknown field's, or a union's (each alternative's issues). */
interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
  errors?: Issue[][];
}

/** `decisions[0].enforcment`: where a field sits, as a person writes it. */
function pathOf(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('');
}

/** The unknown-field issues among `issues`, each with its full path; of a union, the alternative that came nearest (fewest issues). */
function unknownFieldIssues(issues: readonly Issue[], at: readonly PropertyKey[] = []): { path: string; message: string }[] {
  const out: { path: string; message: string }[] = [];
  for (const issue of issues) {
    const path = [...at, ...issue.path];
    if (issue.code === 'unrecognized_keys') for (const k of issue.keys ?? []) out.push({ path: pathOf([...path, k]), message: issue.message });
    else if (issue.code === 'invalid_union' && issue.errors?.length) {
      const nearest = [...issue.errors].sort((a, b) => a.length - b.length)[0]!;
      out.push(...unknownFieldIssues(nearest, path));
    }
  }
  return out;
}

/**
 * INVALID_INPUT naming each field of `value`, at any depth, that `schema` does not name (its
 * path, the field meant, the fields taken there), or null when there is none: for input read as
 * a whole (the CLI's JSON on standard input), refused before anything is written. Other faults of
 * the value are left to the schema's own parse.
 */
export function unknownFieldsError(schema: z.ZodType, value: unknown, what: string): AxmeError | null {
  const parsed = deeplyStrict(schema).safeParse(value);
  if (parsed.success) return null;
  const found = unknownFieldIssues(parsed.error.issues as unknown as Issue[]);
  if (!found.length) return null;
  const said = found.slice(0, 5).map((f) => `${f.path}: ${f.message}`);
  const more = found.length > 5 ? `; and ${found.length - 5} more` : '';
  return new AxmeError('INVALID_INPUT', `${what}: ${said.join('; ')}${more}. Nothing was written: fix the names and send it again`, {
    fields: found.map((f) => f.path),
  });
}
