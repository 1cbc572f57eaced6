import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AxmeError } from '../../model/errors.ts';
import { writeFileAtomicSync } from '../../store/atomic-file.ts';
import { readTextFile } from '../json-file.ts';
import { mcpServerEntry } from '../launch.ts';
import { mergeCodexServer, removeCodexServer, type TomlTableFormat } from './codex-toml.ts';
import { mergeJsonServer, removeJsonServer, type JsonServersFormat } from './json-mcp.ts';
import { mergeInstructions, removeInstructions, type InstructionsKind } from './instructions.ts';

/**
 * The MCP clients `axme init --agent` connects: one list, each with the project file it reads,
 * the folder that says it is in use, and the format of its entry. Every entry starts the server
 * the same portable way as `.mcp.json` (`sh -c` with launch.ts's snippet), never by a path of
 * this machine. Claude Code's files (hooks, `.mcp.json`, CLAUDE.md) are agent-files.ts's; its
 * entry here is used to remove the `.mcp.json` server.
 */

type Entry = Record<string, unknown>;

export interface ClientSpec {
  id: string;
  /** the file, from the top of the working tree */
  file: string;
  /** the folder whose presence says the client is used here (null: always, Claude Code) */
  detect: string | null;
  format: JsonServersFormat | TomlTableFormat;
  entry: () => Entry;
  /** said when it is connected (given the top of the working tree) */
  note?: (root: string) => string;
  /** the instructions its agent reads, kept with the shared axme section (instructions.ts) */
  instructions?: { file: string; kind: InstructionsKind };
}

const portable = () => mcpServerEntry();

export const CLIENTS: readonly ClientSpec[] = [
  { id: 'claude-code', file: '.mcp.json', detect: null, format: { kind: 'json', key: 'mcpServers' }, entry: portable },
  { id: 'cursor', file: '.cursor/mcp.json', detect: '.cursor', format: { kind: 'json', key: 'mcpServers' }, entry: () => ({ ...portable(), env: {} }), instructions: { file: '.cursor/rules/axme.mdc', kind: 'cursor-rule' } },
  { id: 'vscode', file: '.vscode/mcp.json', detect: '.vscode', format: { kind: 'json', key: 'servers' }, entry: () => ({ type: 'stdio', ...portable() }), instructions: { file: '.github/copilot-instructions.md', kind: 'section' } },
  { id: 'gemini', file: '.gemini/settings.json', detect: '.gemini', format: { kind: 'json', key: 'mcpServers' }, entry: portable, instructions: { file: 'GEMINI.md', kind: 'section' } },
  {
    id: 'codex',
    file: '.codex/config.toml',
    detect: '.codex',
    format: { kind: 'toml' },
    entry: portable,
    instructions: { file: 'AGENTS.md', kind: 'section' },
    note: (root) => `Codex loads a project's .codex/config.toml only when it trusts the project: [projects.${JSON.stringify(root)}] trust_level = "trusted" in ~/.codex/config.toml`,
  },
];

/** Clients whose MCP configuration is a file of the user's, not of the project: not supported yet. */
const USER_LEVEL: Record<string, string> = { windsurf: 'Windsurf', 'claude-desktop': 'Claude Desktop' };

/** What `--agent <list>` asks for. */
export interface AgentSelection {
  /** Claude Code's files (hooks, .mcp.json, CLAUDE.md) */
  claude: boolean;
  /** the other clients named */
  named: string[];
  /** `all`: the other clients detected in the working tree */
  all: boolean;
}

/** Reads `--agent`'s comma-separated list (INVALID_INPUT for a name it does not know). */
export function parseAgents(list: string): AgentSelection {
  const names = list.split(',').map((n) => n.trim().toLowerCase()).filter(Boolean);
  if (!names.length) throw new AxmeError('INVALID_INPUT', `--agent needs a comma-separated list of clients: ${CLIENTS.map((c) => c.id).join(', ')} or all`);
  const user = names.filter((n) => n in USER_LEVEL);
  if (user.length) throw new AxmeError('INVALID_INPUT', `--agent ${user.join(',')}: ${user.map((n) => USER_LEVEL[n]).join(' and ')} ${user.length > 1 ? 'keep' : 'keeps'} MCP servers in a file of the user, not of the project: not supported yet (add the axme server by hand, see docs/clients.md)`);
  const unknown = names.filter((n) => n !== 'all' && !CLIENTS.some((c) => c.id === n));
  if (unknown.length) throw new AxmeError('INVALID_INPUT', `--agent: unknown client ${unknown.join(', ')}: give ${CLIENTS.map((c) => c.id).join(', ')} or all`);
  const all = names.includes('all');
  return { claude: all || names.includes('claude-code'), named: CLIENTS.filter((c) => c.id !== 'claude-code' && names.includes(c.id)).map((c) => c.id), all };
}

export interface ClientFilePlan {
  client: string;
  path: string;
  previous: string | null;
  /** the new text; null: the file goes (nothing else was in it) */
  text: string | null;
  /** the axme entry written (absent for a removal) */
  entry?: Entry;
  /** why it is connected */
  reason?: 'named' | 'detected';
}

export interface ClientsPlan {
  files: ClientFilePlan[];
  /** clients `all` left out, and why */
  skipped: Array<{ client: string; file: string; reason: string }>;
}

export interface ClientChange {
  client: string;
  path: string;
  action: 'created' | 'updated' | 'unchanged' | 'removed';
  entry?: Entry;
  reason?: 'named' | 'detected';
  note?: string;
}

/**
 * Reads and merges the files of the clients `selection` asks for (Claude Code's aside: they are
 * agent-files.ts's) under `root`, writing nothing: a broken file stops here (CONFIG).
 */
export function planClients(root: string, selection: AgentSelection): ClientsPlan {
  const files: ClientFilePlan[] = [];
  const skipped: ClientsPlan['skipped'] = [];
  for (const c of CLIENTS) {
    if (c.id === 'claude-code') continue;
    const named = selection.named.includes(c.id);
    const detected = c.detect !== null && existsSync(join(root, c.detect));
    if (!named && !(selection.all && detected)) {
      if (selection.all) skipped.push({ client: c.id, file: c.file, reason: `not detected (no ${c.detect}/ here)` });
      continue;
    }
    const path = join(root, c.file);
    const previous = readTextFile(path);
    const entry = c.entry();
    files.push({ client: c.id, path, previous, text: merge(c, previous, entry, path), entry, reason: named ? 'named' : 'detected' });
    if (c.instructions) {
      const at = join(root, c.instructions.file);
      const before = readTextFile(at);
      files.push({ client: c.id, path: at, previous: before, text: mergeInstructions(c.instructions.kind, before, at), reason: named ? 'named' : 'detected' });
    }
  }
  return { files, skipped };
}

/** Reads the files of `clients` under `root` and takes the axme entry out of each, writing nothing. */
export function planClientRemoval(root: string, selection: AgentSelection): ClientsPlan {
  const ids = new Set([...(selection.claude ? ['claude-code'] : []), ...selection.named, ...(selection.all ? CLIENTS.map((c) => c.id) : [])]);
  const files: ClientFilePlan[] = [];
  for (const c of CLIENTS) {
    if (!ids.has(c.id)) continue;
    const path = join(root, c.file);
    const previous = readTextFile(path);
    if (previous !== null) files.push({ client: c.id, path, previous, text: c.format.kind === 'json' ? removeJsonServer(previous, c.format, path) : removeCodexServer(previous, path) });
    if (c.instructions) {
      const at = join(root, c.instructions.file);
      const before = readTextFile(at);
      if (before !== null) files.push({ client: c.id, path: at, previous: before, text: removeInstructions(c.instructions.kind, before, at) });
    }
  }
  return { files, skipped: [] };
}

/** What applying `plan` does to each file, without doing it (`--dry-run`). */
export function describeClients(plan: ClientsPlan): ClientChange[] {
  return plan.files.map((f) => changeOf(f));
}

/** Writes (or removes) what the plan says; a file already right is left alone. */
export function applyClients(plan: ClientsPlan): ClientChange[] {
  return plan.files.map((f) => {
    const change = changeOf(f);
    if (change.action === 'unchanged') return change;
    if (f.text === null) {
      // its folder stays: it may be the user's (and it is how the client is detected)
      rmSync(f.path, { force: true });
    } else {
      mkdirSync(dirname(f.path), { recursive: true });
      writeFileAtomicSync(f.path, f.text);
    }
    return change;
  });
}

function changeOf(f: ClientFilePlan): ClientChange {
  const action: ClientChange['action'] = f.text === f.previous ? 'unchanged' : f.text === null ? 'removed' : f.previous === null ? 'created' : 'updated';
  const spec = CLIENTS.find((c) => c.id === f.client);
  const note = spec?.note?.(f.path.endsWith(spec.file) ? f.path.slice(0, -spec.file.length - 1) : dirname(f.path));
  return { client: f.client, path: f.path, action, ...(f.entry ? { entry: f.entry } : {}), ...(f.reason ? { reason: f.reason } : {}), ...(note && f.entry ? { note } : {}) };
}

function merge(c: ClientSpec, previous: string | null, entry: Entry, path: string): string {
  if (c.format.kind === 'json') return mergeJsonServer(previous, c.format, entry, path);
  return mergeCodexServer(previous, entry as { command: string; args: string[] }, path);
}
