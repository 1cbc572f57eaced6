import { z } from 'zod';
import type { KnowledgeBase } from '../knowledge/core/kb.ts';
import type { AnchorWarning, SavedAnchors } from '../knowledge/stale/anchor-warnings.ts';

/** The input fields of an operation, by name. */
type Field<S> = keyof S & string;

/**
 * How the CLI prints a result when the operation's `text` and `json` do not say it all (a list
 * whose diagnostics go to stderr, a check that exits 1): what `cli.print` gets.
 */
export interface CliPrinter {
  /** --json was given */
  json: boolean;
  /** the command line: input fields and `cli.flags` by their flag names (camelCase too) */
  args: Record<string, unknown>;
  /** stdout is a terminal (colour) */
  tty: boolean;
  env: NodeJS.ProcessEnv;
  /** a line (or lines) of the answer, on stdout */
  out(text: string): void;
  /** a diagnostic or a summary, on stderr */
  note(text: string): void;
  /** the value as indented JSON on stdout */
  printJson(value: unknown): void;
}

/**
 * The CLI command of an operation: its words and what differs from a field-by-field call. A
 * declaration with hooks on the result (`json`, `print`) puts `cli` after `run`: TypeScript takes
 * the result's type from `run` in the order the declaration gives them.
 */
export interface CliSurface<S extends z.ZodRawShape, R> {
  /** the words of the command, e.g. ['memory', 'add']: the CLI tree is grouped by the first (src/cli/operation-tree.ts) */
  command: string[];
  /** other names of the last word (`models status` for `models list`) */
  aliases?: string[];
  /** the help line, when it is not the summary */
  describe?: string;
  /** fields given as positional arguments, in order (`memory remove <slug>`) */
  positional?: Array<Field<S>>;
  /** the last positional takes every remaining word, joined by spaces (`search <query..>`) */
  variadic?: boolean;
  /** a field's name on the command line when it is not the field's (`history <ref>` for `id_or_slug`) */
  names?: Partial<Record<Field<S>, string>>;
  /** short aliases of flags, by field: `{ limit: 'n' }` gives `-n` */
  alias?: Partial<Record<Field<S>, string>>;
  /** a field's help on the CLI when the shared description does not fit it (another default) */
  help?: Partial<Record<Field<S>, string>>;
  /** input fields the CLI does not take (the MCP tool's own, e.g. a folder the CLI gets from -C) */
  omit?: Array<Field<S>>;
  /** fields that may be read from standard input with `--stdin <field>` */
  stdin?: Array<Field<S>>;
  /** the whole input is one JSON object on standard input (the MCP tool's arguments), no options */
  stdinJson?: boolean;
  /** presentation flags of the CLI alone (`--format`, `--color`): described like input, given to `print`, never to `run` */
  flags?: z.ZodRawShape;
  /** the text the CLI prints when it is not `text(result)` (a terminal's layout: aligned columns, colour) */
  text?: (result: NoInfer<R>, p: CliPrinter) => string;
  /** what --json prints when it is not `json(result)` (an array; the core's result as it is) */
  json?: (result: NoInfer<R>) => unknown;
  /** prints the result itself (text and --json), when stdout alone and `text` do not say it; returns the exit code (default 0) */
  print?: (result: NoInfer<R>, p: CliPrinter) => void | number | Promise<void | number>;
}

/** The MCP tool of an operation. */
export interface McpSurface<S extends z.ZodRawShape> {
  tool: string;
  /** input fields the tool does not take (the CLI's own, e.g. `--budget`) */
  omit?: Array<Field<S>>;
  /** values the tool gives a field it omits or a caller left out (`history` always with the patch) */
  defaults?: Partial<z.input<z.ZodObject<S>>>;
  /** another name the tool accepts for `project_path` (AXME's `workspace_path`) */
  projectAlias?: string;
  /**
   * a tool the session's own flow calls (the context, search, saving what was learned, the
   * close): a client that loads tools on demand loads it up front (mcp/operation-tool.ts toolMeta;
   * docs/mcp.md, "Tools a client loads on demand")
   */
  upFront?: true;
}

/** What the surface running an operation knows beyond its input. */
export interface RunOptions {
  /** store content that looks like a credential anyway (writes) */
  allowSecret?: boolean;
  /** a change of one item (memory.update, memory.remove, decision.amend, decision.revoke): the version of the item it was made from (ShowResult.version); refused when the item has changed since */
  base?: string | undefined;
  /** the folder the caller works in (the CLI's -C or its cwd; the MCP project path): for git commands on the code */
  cwd?: string;
  /** the caller's environment, when the surface has its own (the CLI); else the store's */
  env?: NodeJS.ProcessEnv;
}

/** A folder an operation that needs no store works in (`axme workspace`). */
export interface FolderTarget {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** where a long run reports how far it is (the CLI's stderr), when the surface has one */
  progress?: (line: string) => void;
}

/**
 * One operation, declared once: its name on each surface, its input and output schemas, its
 * annotations, the core function that does the work and the one human rendering of its result.
 * The CLI command (src/cli/operation-command.ts), the MCP tool (src/mcp/operation-tool.ts) and
 * the reference tables in docs/cli.md and docs/mcp.md (scripts/reference.ts) are all derived from
 * it; a surface keeps only what is truly its own (positional arguments, --stdin, paging).
 */
interface OperationBase<S extends z.ZodRawShape, R> {
  /** dotted name, e.g. `memory.add` */
  id: string;
  /** one line: the CLI help and the MCP tool's title */
  summary: string;
  /** what it does and returns, for the agent (the MCP tool description) and the docs */
  description: string;
  /** the input fields, each with `.describe()` */
  input: S;
  /** the result as JSON: the CLI's --json and the MCP tool's structured content */
  output: z.ZodType;
  annotations: Annotations;
  /** a write takes --allow-secret / allow_secret (content that looks like a credential) */
  write: boolean;
  cli: CliSurface<S, R> | null;
  mcp: McpSurface<S> | null;
  /**
   * The items a run wrote with the anchors it set (saved, superseding, reconfirmed, given new
   * anchors), for a save that takes anchors: each anchor that names nothing in the working tree is
   * a warning in the answer (`warnings`: the CLI's stderr and --json, the MCP tool's text and
   * structured result), never a refusal (docs/staleness.md#anchors-that-name-nothing).
   */
  anchored?(result: R, input: z.input<z.ZodObject<S>>): SavedAnchors[];
  /** the result as JSON (what `output` describes) */
  json(result: R): Record<string, unknown>;
  /** the result for a person or an agent: the same text on every surface */
  text(result: R): string;
}

/** An operation on one knowledge store (nearly all of them). */
export interface Operation<S extends z.ZodRawShape = z.ZodRawShape, R = unknown> extends OperationBase<S, R> {
  folder?: false;
  /** the work: the core function (which checks its input once, at the boundary); returns data */
  run(kb: KnowledgeBase, input: z.input<z.ZodObject<S>>, opts?: RunOptions): Promise<R>;
}

/** An operation on a folder that needs no store (it reads several, or none): `axme workspace`. */
export interface FolderOperation<S extends z.ZodRawShape = z.ZodRawShape, R = unknown> extends OperationBase<S, R> {
  folder: true;
  run(at: FolderTarget, input: z.input<z.ZodObject<S>>): Promise<R>;
}

/** Any declared operation, as the surfaces and the docs generator take it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the surfaces only pass input through to run()
export type AnyOperation = (Operation<any, any> | FolderOperation<any, any>) & { run(target: any, input: any, opts?: RunOptions): Promise<any> };

/** The MCP annotation hints; the CLI shows them in the docs. */
export interface Annotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** Reads: nothing changes. */
export const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
/** Saves that return the existing item when it is already stored. */
export const SAVE = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
/** Edits of existing items (kept in history, so never destructive). */
export const EDIT = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as const;
/** Pushes to the git remote and calls GitHub: the outside world changes. */
export const PUBLISH = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true } as const;

/** Declares an operation (typed: `run` gets the input of `input`). That every field is described is checked by the tests. */
export function defineOperation<S extends z.ZodRawShape, R>(op: Operation<S, R>): Operation<S, R>;
export function defineOperation<S extends z.ZodRawShape, R>(op: FolderOperation<S, R>): FolderOperation<S, R>;
export function defineOperation<S extends z.ZodRawShape, R>(op: Operation<S, R> | FolderOperation<S, R>): Operation<S, R> | FolderOperation<S, R> {
  const { anchored } = op;
  if (op.folder || !anchored) return op;
  // every surface runs `run`: the warnings are the operation's, said once here
  const run = op.run;
  return {
    ...op,
    async run(kb, input, opts) {
      const result = await run(kb, input, opts);
      const saved = anchored(result, input);
      if (!saved.some((s) => s.anchors.length)) return result;
      const { anchorWarnings } = await import('../knowledge/stale/anchor-warnings.ts');
      const warnings = await anchorWarnings(kb, saved);
      return warnings.length ? { ...result, warnings } : result;
    },
  };
}

/** The warnings a result carries (`anchored`): none for most. */
export function warningsOf(result: unknown): AnchorWarning[] {
  const w = (result as { warnings?: unknown } | null)?.warnings;
  return Array.isArray(w) ? (w as AnchorWarning[]) : [];
}

/** An operation's text with its result's warnings after it, one paragraph each: what an agent reads over MCP (the CLI says them on stderr). */
export function textWithWarnings(text: string, result: unknown): string {
  const warnings = warningsOf(result);
  return warnings.length ? [text, ...warnings.map((w) => `Warning: ${w.message}`)].join('\n') : text;
}

/** The input of an operation as one zod object (what the core validates against). */
export function inputSchema(op: AnyOperation): z.ZodObject<z.ZodRawShape> {
  return z.object(op.input);
}

/** The input fields a surface takes: all but those it omits. */
export function surfaceInput(op: AnyOperation, surface: 'cli' | 'mcp'): z.ZodRawShape {
  const omit = new Set<string>(op[surface]?.omit ?? []);
  return Object.fromEntries(Object.entries(op.input as z.ZodRawShape).filter(([k]) => !omit.has(k)));
}

/** A flag's name for a field: `allow_secret` and `allowSecret` become `allow-secret`. */
export function flagOf(field: string): string {
  return field.replace(/_/g, '-').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/**
 * The input field each flag of an operation's CLI command stands for (`anchor` → `anchors` where
 * `cli.names` renames it), `allow-secret` → `allow_secret` for a write: how a message that names
 * a flag is turned into another surface's spelling.
 */
export function fieldsByFlag(op: AnyOperation): Map<string, string> {
  const names = (op.cli?.names ?? {}) as Record<string, string>;
  const byFlag = new Map<string, string>(Object.keys(surfaceInput(op, 'cli')).map((f) => [flagOf(names[f] ?? f), f]));
  if (op.write) byFlag.set('allow-secret', 'allow_secret');
  return byFlag;
}
