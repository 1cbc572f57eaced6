import { join } from 'node:path';
import { CLAUDE_MD_END, CLAUDE_MD_START } from '../model/agent-section.ts';
import type { AxmeSelf } from '../model/axme-self.ts';
import { AxmeError } from '../model/errors.ts';
import { HOOK_EVENT_NAMES } from '../model/hook-names.ts';
import { writeFileAtomicSync } from '../store/atomic-file.ts';
import { locateRepo } from '../store/locate.ts';
import { CLAUDE_SHELL_PREFIX } from './clients/claude-code.hook.ts';
import { claudeCode } from './clients/claude-code.ts';
import { mergeJsonServer } from './clients/json-mcp.ts';
import { type RemoteServer, serverEntry } from './clients/remote.ts';
import { isObject, type Json, readJsonFile, readTextFile, renderJson } from './json-file.ts';
import { hookCommand, isPortableAxme } from './launch.ts';
import { claudeSettings } from './paths.ts';

export { readJsonFile };

/**
 * The files that connect Claude Code, the default client, to axme in a project (what its adapter,
 * clients/claude-code.ts, names): hook entries in `.claude/settings.json`, the MCP server in
 * `.mcp.json`, and a short section in `CLAUDE.md`. Each is merged into what is there — the user's
 * own hooks, servers and text are kept — and writing twice changes nothing.
 */

/** The Claude Code events axme hooks into, with the tools they match and their time limits. */
const CLAUDE_HOOKS = claudeCode.hooks;

// axme's hook commands of earlier versions: the program is `axme` or `…/axme.cjs` (quoted or not), then `hook <event>`
const EVENTS = HOOK_EVENT_NAMES.join('|');
const AXME_HOOK_RE = new RegExp(`(?:^|[\\s'"/])axme(?:\\.cjs)?['"]?\\s+hook\\s+(${EVENTS})(?:\\s*$|\\s+\\|\\|)`);
// today's (launch.ts): the found axme (`"$a"`), then `hook <event>`
const PORTABLE_HOOK_RE = new RegExp(`"\\$a" hook (${EVENTS})\\b`);

interface HookGroup {
  matcher?: string;
  hooks: Array<{ type: string; command?: string; timeout?: number }>;
}

/** Whether a hook command is one of axme's (today's portable form, or an earlier one with a path). */
export function isAxmeHookCommand(command: unknown): boolean {
  return typeof command === 'string' && ((isPortableAxme(command) && PORTABLE_HOOK_RE.test(command)) || AXME_HOOK_RE.test(command));
}

/**
 * Merges axme's hook entries into a settings object: axme's old entries (any path) are removed
 * wherever they are, the canonical group goes where the first one was (or at the end), and
 * every foreign hook stays as it was.
 */
export function mergeClaudeSettings(settings: Json, path = '.claude/settings.json'): Json {
  // a value of the wrong shape is the user's to fix: replacing it would lose what they meant
  if (settings.hooks !== undefined && !isObject(settings.hooks)) throw shapeError(path, '"hooks" must be an object of events');
  const hooks = isObject(settings.hooks) ? { ...settings.hooks } : {};
  for (const entry of CLAUDE_HOOKS.events) {
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
    const ours = CLAUDE_HOOKS.layout.entry(hookCommand(entry.hook), entry) as unknown as HookGroup;
    kept.splice(at < 0 ? kept.length : at, 0, ours);
    hooks[entry.event] = kept;
  }
  return { ...settings, hooks };
}

/**
 * `axme init --local`: this machine's axme by absolute path, in the personal settings file Claude
 * Code keeps out of git (`.claude/settings.local.json`, its `env`): the portable commands of the
 * shared files then run this node and this script (launch.ts). For a client started without the
 * shell's PATH. Other keys and variables stay.
 */
export function mergeLocalSettings(settings: Json, local: AxmeSelf | null, path = '.claude/settings.local.json', sandboxShell: string | null = null): Json {
  if (settings.env !== undefined && !isObject(settings.env)) throw shapeError(path, '"env" must be an object of variables');
  return {
    ...settings,
    env: {
      ...(isObject(settings.env) ? settings.env : {}),
      ...(local ? { AXME_BIN: local.script, AXME_NODE: local.execPath } : {}),
      // Claude Code runs every Bash command through this script: the kernel sandbox (setup/sandbox.ts)
      ...(sandboxShell ? { [CLAUDE_SHELL_PREFIX]: sandboxShell } : {}),
    },
  };
}

/** Claude Code's variable naming a program every Bash command runs through (the command string its one argument). */

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
  const at = sectionLines(lines, path);
  if (!at) return `${text.replace(/\n*$/, '')}\n\n${section}\n`;
  return [...lines.slice(0, at.start), section, ...lines.slice(at.end + 1)].join('\n');
}

/**
 * Where the axme section is among a file's lines (its marker lines), or null when it has none.
 * The markers count only on lines of their own; one without the other, or several, is refused
 * (CONFIG) rather than guessed at, since guessing could delete the user's text.
 */
export function sectionLines(lines: string[], path: string): { start: number; end: number } | null {
  const starts = lines.flatMap((l, i) => (l.trim() === CLAUDE_MD_START ? [i] : []));
  const ends = lines.flatMap((l, i) => (l.trim() === CLAUDE_MD_END ? [i] : []));
  if (!starts.length && !ends.length) return null;
  if (starts.length !== 1 || ends.length !== 1 || ends[0]! < starts[0]!) {
    throw new AxmeError(
      'CONFIG',
      `${path} has ${starts.length} "${CLAUDE_MD_START}" and ${ends.length} "${CLAUDE_MD_END}" lines: keep exactly one of each around the axme section (or remove both), then run the command again; nothing was changed`,
      { path },
    );
  }
  return { start: starts[0]!, end: ends[0]! };
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
 * Reads, parses and merges the three files under `root` (the working tree) without writing any —
 * and with `local`, the personal settings file too: a broken one stops here (CONFIG), before
 * init has changed anything.
 */
export function planAgentFiles(root: string, local?: AxmeSelf | null, remote?: RemoteServer, sandboxShell: string | null = null): AgentFilesPlan {
  const { shared: settingsPath, local: localPath } = claudeSettings(root);
  const mcpPath = join(root, claudeCode.mcp.file);
  const mdPath = join(root, claudeCode.instructions.file);
  const settings = readJsonFile(settingsPath);
  const mcp = readJsonFile(mcpPath);
  const md = readTextFile(mdPath);
  const files: AgentFilesPlan['files'] = [
    { path: settingsPath, previous: settings, text: renderJson(mergeClaudeSettings(settings?.value ?? {}, settingsPath), settings?.text) },
    { path: mcpPath, previous: mcp, text: mergeJsonServer(mcp?.text ?? null, claudeCode.mcp.format, serverEntry(claudeCode.mcp, remote), mcpPath) },
    { path: mdPath, previous: md === null ? null : { text: md }, text: mergeClaudeMd(md, mdPath) },
  ];
  if (local || sandboxShell) {
    const personal = readJsonFile(localPath);
    files.push({
      path: localPath,
      previous: personal,
      text: renderJson(mergeLocalSettings(personal?.value ?? {}, local ?? null, localPath, sandboxShell), personal?.text),
    });
  }
  return { files };
}

/** Writes what planAgentFiles merged (a file whose text is already right is left alone). */
export function writeAgentFiles(plan: AgentFilesPlan): AgentFileChange[] {
  return plan.files.map((f) => writeIfChanged(f.path, f.previous, f.text));
}

/** The working tree agent files belong in; null for a bare repository or outside one. */
export function agentFilesRoot(cwd: string, env: NodeJS.ProcessEnv): string | null {
  return locateRepo(cwd, env)?.worktree ?? null;
}

function writeIfChanged(path: string, previous: { text: string } | null, text: string): AgentFileChange {
  if (previous?.text === text) return { path, action: 'unchanged' };
  writeFileAtomicSync(path, text);
  return { path, action: previous ? 'updated' : 'created' };
}

function shapeError(path: string, what: string): AxmeError {
  return new AxmeError('CONFIG', `${path}: ${what}: fix it, then run the command again; nothing was changed`, { path });
}
