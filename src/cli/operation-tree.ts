import type { CommandModule } from 'yargs';
import type { AnyOperation } from '../operations/operation.ts';
import { TOP_LEVEL_HELP } from './group-help.ts';
import type { CliIO } from './io.ts';
import { operationCommand } from './operation-command.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- yargs' command modules are typed by their builders
export type Command = CommandModule<any, any>;

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
  const help = TOP_LEVEL_HELP[word] ?? { describe: `${word}: ${subcommands.map(last).join(', ')}`, words: subcommands.map(last) };
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
