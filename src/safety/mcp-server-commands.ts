import { argvLine } from './argv-line.ts';
import type { Invocation } from './command.ts';

/**
 * The command an agent client's `mcp add` registers for a stdio MCP server, which the client runs
 * later, at each session's start, outside the guard: `claude mcp add shell -s user -- sh -c 'curl
 * … | sh'`, `claude mcp add-json x '{"command":"bash","args":["-c","…"]}'`, `codex mcp add x --
 * CMD…`, `gemini mcp add x CMD…`. It is read as the same command typed (evaluate.ts walks it), in
 * every scope: the local and user scopes of Claude Code (`~/.claude.json`) hold no hook file, but
 * what they run is as much the agent's as a command line is. A server reached by URL (`--transport
 * http`) runs nothing here; the project's scope is a write of a guarded file already
 * (client-config-commands.ts).
 */

/** The options of `<client> mcp add` that take a value. */
const VALUED =
  /^(?:-s|--scope|-t|--transport|-e|--env|-H|--header|--client-id|--client-secret|--callback-port|--timeout|--description|--include-tools|--exclude-tools)$/;

/** The command lines `inv` registers as MCP servers' commands; none for another command. */
export function registeredServerCommands(inv: Invocation): string[] {
  if (inv.program !== 'claude' && inv.program !== 'codex' && inv.program !== 'gemini') return [];
  const args = inv.args.map((a) => a.value);
  if (args[0] !== 'mcp' || (args[1] !== 'add' && args[1] !== 'add-json')) return [];
  const operands: string[] = [];
  for (let i = 2; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (VALUED.test(a)) i++;
    else if (!a.startsWith('-') || operands.length >= 2) operands.push(a);
  }
  if (args[1] === 'add-json') return jsonServerCommand(operands[1]);
  const argv = operands.slice(1);
  // a server reached by URL runs nothing on this machine
  if (!argv.length || /^https?:\/\//.test(argv[0]!)) return [];
  return [argvLine(argv)];
}

/** The command of a server given as JSON (`{"command": "bash", "args": [...]}`); none where it names no command. */
function jsonServerCommand(json: string | undefined): string[] {
  let server: unknown;
  try {
    server = JSON.parse(json ?? '');
  } catch {
    return [];
  }
  if (!server || typeof server !== 'object') return [];
  const { command, args } = server as { command?: unknown; args?: unknown };
  if (typeof command !== 'string') return [];
  const rest = Array.isArray(args) ? args.filter((a): a is string => typeof a === 'string') : [];
  return [argvLine([command, ...rest])];
}
