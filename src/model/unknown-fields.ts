import { z } from 'zod';
import { AxmeError } from './errors.ts';
import { eitherOf, nearNames } from './near-names.ts';

/** The parts of a JSON schema (draft 2020-12, as zod writes it) an object's fields are read from. */
interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

/** One field a value carries that its schema does not name: where (`decisions[0].enforcment`) and the fields taken there. */
export interface UnknownField {
  path: string;
  name: string;
  known: string[];
}

/**
 * The fields of `value`, at any depth, that `schema` does not name. zod's plain objects drop such
 * a field without a word (a misspelt `enforce` saved an advisory decision); an object the schema
 * leaves open (a loose object, a record) takes any. Read from the schema's JSON form, so nested
 * objects, arrays, optional and defaulted fields and unions are walked the one way.
 */
export function unknownFields(schema: z.ZodType, value: unknown): UnknownField[] {
  const out: UnknownField[] = [];
  walk(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema, value, '', out);
  return out;
}

function walk(s: JsonSchema, v: unknown, path: string, out: UnknownField[]): void {
  if (v === null || typeof v !== 'object') return;
  const alternatives = [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])];
  if (alternatives.length) {
    // the alternative of the value's shape: an array's for an array, else the objects' fields together
    const fitting = alternatives.filter((a) => (Array.isArray(v) ? a.items !== undefined : a.properties !== undefined || a.additionalProperties !== undefined));
    if (fitting.length === 1) walk(fitting[0]!, v, path, out);
    else if (fitting.length > 1 && !Array.isArray(v)) walk(mergedObject(fitting), v, path, out);
    return;
  }
  if (Array.isArray(v)) {
    if (s.items) v.forEach((x, i) => walk(s.items!, x, `${path}[${i}]`, out));
    return;
  }
  const props = s.properties;
  if (!props) return;
  const open = s.additionalProperties !== undefined && s.additionalProperties !== false;
  for (const [key, x] of Object.entries(v as Record<string, unknown>)) {
    const at = path ? `${path}.${key}` : key;
    if (props[key]) walk(props[key], x, at, out);
    else if (!open) out.push({ path: at, name: key, known: Object.keys(props) });
  }
}

/** Objects of a union read as one: every field any of them names (a field is unknown only when none does). */
function mergedObject(objects: JsonSchema[]): JsonSchema {
  const open = objects.some((o) => o.additionalProperties !== undefined && o.additionalProperties !== false);
  return { properties: Object.assign({}, ...objects.map((o) => o.properties ?? {})), ...(open ? { additionalProperties: true } : {}) };
}

/** INVALID_INPUT naming each unknown field, the name meant where one is near, and the fields taken there; null when there is none. */
export function unknownFieldsError(found: UnknownField[], what: string): AxmeError | null {
  if (!found.length) return null;
  const said = found.slice(0, 5).map((f) => {
    const meant = nearNames(f.name, f.known);
    return `${f.path}${meant.length ? ` (did you mean ${eitherOf(meant)}?)` : ''}: ${what} takes ${f.known.join(', ')} there`;
  });
  const more = found.length > 5 ? `; and ${found.length - 5} more` : '';
  return new AxmeError(
    'INVALID_INPUT',
    `unknown field${found.length === 1 ? '' : 's'} ${said.join('; ')}${more}. Nothing was written: fix the names and send it again`,
    {
      fields: found.map((f) => f.path),
    },
  );
}
