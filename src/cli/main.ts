import yargs from 'yargs';
import { z } from 'zod';
import { AxmeError, USAGE_CODES } from '../model/errors.ts';
import { invalidInput } from '../model/validate.ts';
import { agentCommands } from './commands/agent.ts';
import { backlogCommand } from './commands/backlog.ts';
import { codeCommands } from './commands/code.ts';
import { decisionCommand } from './commands/decision.ts';
import { memoryCommand } from './commands/memory.ts';
import { questionCommand } from './commands/question.ts';
import { reviewCommands } from './commands/review.ts';
import { sessionCommand } from './commands/session.ts';
import { syncCommand } from './commands/sync.ts';
import { workspaceCommand } from './commands/workspace.ts';
import { safetyCommand } from './commands/safety.ts';
import { setupCommands } from './commands/setup.ts';
import { storeCommands } from './commands/store.ts';
import { SilentExit, type CliIO } from './io.ts';

declare const AXME_VERSION: string | undefined;

/** A command line yargs could not parse (unknown command, bad flag value). */
class UsageError extends Error {}

/**
 * Runs one axme command line. Returns the exit code: 0 ok, 1 failure, 2 usage or configuration
 * error. The only place errors become exit codes and messages.
 */
export async function run(argv: string[], io: CliIO): Promise<number> {
  const json = argv.includes('--json');
  const parser = yargs()
    .scriptName('axme')
    .usage('axme <command>\n\nGit-native project knowledge for coding agents, kept on refs/memory/main.')
    .option('C', { type: 'string', describe: 'run as if started in this folder', global: true })
    .option('json', { type: 'boolean', describe: 'print the result as JSON', global: true })
    .command(storeCommands(io))
    .command(decisionCommand(io))
    .command(memoryCommand(io))
    .command(backlogCommand(io))
    .command(questionCommand(io))
    .command(sessionCommand(io))
    .command(syncCommand(io))
    .command(reviewCommands(io))
    .command(workspaceCommand(io))
    .command(safetyCommand(io))
    .command(agentCommands(io))
    .command(setupCommands(io))
    .command(codeCommands(io))
    .demandCommand(1, 'say which command to run (axme --help lists them)')
    .recommendCommands()
    .strict()
    .parserConfiguration({ 'dot-notation': false })
    .version(typeof AXME_VERSION === 'string' ? AXME_VERSION : 'dev')
    .help()
    .wrap(Math.min(110, process.stdout.columns || 100))
    .exitProcess(false)
    .fail((msg, err) => {
      // yargs reports its own usage problems as a message; errors from commands come as `err`
      throw err ?? new UsageError(msg);
    });
  let helpShown = false;
  parser.showHelpOnFail(false);
  try {
    await parser.parseAsync(argv, {}, (err, _argv, output) => {
      if (output && !err) {
        helpShown = true;
        io.stdout.write(`${output}\n`);
      }
    });
    return 0;
  } catch (err) {
    if (helpShown) return 0;
    return report(io, err, json);
  }
}

/** Prints a failed command's error (text or --json) on stderr; returns its exit code. */
export function report(io: CliIO, err: unknown, json: boolean): number {
  if (err instanceof SilentExit) return err.code;
  let code: number;
  let payload: { code: string; message: string; data?: Record<string, unknown> };
  if (err instanceof z.ZodError) {
    // input that reached a schema unchecked: still the user's input (exit 2), said in words; the
    // check belongs at the boundary (parseInput), so with AXME_DEBUG it is reported as the bug it is
    const e = invalidInput(err, 'input');
    code = 2;
    payload = { code: e.code, message: e.message, data: e.data };
  } else if (err instanceof AxmeError) {
    code = USAGE_CODES.has(err.code) ? 2 : 1;
    payload = { code: err.code, message: err.message, data: err.data };
  } else if (err instanceof UsageError) {
    code = 2;
    const dash = /^Unknown arguments?:/.test(err.message) ? '; a value that starts with "-" must be attached (--title="-x") or read with --stdin' : '';
    payload = { code: 'USAGE', message: `${err.message}${dash} (see axme --help, or axme <command> --help)` };
  } else {
    code = 1;
    const e = err instanceof Error ? err : new Error(String(err));
    payload = { code: 'INTERNAL', message: `internal error: ${e.message}${io.env.AXME_DEBUG ? `\n${e.stack}` : ' (set AXME_DEBUG=1 for the stack trace)'}` };
  }
  io.stderr.write(json ? `${JSON.stringify({ error: payload })}\n` : `axme: ${payload.message}\n`);
  if (err instanceof z.ZodError && io.env.AXME_DEBUG) io.stderr.write(`axme: a bug: this input should have been checked before it reached the core (parseInput in src/model/validate.ts); please report it\n${err.stack}\n`);
  return code;
}
