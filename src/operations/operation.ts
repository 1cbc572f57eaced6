import { z } from 'zod';
import type { KnowledgeBase } from '../knowledge/core/kb.ts';

/**
 * One operation, declared once: its name on each surface, its input and output schemas, its
 * annotations, the core function that does the work and the one human rendering of its result.
 * The CLI command (src/cli/operation-command.ts), the MCP tool (src/mcp/operation-tool.ts) and
 * the reference tables in docs/cli.md and docs/mcp.md (scripts/reference.ts) are all derived from
 * it; a surface keeps only what is truly its own (positional arguments, --stdin, paging).
 */
export interface Operation<S extends z.ZodRawShape = z.ZodRawShape, R = unknown> {
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
  cli: {
    /** the words of the command, e.g. ['memory', 'add'] */
    command: string[];
    /** fields given as positional arguments, in order (`memory remove <slug>`) */
    positional?: Array<keyof S & string>;
    /** fields that may be read from standard input with `--stdin <field>` */
    stdin?: Array<keyof S & string>;
  } | null;
  mcp: { tool: string } | null;
  /** the work: the core function (which checks its input once, at the boundary); returns data */
  run(kb: KnowledgeBase, input: z.input<z.ZodObject<S>>, opts?: { allowSecret?: boolean }): Promise<R>;
  /** the result as JSON (what `output` describes) */
  json(result: R): Record<string, unknown>;
  /** the result for a person or an agent: the same text on every surface */
  text(result: R): string;
}

/** Any declared operation, as the surfaces and the docs generator take it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the surfaces only pass input through to run()
export type AnyOperation = Operation<any, any>;

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
export function defineOperation<S extends z.ZodRawShape, R>(op: Operation<S, R>): Operation<S, R> {
  return op;
}

/** The input of an operation as one zod object (what the core validates against). */
export function inputSchema(op: AnyOperation): z.ZodObject<z.ZodRawShape> {
  return z.object(op.input);
}
