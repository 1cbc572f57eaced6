import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { writeFileAtomicSync } from '../store/atomic-file.ts';
import { delimiter, join } from 'node:path';
import { CLAUDE_MD_END, CLAUDE_MD_START } from '../model/agent-section.ts';
import { AxmeError } from '../model/errors.ts';
import { locateRepo } from '../store/locate.ts';
import { claudeSettings } from './paths.ts';

/**
 * The files that connect Claude Code to axme in a project: hook entries in
 * `.claude/settings.json`, the MCP server in `.mcp.json`, and a short section in `CLAUDE.md`.
 * Each is merged into what is there — the user's own hooks, servers and text are kept — and
 * writing twice changes nothing.
 */

/** The Claude Code events axme hooks into, with the tools they match and their time limits. */
export const HOOK_ENTRIES = [
  { event: 'PreToolUse', hook: 'pre-tool-use', matcher: null, timeout: 10 },
  { event: 'PostToolUse', hook: 'post-tool-use', matcher: 'Edit|Write|MultiEdit|NotebookEdit', timeout: 10 },
  { event: 'SessionStart', hook: 'session-start', matcher: null, timeout: 30 },
  { event: 'SessionEnd', hook: 'session-end', matcher: null, timeout: 10 },
] as const;

// axme's own hook commands: the program is `axme` or `…/axme.cjs` (quoted or not), then `hook <event>`
const AXME_HOOK_RE = /(?:^|[\s'"/])axme(?:\.cjs)?['"]?\s+hook\s+(pre-tool-use|post-tool-use|session-start|session-end)(?:\s*$|\s+\|\|)/;
/**
 * Appended to the pre-tool-use command: if axme cannot start (not installed here, moved), the
 * shell's error would be a non-blocking failure and the call would run. Exit 2 blocks it instead.
 */
export const FAIL_CLOSED = "|| { echo 'axme: the safety hook could not run (is axme installed? run axme doctor); the call is blocked' >&2; exit 2; }";

/** How the agent harness starts axme: `axme` when it is on PATH, else node and the script by absolute path. */
export function axmeCommand(opts: { execPath: string; script: string; env: NodeJS.ProcessEnv }): string[] {
  const mine = safeRealpath(opts.script);
  for (const dir of (opts.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, 'axme');
    if (mine && existsSync(candidate) && safeRealpath(candidate) === mine) return ['axme'];
  }
  // GUI-launched clients may not inherit the shell's PATH: absolute paths always work
  return [opts.execPath, mine ?? opts.script];
}

function safeRealpath(p: string): string | null {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
}

/** Quotes an argument for a POSIX shell when it needs quoting. */
export function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

type Json = Record<string, unknown>;
interface HookGroup {
  matcher?: string;
  hooks: Array<{ type: string; command?: string; timeout?: number }>;
}

/** Whether a hook command is one of axme's (any install path). */
export function isAxmeHookCommand(command: unknown): boolean {
  return typeof command === 'string' && AXME_HOOK_RE.test(command);
}

/**
 * Merges axme's hook entries into a settings object: axme's old entries (any path) are removed
 * wherever they are, the canonical group goes where the first one was (or at the end), and
 * every foreign hook stays as it was.
 */
export function mergeClaudeSettings(settings: Json, command: string[], path = '.claude/settings.json'): Json {
  const prefix = command.map(shellQuote).join(' ');
  // a value of the wrong shape is the user's to fix: replacing it would lose what they meant
  if (settings.hooks !== undefined && !isObject(settings.hooks)) throw shapeError(path, '"hooks" must be an object of events');
  const hooks = isObject(settings.hooks) ? { ...settings.hooks } : {};
  for (const entry of HOOK_ENTRIES) {
    if (hooks[entry.event] !== undefined && !Array.isArray(hooks[entry.event])) throw shapeError(path, `"hooks.${entry.event}" must be a list`);
    const groups = Array.isArray(hooks[entry.event]) ? (hooks[entry.event] as HookGroup[]) : [];
    let at = -1;
    const kept: HookGroup[] = [];
    for (const g of groups) {
      if (!isObject(g) || !Array.isArray(g.hooks)) {
        kept.push(g);
        continue;
      }
      const foreign = g.hooks.filter((h) => !isAxmeHookCommand(h?.command));
      if (foreign.length) kept.push(foreign.length === g.hooks.length ? g : { ...g, hooks: foreign });
      // ours goes where the old one was (after the foreign hooks that shared its group)
      if (foreign.length !== g.hooks.length && at < 0) at = kept.length;
    }
    const command = `${prefix} hook ${entry.hook}${entry.hook === 'pre-tool-use' ? ` ${FAIL_CLOSED}` : ''}`;
    const ours: HookGroup = { ...(entry.matcher ? { matcher: entry.matcher } : {}), hooks: [{ type: 'command', command, timeout: entry.timeout }] };
    kept.splice(at < 0 ? kept.length : at, 0, ours);
    hooks[entry.event] = kept;
  }
  return { ...settings, hooks };
}

/** Adds (or updates) the `axme` server in an `.mcp.json` object; other servers stay. */
export function mergeMcpConfig(config: Json, command: string[], path = '.mcp.json'): Json {
  if (config.mcpServers !== undefined && !isObject(config.mcpServers)) throw shapeError(path, '"mcpServers" must be an object');
  const servers = isObject(config.mcpServers) ? { ...config.mcpServers } : {};
  const previous = isObject(servers.axme) ? servers.axme : {};
  servers.axme = { ...previous, command: command[0]!, args: [...command.slice(1), 'serve'] };
  return { ...config, mcpServers: servers };
}

/** The CLAUDE.md section: how an agent works with axme in this repository. */
export function claudeMdSection(): string {
  return [
    CLAUDE_MD_START,
    '## Project knowledge (axme)',
    '',
    'This repository keeps decisions, memories, safety rules, backlog and handoffs on `refs/memory/main` through axme (MCP server `axme`).',
    '',
    '- Start from the context the SessionStart hook gives you; call `axme_context` for more.',
    '- Save architectural decisions (`axme_save_decision`) and feedback or patterns (`axme_save_memory`) as you learn them; search before asking (`axme_search_kb`).',
    '- Safety rules are enforced on every tool call. A denied command says why: do not work around it — change approach or ask the user.',
    '- End every `git commit` and `git push` command with `#!axme pr=<N|none> repo=<owner>/<name>` (pr=none when there is no pull request).',
    '- Before you stop, close the session: `axme_begin_close`, then `axme_finalize_close`.',
    CLAUDE_MD_END,
  ].join('\n');
}

/**
 * Puts the axme section into CLAUDE.md text: replaced in place when present, else appended. The
 * markers count only on lines of their own; one without the other is refused (CONFIG) rather
 * than guessed at, since guessing could delete the user's text.
 */
export function mergeClaudeMd(text: string | null, path = 'CLAUDE.md'): string {
  const section = claudeMdSection();
  if (text === null || text.trim() === '') return `${section}\n`;
  const lines = text.split('\n');
  const starts = lines.flatMap((l, i) => (l.trim() === CLAUDE_MD_START ? [i] : []));
  const ends = lines.flatMap((l, i) => (l.trim() === CLAUDE_MD_END ? [i] : []));
  if (!starts.length && !ends.length) return `${text.replace(/\n*$/, '')}\n\n${section}\n`;
  if (starts.length !== 1 || ends.length !== 1 || ends[0]! < starts[0]!) {
    throw new AxmeError('CONFIG', `${path} has ${starts.length} "${CLAUDE_MD_START}" and ${ends.length} "${CLAUDE_MD_END}" lines: keep exactly one of each around the axme section (or remove both), then run the command again; nothing was changed`, { path });
  }
  return [...lines.slice(0, starts[0]), section, ...lines.slice(ends[0]! + 1)].join('\n');
}

export interface AgentFileChange {
  path: string;
  action: 'created' | 'updated' | 'unchanged';
}

/** The three files with their merged text, read and checked but not written yet. */
export interface AgentFilesPlan {
  files: Array<{ path: string; previous: { text: string } | null; text: string }>;
}

/**
 * Reads, parses and merges the three files under `root` (the working tree) without writing any:
 * a broken one stops here (CONFIG), before init has changed anything.
 */
export function planAgentFiles(root: string, command: string[]): AgentFilesPlan {
  const settingsPath = claudeSettings(root).shared;
  const mcpPath = join(root, '.mcp.json');
  const mdPath = join(root, 'CLAUDE.md');
  const settings = readJsonFile(settingsPath);
  const mcp = readJsonFile(mcpPath);
  const md = readTextFile(mdPath);
  return {
    files: [
      { path: settingsPath, previous: settings, text: renderJson(mergeClaudeSettings(settings?.value ?? {}, command, settingsPath), settings?.text) },
      { path: mcpPath, previous: mcp, text: renderJson(mergeMcpConfig(mcp?.value ?? {}, command, mcpPath), mcp?.text) },
      { path: mdPath, previous: md === null ? null : { text: md }, text: mergeClaudeMd(md, mdPath) },
    ],
  };
}

/** Writes what planAgentFiles merged (a file whose text is already right is left alone). */
export function writeAgentFiles(plan: AgentFilesPlan): AgentFileChange[] {
  return plan.files.map((f) => writeIfChanged(f.path, f.previous, f.text));
}

/** The working tree agent files belong in; null for a bare repository or outside one. */
export function agentFilesRoot(cwd: string, env: NodeJS.ProcessEnv): string | null {
  return locateRepo(cwd, env)?.worktree ?? null;
}

/** Reads a JSON object file; null when absent; CONFIG error naming the file when it is broken. */
export function readJsonFile(path: string): { text: string; value: Json } | null {
  const text = readTextFile(path);
  if (text === null) return null;
  let value: unknown;
  try {
    value = text.trim() === '' ? {} : JSON.parse(text);
  } catch (err) {
    throw new AxmeError('CONFIG', `${path} is not valid JSON (${(err as Error).message}): fix it or move it away, then run the command again; nothing was changed`, { path });
  }
  if (!isObject(value)) throw new AxmeError('CONFIG', `${path} must hold a JSON object: fix it or move it away, then run the command again; nothing was changed`, { path });
  return { text, value };
}

function readTextFile(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new AxmeError('CONFIG', `cannot read ${path}: ${(err as Error).message}`, { path });
  }
}

/** JSON in the file's own indentation (two spaces for a new file), ending with a newline. */
function renderJson(value: Json, previous: string | undefined): string {
  const indent = previous ? (/\n([ \t]+)"/.exec(previous)?.[1] ?? '  ') : '  ';
  return `${JSON.stringify(value, null, indent)}\n`;
}

function writeIfChanged(path: string, previous: { text: string } | null, text: string): AgentFileChange {
  if (previous?.text === text) return { path, action: 'unchanged' };
  writeFileAtomicSync(path, text);
  return { path, action: previous ? 'updated' : 'created' };
}

function shapeError(path: string, what: string): AxmeError {
  return new AxmeError('CONFIG', `${path}: ${what}: fix it, then run the command again; nothing was changed`, { path });
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
