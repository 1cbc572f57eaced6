import type { CommandModule } from 'yargs';
import type { AnyOperation } from '../operations/operation.ts';
import type { CliIO } from './io.ts';
import { operationCommand } from './operation-command.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- yargs' command modules are typed by their builders
export type Command = CommandModule<any, any>;

/** How a group of commands (`axme decision …`) presents itself: what the operations cannot say. */
export interface GroupHelp {
  /** its help line in `axme --help` */
  describe: string;
  /** its subcommands in the order the help lists them, an alias after its command: also the list a line without one is told */
  words: string[];
  /** what a line without a subcommand is told before that list (default: say what to do) */
  ask?: string;
}

/**
 * The one table of group help: the operations under a first word (their `cli.command`) make the
 * group, this gives it its help line and order. A group missing here still works (its words in
 * the order of OPERATIONS); test/cli/command-tree.test.ts checks every entry against the operations.
 */
export const GROUP_HELP: Readonly<Record<string, GroupHelp>> = {
  decision: {
    describe: 'architectural decisions (D-NNN): add, list, show, amend, supersede, revoke',
    words: ['add', 'list', 'show', 'amend', 'supersede', 'revoke'],
  },
  memory: {
    describe: 'feedback and pattern memories: add, list, show, update, supersede, remove',
    words: ['add', 'list', 'show', 'update', 'supersede', 'remove'],
  },
  backlog: { describe: 'backlog items (B-NNN): add, list, show, update', words: ['add', 'list', 'show', 'update'] },
  question: {
    describe: 'open questions for the user (Q-NNN): ask, list, show, answer, status (applied, archived, open)',
    words: ['ask', 'list', 'show', 'answer', 'status'],
  },
  session: {
    describe: 'agent sessions: begin-close, finalize (one commit), list, show, recover (orphans)',
    words: ['begin-close', 'finalize', 'list', 'show', 'recover'],
  },
  audit: {
    describe: 'audit a session transcript with a model: what the agent forgot to save (`audit <transcript>`), or the log of audits (`audit log`)',
    words: ['log'],
  },
  safety: { describe: 'safety rules enforced by the hooks: show, add, remove, set, reset', words: ['show', 'add', 'remove', 'set', 'reset'] },
  oracle: { describe: 'the oracle pages (stack, structure, patterns, glossary): show, scan', words: ['show', 'scan'] },
  import: {
    describe:
      "import knowledge from another tool: axme-code (an AXME Code .axme-code folder), adr (a folder of architecture decision records), auto-memory (Claude Code's auto memory notes); one commit each",
    words: ['axme-code', 'adr', 'auto-memory'],
    ask: 'say what to import from',
  },
  export: {
    describe: "write the knowledge into another tool: adr (the decisions as a MADR folder), auto-memory (Claude Code's auto memory, MEMORY.md)",
    words: ['adr', 'auto-memory'],
    ask: 'say what to export to',
  },
  models: {
    describe:
      'the local model search ranks by meaning with: pull (download it once, checked), list or status (installed, in use, loads), eval (measure search on your own questions, with and without it)',
    words: ['pull', 'list', 'status', 'eval'],
  },
};

/** "a, b or c" */
function orList(words: string[]): string {
  return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

/**
 * The yargs command of a first word's operations: the operation itself (`axme log`), or the
 * group of them (`axme decision add|list|…`), with a default when one has the first word alone
 * (`axme audit <transcript>` beside `axme audit log`).
 */
export function operationTree(io: CliIO, word: string, ops: readonly AnyOperation[]): Command {
  const own = ops.find((op) => op.cli!.command.length === 1);
  const subcommands = ops.filter((op) => op.cli!.command.length > 1);
  if (own && !subcommands.length) return operationCommand(io, own);
  const last = (op: AnyOperation) => op.cli!.command.at(-1)!;
  const help = GROUP_HELP[word] ?? { describe: `${word}: ${subcommands.map(last).join(', ')}`, words: subcommands.map(last) };
  const rank = (op: AnyOperation) => (help.words.includes(last(op)) ? help.words.indexOf(last(op)) : help.words.length);
  const ordered = [...subcommands].sort((a, b) => rank(a) - rank(b));
  return {
    command: word,
    describe: help.describe,
    builder: (y) => {
      let b = y;
      for (const op of ordered) b = b.command(operationCommand(io, op));
      if (!own) return b.demandCommand(1, `${help.ask ?? 'say what to do'}: ${orList(help.words)}`);
      const run = operationCommand(io, own);
      return b.command({ ...run, command: `$0 ${run.command.split(' ').slice(1).join(' ')}` });
    },
    handler: () => {},
  };
}
