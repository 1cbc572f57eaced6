import { existsSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { assertPersonActs } from '../../model/actor.ts';
import { AxmeError } from '../../model/errors.ts';
import { makeFolder } from '../../model/make-folder.ts';
import { eitherOf, nearNames } from '../../model/near-names.ts';
import { writeFileAtomicSync } from '../../store/atomic-file.ts';
import { readTextFile } from '../json-file.ts';
import type { ClientAdapter } from './adapter.ts';
import { ADAPTERS } from './adapters.ts';
import { type CodexEntry, mergeCodexServer, removeCodexServer } from './codex-toml.ts';
import { hookEvents, mergeClientHooks, removeClientHooks } from './hooks.ts';
import { mergeInstructions, removeInstructions } from './instructions.ts';
import { mergeJsonServer, removeJsonServer } from './json-mcp.ts';
import { type RemoteServer, serverEntry } from './remote.ts';
import { mergeUserServer, removeUserServer, type UserContext, userServerEntry, userServerName } from './user-level.ts';

export type { UserContext } from './user-level.ts';

/**
 * What `axme init --agent` and `axme uninstall --agent` do to the clients' files, from their
 * adapters (ADAPTERS, adapters.ts): each client's MCP server in its project file, its hooks
 * (hooks.ts), the instructions its agent reads. Every project entry starts axme the same portable
 * way as `.mcp.json` (`sh -c` with launch.ts's snippet), never by a path of this machine. The
 * default client's files (Claude Code's hooks, `.mcp.json`, CLAUDE.md) are written by agent-files.ts;
 * here they are removed like any client's. The clients whose server is in a file of the user (`--user`)
 * get this project's entry there (user-level.ts).
 */

type Entry = Record<string, unknown>;

/** What `--agent <list>` (and `--user`) asks for. */
export interface AgentSelection {
  /** Claude Code's files (hooks, .mcp.json, CLAUDE.md) */
  claude: boolean;
  /** the other clients named (their project files) */
  named: string[];
  /** `all`: the other clients detected in the working tree */
  all: boolean;
  /** `--user`: the user-level clients named, whose file of the user gets this project's server */
  user: string[];
  /** `--mcp-url`: the clients' server is a team's `axme serve --http` (remote.ts), not a local stdio one */
  remote?: RemoteServer | undefined;
}

const NAMES = () => ADAPTERS.map((c) => c.id);
/** The clients whose MCP server is in a file of the user. */
const userClients = () => ADAPTERS.filter((c) => c.user);
/** Whether the client has files in the project (a server, hooks or instructions). */
const inProject = (c: ClientAdapter) => Boolean(c.mcp || c.hooks || c.instructions);

/**
 * Reads `--agent`'s comma-separated list, `--user` and `--mcp-url` (parseRemote's): INVALID_INPUT
 * for a name it does not know, a user-level client without `--user`, or `--user` with a team server.
 */
export function parseAgents(list: string, opts: { user?: boolean; remote?: RemoteServer | undefined } = {}): AgentSelection {
  const names = list
    .split(',')
    .map((n) => n.trim().toLowerCase())
    .filter(Boolean);
  if (!names.length) throw new AxmeError('INVALID_INPUT', `--agent needs a comma-separated list of clients: ${NAMES().join(', ')} or all`);
  const unknown = names.filter((n) => n !== 'all' && !(NAMES() as string[]).includes(n));
  if (unknown.length) {
    const meant = unknown.map((n) => ({ n, near: nearNames(n, [...NAMES(), 'all']) })).filter((m) => m.near.length);
    const said = meant.map((m) => `${unknown.length > 1 ? `${m.n}: ` : ''}did you mean ${eitherOf(m.near)}?`).join('; ');
    throw new AxmeError('INVALID_INPUT', `--agent: unknown client ${unknown.join(', ')}${said ? `: ${said}` : ''}; give ${NAMES().join(', ')} or all`, {
      unknown,
      meant: Object.fromEntries(meant.map((m) => [m.n, m.near])),
    });
  }
  const user = userClients()
    .map((c) => c.id)
    .filter((n) => names.includes(n));
  // a client whose only file is the user's cannot be connected without --user
  const userOnly = userClients().find((c) => !inProject(c) && names.includes(c.id));
  if (!opts.user && userOnly) {
    throw new AxmeError(
      'INVALID_INPUT',
      `--agent ${userOnly.id}: ${userOnly.label} keeps MCP servers in a file of the user, not of the project: add --user to put this project's server there (axme init --agent ${userOnly.id} --user)`,
    );
  }
  if (opts.user && !user.length)
    throw new AxmeError(
      'INVALID_INPUT',
      `--user goes with a client whose MCP servers are in a file of the user: --agent ${userClients()
        .map((c) => c.id)
        .join(' or ')} (all covers the project's clients only)`,
    );
  if (opts.user && opts.remote)
    throw new AxmeError(
      'INVALID_INPUT',
      '--mcp-url and --user: the clients of a file of the user are connected to a local server only; connect them by hand (docs/mcp.md)',
    );
  const all = names.includes('all');
  return {
    claude: all || names.includes('claude-code'),
    named: ADAPTERS.filter((c) => !c.isDefault && inProject(c) && names.includes(c.id)).map((c) => c.id),
    all,
    user: opts.user ? user : [],
    ...(opts.remote ? { remote: opts.remote } : {}),
  };
}

/** What part of axme a file holds for a client. */
export type ClientPart = 'server' | 'hooks' | 'instructions';

export interface ClientFilePlan {
  client: string;
  path: string;
  previous: string | null;
  /** the new text; null: the file goes (nothing else was in it) */
  text: string | null;
  /** what of axme's the file holds (or held, for a removal) */
  parts: ClientPart[];
  /** the axme server entry written (absent for a removal) */
  entry?: Entry;
  /** the client's events axme's hooks answer (absent for a removal) */
  hooks?: string[];
  /** why it is connected */
  reason?: 'named' | 'detected';
  /** said when it is written: what the client needs besides the file */
  note?: string;
  /** folders removed with the file when they are left empty (a user-level client's, never the project's) */
  prune?: string[];
}

export interface ClientsPlan {
  files: ClientFilePlan[];
  /** clients left out (`all`: not detected; a user-level client's server without `--user`), and why */
  skipped: Array<{ client: string; file: string; reason: string }>;
}

export interface ClientChange {
  client: string;
  path: string;
  action: 'created' | 'updated' | 'unchanged' | 'removed';
  parts: ClientPart[];
  entry?: Entry;
  hooks?: string[];
  reason?: 'named' | 'detected';
  note?: string;
}

/** One change to one file; a file two of them touch (Gemini's settings: server and hooks) is read and written once. */
interface Edit {
  path: string;
  part: ClientPart;
  apply: (text: string | null) => string | null;
  entry?: Entry;
  hooks?: string[];
  note?: string;
}

/**
 * Reads and merges the files of the clients `selection` asks for (the default client's aside: they
 * are agent-files.ts's) under `root`, and with `--user` the user-level clients' files (`user` says
 * where they are, and which axme to start), writing nothing: a broken file stops here (CONFIG).
 */
export function planClients(root: string, selection: AgentSelection, user?: UserContext): ClientsPlan {
  const files: ClientFilePlan[] = [];
  const skipped: ClientsPlan['skipped'] = [];
  for (const c of ADAPTERS) {
    if (c.isDefault || !inProject(c)) continue;
    const named = selection.named.includes(c.id);
    const detected = c.detect !== null && existsSync(join(root, c.detect));
    if (!named && !(selection.all && detected)) {
      if (selection.all)
        skipped.push({
          client: c.id,
          file: c.mcp?.file ?? c.instructions?.file ?? '',
          reason: c.detect
            ? `not detected (no ${c.detect}/ here; all connects the clients whose folder is here): axme init --agent ${c.id} connects it anyway`
            : `its MCP server is in a file of the user: name it (--agent ${c.id} --user)`,
        });
      continue;
    }
    const edits: Edit[] = [];
    if (c.mcp) {
      const { format, note } = c.mcp;
      const entry = serverEntry(c.mcp, selection.remote);
      const path = join(root, c.mcp.file);
      edits.push({
        path,
        part: 'server',
        entry,
        ...(note ? { note: note(root) } : {}),
        apply: (t) => (format.kind === 'json' ? mergeJsonServer(t, format, entry, path) : mergeCodexServer(t, entry as CodexEntry, path)),
      });
    }
    if (c.instructions) {
      const { file, kind } = c.instructions;
      const path = join(root, file);
      edits.push({ path, part: 'instructions', apply: (t) => mergeInstructions(kind, t, path) });
    }
    if (c.hooks) {
      const client = { ...c, hooks: c.hooks };
      const { note } = c.hooks;
      const path = join(root, c.hooks.file);
      edits.push({ path, part: 'hooks', hooks: hookEvents(client), ...(note ? { note } : {}), apply: (t) => mergeClientHooks(client, t, path) });
    }
    if (c.user && !selection.user.includes(c.id))
      skipped.push({ client: c.id, file: c.user.place, reason: 'its MCP server is in a file of the user: add --user to connect it there' });
    files.push(...gather(c.id, edits, named ? 'named' : 'detected'));
  }
  for (const c of userClients().filter((x) => selection.user.includes(x.id))) {
    if (!user?.self) throw new Error('internal: planClients needs this axme (user.self) for --user');
    const client = { label: c.label, user: c.user! };
    const path = client.user.path(user);
    const self = user.self;
    const entry = { [userServerName(root)]: userServerEntry(root, self) };
    files.push(...gather(c.id, [{ path, part: 'server', entry, apply: (t) => mergeUserServer(client, t, path, root, self) }], 'named'));
  }
  return { files, skipped };
}

/**
 * Reads the files of the clients `selection` names under `root` (and with `--user` the user-level
 * ones) and takes axme out of each, writing nothing: the default client (Claude Code) too — its
 * server, its hooks and its CLAUDE.md section, from the same adapter as every other client.
 * Removing a client's hooks is a person's: NOT_ALLOWED when `user.env` is an agent's (model/actor.ts).
 */
export function planClientRemoval(root: string, selection: AgentSelection, user?: Omit<UserContext, 'self'>): ClientsPlan {
  const ids = new Set<string>([
    ...(selection.claude ? ['claude-code'] : []),
    ...selection.named,
    ...(selection.all ? ADAPTERS.filter(inProject).map((c) => c.id) : []),
  ]);
  const files: ClientFilePlan[] = [];
  const skipped: ClientsPlan['skipped'] = [];
  const removing = (remove: (t: string) => string | null) => (t: string | null) => (t === null ? null : remove(t));
  for (const c of ADAPTERS) {
    if (!ids.has(c.id) || !inProject(c)) continue;
    const edits: Edit[] = [];
    if (c.mcp) {
      const { format } = c.mcp;
      const path = join(root, c.mcp.file);
      edits.push({ path, part: 'server', apply: removing((t) => (format.kind === 'json' ? removeJsonServer(t, format, path) : removeCodexServer(t, path))) });
    }
    if (c.instructions) {
      const { file, kind } = c.instructions;
      const path = join(root, file);
      edits.push({ path, part: 'instructions', apply: removing((t) => removeInstructions(kind, t, path)) });
    }
    if (c.hooks) {
      const client = { ...c, hooks: c.hooks };
      const path = join(root, c.hooks.file);
      edits.push({ path, part: 'hooks', apply: removing((t) => removeClientHooks(client, t, path)) });
    }
    if (c.user && !selection.user.includes(c.id) && selection.named.includes(c.id))
      skipped.push({ client: c.id, file: c.user.place, reason: 'its MCP server is in a file of the user: add --user to remove it there' });
    files.push(...gather(c.id, edits).filter((f) => f.previous !== null));
  }
  for (const c of userClients().filter((x) => selection.user.includes(x.id))) {
    if (!user) throw new Error('internal: planClientRemoval needs the environment for --user');
    const client = { label: c.label, user: c.user! };
    const path = client.user.path(user);
    const prune = client.user.folders(path);
    files.push(
      ...gather(c.id, [{ path, part: 'server', apply: removing((t) => removeUserServer(client, t, path, root)) }])
        .filter((f) => f.previous !== null)
        .map((f) => ({ ...f, prune })),
    );
  }
  // a client's hooks bind its agent: only a person takes them away, as the git hooks (model/actor.ts)
  const unhooked = [...new Set(files.filter((f) => f.parts.includes('hooks') && f.text !== f.previous).map((f) => f.client))];
  if (unhooked.length && user) assertPersonActs(user.env, `removing ${unhooked.join(' and ')}'s hooks`, `axme uninstall --agent ${unhooked.join(',')}`);
  return { files, skipped };
}

/** The edits of one client as one plan per file, in the order each file first comes: each file read once, its edits applied in turn. */
function gather(client: string, edits: Edit[], reason?: 'named' | 'detected'): ClientFilePlan[] {
  const out = new Map<string, ClientFilePlan>();
  for (const e of edits) {
    let f = out.get(e.path);
    if (!f) {
      const previous = readTextFile(e.path);
      f = { client, path: e.path, previous, text: previous, parts: [], ...(reason ? { reason } : {}) };
      out.set(e.path, f);
    }
    f.text = e.apply(f.text);
    f.parts.push(e.part);
    if (e.entry) f.entry = e.entry;
    if (e.hooks) f.hooks = e.hooks;
    if (e.note) f.note = f.note ? `${f.note}; ${e.note}` : e.note;
  }
  return [...out.values()];
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
      // a project folder stays: it may be the user's (and it is how the client is detected)
      rmSync(f.path, { force: true });
      for (const dir of f.prune ?? []) if (!removeIfEmpty(dir)) break;
    } else {
      makeFolder(dirname(f.path));
      writeFileAtomicSync(f.path, f.text);
    }
    return change;
  });
}

/** Removes a folder that holds nothing; false when it holds something (or cannot be removed). */
function removeIfEmpty(dir: string): boolean {
  try {
    rmdirSync(dir);
    return true;
  } catch {
    return false;
  }
}

function changeOf(f: ClientFilePlan): ClientChange {
  const action: ClientChange['action'] = f.text === f.previous ? 'unchanged' : f.text === null ? 'removed' : f.previous === null ? 'created' : 'updated';
  const written = f.text !== null && (f.entry || f.hooks);
  return {
    client: f.client,
    path: f.path,
    action,
    parts: f.parts,
    ...(f.entry ? { entry: f.entry } : {}),
    ...(f.hooks ? { hooks: f.hooks } : {}),
    ...(f.reason ? { reason: f.reason } : {}),
    ...(f.note && written ? { note: f.note } : {}),
  };
}
