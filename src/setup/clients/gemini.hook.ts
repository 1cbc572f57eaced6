import { resolve } from 'node:path';
import { shellJoin, shellQuote } from '../../model/shell-quote.ts';
import type { ToolCall } from '../../safety/evaluate.ts';
import { GEMINI_SETTINGS, geminiCompressesNow } from './gemini-compress.ts';
import { type HookPayload, PayloadError } from './hook-payload.ts';
import { type CallFacts, type ClientHookPart, cannotAsk, claudeContext, commonFields, line, obj, oneCall, shellCall, str } from './hook-protocol.ts';
import { namedPaths, readManyTargets } from './read-many.ts';

/**
 * Gemini CLI, for the hook process: its own tool names and argument names, mapped to the common
 * vocabulary. `BeforeTool` is answered with `{"decision":"deny","reason"}`; `{}` lets the call go on
 * to Gemini's own confirmation; SessionStart takes `hookSpecificOutput.additionalContext`. Three
 * things of Gemini CLI 0.61's the answers make up for:
 *
 * - it names MCP tools `mcp_<server>_<tool>` (with `mcp_context` beside them): mapped onto the
 *   common `mcp__<server>__<tool>`, so the rules about axme's own tools hold for it;
 * - it runs the agent's shell commands with every git hook switched off (a `GIT_CONFIG_*` override
 *   of `core.hooksPath` to ''): a command that may fire git hooks gets one more override, setting it back
 *   to where axme's git hooks are (`passChanged`: Gemini takes `hookSpecificOutput.tool_input`);
 * - it HTML-escapes `<` and `>` in a hook's context: the context carries look-alikes instead.
 */
export const geminiHook = {
  id: 'gemini',
  label: 'Gemini CLI',
  // the hooks (and `hooks.disabled`) and the MCP server share the one settings file
  guarded: { project: [GEMINI_SETTINGS], home: [GEMINI_SETTINGS] },
  protocol: {
    payload: (o) => {
      const base = commonFields(o);
      const tool = str(o.tool_name);
      const input = obj(o.tool_input);
      return oneCall(base, tool, input, tool ? geminiCalls(tool, input, base.cwd ?? process.cwd(), obj(o.mcp_context)) : undefined);
    },
    deny: (reason) => line({ decision: 'deny', reason }),
    ask: (reason) => line({ decision: 'deny', reason: cannotAsk('Gemini CLI')(reason) }),
    pass: line({}),
    passChanged: withGitHooks,
    context: (text) => claudeContext(withoutAngleBrackets(text)),
    // BeforeAgent's context is added to the prompt; BeforeTool ignores additionalContext (no toolContext)
    promptContext: (text) => line({ hookSpecificOutput: { hookEventName: 'BeforeAgent', additionalContext: withoutAngleBrackets(text) } }),
    sandbox: 'rewrite',
    // PreCompress comes before every model call, most of them compressing nothing
    compactsNow: geminiCompressesNow,
  },
} as const satisfies ClientHookPart;

/**
 * One Gemini tool call as the calls the engine knows. `cwd` is where relative paths start;
 * `mcp` is the payload's `mcp_context` (empty for a built-in tool).
 */
function geminiCalls(tool: string, input: Record<string, unknown>, cwd: string, mcp: Record<string, unknown>): ToolCall[] {
  const path = (...keys: string[]) => keys.map((k) => input[k]).find((v): v is string => typeof v === 'string' && v !== '');
  const dir = path('dir_path', 'directory', 'path');
  switch (tool) {
    case 'run_shell_command': {
      // a command run in a sub-folder: the engine reads `cd` like the shell does
      return [shellCall(input.command, dir)];
    }
    case 'write_file':
      return [{ tool: 'Write', input: { file_path: path('file_path', 'absolute_path', 'path') ?? '' } }];
    case 'replace':
    case 'edit':
      return [{ tool: 'Edit', input: { file_path: path('file_path', 'absolute_path', 'path') ?? '' } }];
    case 'read_file':
      return [{ tool: 'Read', input: { file_path: path('file_path', 'absolute_path', 'path') ?? '' } }];
    case 'read_many_files': {
      const list = [input.paths, input.include]
        .flatMap((v) => (Array.isArray(v) ? v : typeof v === 'string' ? [v] : []))
        .filter((v): v is string => typeof v === 'string' && v !== '');
      if (!list.length) throw new PayloadError('the read_many_files call names no paths');
      // it reads file contents: every file its paths, folders and globs reach on disk is checked as a Read
      const base = dir ? resolve(cwd, dir) : cwd;
      const files = readManyTargets(list, base, { defaultExcludes: input.useDefaultExcludes !== false });
      if (files === null)
        throw new PayloadError('the read_many_files call reaches more than 20000 files, too many to check; name the files, or a narrower folder or pattern');
      // reaching no file now, each path it names is checked as it is written, each of a pattern's {a,b} alternatives apart
      // (a credential folder's pattern, or `*.{pem,txt}`, is refused for what it names)
      const read = (files.length ? files : namedPaths(list)).map((p) => (p.startsWith('/') || p.startsWith('~') ? p : resolve(base, p)));
      return read.map((file_path) => ({ tool: 'Read', input: { file_path } }));
    }
    case 'glob':
      return [{ tool: 'Glob', input: { pattern: input.pattern ?? '', ...(dir ? { path: dir } : {}) } }];
    case 'search_file_content':
    case 'grep_search':
    case 'grep': {
      const include = path('include_pattern', 'include');
      return [{ tool: 'Grep', input: { ...(dir ? { path: dir } : {}), ...(include ? { glob: include } : {}) } }];
    }
    case 'list_directory':
    case 'ls':
      return [{ tool: 'LS', input: dir ? { path: dir } : {} }];
    default:
      return [{ tool: mcpToolName(tool, mcp) ?? tool, input }];
  }
}

/**
 * An MCP tool in the common vocabulary, `mcp__<server>__<tool>`: from `mcp_context` when Gemini
 * sends it (the server's and the tool's own names), else from Gemini's `mcp_<server>_<tool>` (a
 * server name holds no `_` there, as Gemini reads it); null for a tool that is not an MCP tool.
 */
export function mcpToolName(tool: string, mcp: Record<string, unknown>): string | null {
  const server = str(mcp.server_name);
  const name = str(mcp.tool_name);
  if (server && name) return `mcp__${server}__${name}`;
  const m = /^mcp_([^_]+)_(.+)$/.exec(tool);
  return m ? `mcp__${m[1]}__${m[2]}` : null;
}

/**
 * Programs that never run git (Gemini CLI's own read-only commands, which it may approve without
 * asking), and git's subcommands that fire none of axme's git hooks (commit-msg, post-commit,
 * pre-push, post-rewrite). A command line made of these alone is left as it is.
 */
const NO_GIT = new Set([
  'cat',
  'cd',
  'cut',
  'echo',
  'expr',
  'false',
  'grep',
  'head',
  'id',
  'ls',
  'nl',
  'paste',
  'pwd',
  'rev',
  'seq',
  'stat',
  'tail',
  'tr',
  'true',
  'uname',
  'uniq',
  'wc',
  'which',
  'whoami',
  'numfmt',
  'tac',
  'sort',
  'diff',
]);
const GIT_WITHOUT_HOOKS = new Set([
  'status',
  'log',
  'diff',
  'show',
  'rev-parse',
  'ls-files',
  'ls-tree',
  'blame',
  'grep',
  'describe',
  'shortlog',
  'reflog',
  'cat-file',
  'branch',
  'remote',
  'config',
  'fetch',
  'add',
  'version',
  'help',
  'check-ignore',
  'for-each-ref',
  'show-ref',
  'name-rev',
]);

/**
 * Whether a command line may run git in a way that fires its hooks: any command but one made only
 * of NO_GIT programs and hook-free git subcommands. A script, a build tool or an interpreter may
 * commit (`sh scripts/release.sh`), so it counts; so does anything this reading is not sure of
 * (substitutions, subshells, quoted program names).
 */
export function mayRunGitHooks(command: string): boolean {
  const parts = commandParts(command);
  if (parts === null) return true;
  return parts.some((words) => {
    const i = words.findIndex((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
    if (i < 0) return false;
    const program = words[i]!;
    if (program !== 'git') return !NO_GIT.has(program);
    // git's own options before the subcommand (`-C <dir>`, `-c <key=value>`, `--no-pager`)
    let j = i + 1;
    while (j < words.length && words[j]!.startsWith('-')) j += words[j] === '-C' || words[j] === '-c' ? 2 : 1;
    return !GIT_WITHOUT_HOOKS.has(words[j] ?? '');
  });
}

/**
 * The simple commands of a command line as their words (split at unquoted `;`, `&`, `|` and new
 * lines; quotes kept in the words); null for what is not read here: `$(`, backticks, parentheses,
 * a quote left open, a quoted or backslashed program name.
 */
function commandParts(command: string): string[][] | null {
  const parts: string[][] = [];
  let words: string[] = [];
  let word = '';
  let quote: '"' | "'" | null = null;
  const endWord = () => {
    if (word) words.push(word);
    word = '';
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (quote === '"' && (c === '`' || (c === '$' && command[i + 1] === '('))) return null;
      word += c;
      continue;
    }
    if (c === "'" || c === '"') {
      // a program named in quotes is not read here
      if (!words.length && !word) return null;
      quote = c;
      word += c;
    } else if (c === '`' || c === '(' || c === ')' || c === '\\' || c === '{' || c === '}') return null;
    else if (c === ';' || c === '&' || c === '|' || c === '\n') {
      endWord();
      if (words.length) parts.push(words);
      words = [];
    } else if (c === ' ' || c === '\t') endWord();
    else word += c;
  }
  if (quote) return null;
  endWord();
  if (words.length) parts.push(words);
  return parts;
}

/**
 * A `run_shell_command` that may fire git hooks, let through with them on again: Gemini CLI runs
 * the command with `GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_<n>`/`GIT_CONFIG_VALUE_<n>` overrides that
 * set `core.hooksPath` to '' (and `GIT_CONFIG_GLOBAL=/dev/null`), so no git hook — axme's marker
 * check, its protected branches — would run for it, not even for a script's commit the safety hook
 * cannot see. The command is handed back with one more override after Gemini's, setting
 * `core.hooksPath` to the folder axme's git hooks are in for the repository the call runs in; the
 * original command follows unchanged (its own `cd`, output and exit status are its own). Null (no
 * change) for a command that cannot run git's hooks (mayRunGitHooks: left for Gemini to approve as
 * it would), or where axme's git hooks are not installed.
 */
async function withGitHooks(p: HookPayload, facts: CallFacts): Promise<string | null> {
  // on Windows Gemini runs commands with PowerShell, and git hooks through a shell of git's own: left alone
  if (p.tool_name !== 'run_shell_command' || process.platform === 'win32') return null;
  const command = p.tool_input.command;
  if (typeof command !== 'string') return null;
  const sub = [p.tool_input.dir_path, p.tool_input.directory].find((v): v is string => typeof v === 'string' && v !== '');
  const dir = resolve(p.cwd ?? process.cwd(), sub ?? '.');
  const hooks = mayRunGitHooks(command) ? await facts.axmeGitHooksPath(dir) : null;
  const withHooks = hooks ? gitHooksOn(command, hooks) : command;
  // then the kernel sandbox around it all (docs/safety.md): null when it is off here
  const changed = (await facts.sandboxed(withHooks, dir)) ?? withHooks;
  if (changed === command) return null;
  // the whole input again: one path of Gemini's rebuilds the call from what the hook returns alone
  return line({ hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: { ...p.tool_input, command: changed } } });
}

/**
 * `command` run with `core.hooksPath` set to `hooks`: one `GIT_CONFIG_*` override appended after
 * any there are, for bash (Gemini CLI runs every shell command with `bash -c` outside Windows).
 * The count goes up with `let`, not `$(( ))`: Gemini refuses a command holding `$(`, backticks,
 * `<(` or `>(` outside single quotes (its command substitution check), a changed one included.
 */
export function gitHooksOn(command: string, hooks: string): string {
  const n = '${GIT_CONFIG_COUNT:-0}';
  return `export "GIT_CONFIG_KEY_${n}=core.hooksPath" "GIT_CONFIG_VALUE_${n}="${shellQuote(hooks)}; let "GIT_CONFIG_COUNT=${n}+1"; export GIT_CONFIG_COUNT; ${command}`;
}

/** The context with look-alikes of `<` and `>` (‹ ›), which Gemini would hand the model as `&lt;` and `&gt;`. */
export function withoutAngleBrackets(text: string): string {
  return text.replace(/</g, '\u2039').replace(/>/g, '\u203a');
}
