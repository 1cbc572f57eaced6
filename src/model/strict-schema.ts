import { z } from 'zod';

/** The parts of a zod schema's definition the walk reads and rebuilds. */
interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
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
 * a record, a catch-all) stays open; checks, defaults and descriptions are kept. The MCP tools'
 * arguments go through it (mcp/operation-tool.ts); the CLI's JSON input is checked by
 * model/unknown-fields.ts against the same schemas.
 */
export function deeplyStrict<T extends z.ZodType>(schema: T): T {
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  let next: Def | null = null;
  if (def.type === 'object' && def.shape) {
    const shape = Object.fromEntries(Object.entries(def.shape).map(([k, v]) => [k, deeplyStrict(v)]));
    next = { ...def, shape, catchall: def.catchall ?? z.never() };
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
