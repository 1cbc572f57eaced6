import type { HOOK_EVENT_NAMES } from '../../model/hook-names.ts';
import type { Json } from '../json-file.ts';
import type { TomlTableFormat } from './codex-toml.ts';
import type { ClientHookPart } from './hook-protocol.ts';
import type { ClientId } from './hook-registry.ts';
import type { JsonServersFormat } from './json-mcp.ts';
import type { RemoteServer } from './remote.ts';

/**
 * One client axme connects, in one place (`<client>.ts`, listed in ADAPTERS): its hook part (the
 * guarded files and hook protocol the hook process needs, `<client>.hook.ts`), the MCP entry
 * init writes (local and for a team's server), its hook file and events, the instructions its agent
 * reads, the doctor's probe of its safety hook, and the format of its transcripts.
 */
export interface ClientAdapter extends ClientHookPart {
  id: ClientId;
  /** the folder whose presence says the client is used here (`--agent all`); null: never detected */
  detect: string | null;
  /** the default client: plain `axme init` writes its files (agent-files.ts), not `--agent`'s plan; `uninstall --agent` takes its files out like any client's */
  isDefault?: true;
  /** its MCP server in a file of the project */
  mcp?: McpEntry;
  /** its MCP server in a file of the user (`--user`) instead */
  user?: UserFile;
  /** the hooks axme registers in its file */
  hooks?: ClientHooks;
  /** the instructions its agent reads, kept with the shared axme section (instructions.ts) */
  instructions?: { file: string; kind: InstructionsKind };
  /** how `axme doctor` runs its installed safety hook */
  probe?: ClientProbe;
  /** the format of its session transcripts (the auditor's readers, src/transcript/), null when axme reads none */
  transcript: TranscriptFormat | null;
}

/** A file of instructions: a section in a Markdown file, or a Cursor rule file (front matter first). */
export type InstructionsKind = 'section' | 'cursor-rule';

/** Which OS, and which environment, a file of the user is looked for in (every OS is tested on any one). */
export interface UserPlace {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
}

/** The transcript formats axme reads, by name. */
export type TranscriptFormat = 'claude-code' | 'gemini' | 'codex';

type Entry = Record<string, unknown>;

export interface McpEntry {
  /** the file, from the top of the working tree */
  file: string;
  format: JsonServersFormat | TomlTableFormat;
  /** the local stdio server: the portable command (launch.ts), never a path of this machine */
  entry: () => Entry;
  /** a team's `axme serve --http` (`--mcp-url`): the client's own way of reading the token from the environment when it starts */
  remote: (server: RemoteServer) => Entry;
  /** said when it is connected (given the top of the working tree) */
  note?: (root: string) => string;
}

/** A client whose MCP servers are in one file of the user, for every project (`--user`, user-level.ts). */
export interface UserFile {
  /** the object of servers */
  key: string;
  /** where the file is, as people say it */
  place: string;
  /** the file on the OS and environment `ctx` gives: CONFIG when a variable it needs is unset */
  path: (ctx: UserPlace) => string;
  /** the client's own folders around the file, deepest first: removed by uninstall when left empty */
  folders: (path: string) => string[];
}

type HookEvent = (typeof HOOK_EVENT_NAMES)[number];

/** One of the client's events and the axme hook that answers it. */
export interface HookSpec {
  event: string;
  hook: HookEvent;
  /** the tools it runs for (none: every tool) */
  matcher?: string;
  /** in the client's unit: seconds (Claude Code, Cursor, Codex), milliseconds (Gemini CLI) */
  timeout: number;
  /** Cursor: a failure or a timeout of the hook blocks the call */
  failClosed?: boolean;
}

export interface ClientHooks {
  /** the file, from the top of the working tree */
  file: string;
  events: readonly HookSpec[];
  /** how the file lists hooks (hooks.ts merges them) */
  layout: HookLayout;
  /** said when it is written: what the client needs besides the file */
  note?: string;
}

/** How a client's file lists its hooks. */
export interface HookLayout {
  /** an event's list holds groups of commands (`{matcher, hooks: [...]}`, Claude Code's shape), not commands */
  grouped: boolean;
  /** the version of the format, first in a file axme creates and required of one it edits (Cursor's 1) */
  version?: number;
  /** axme's entry in an event's list for `command` */
  entry: (command: string, spec: HookSpec) => Json;
}

/** How `axme doctor` runs a client's installed safety hook: with the client's own payload, reading the client's own answer. */
export interface ClientProbe {
  /** the payload of its shell tool running `command` in `root` (no session: a check opens none) */
  shellPayload: (root: string, command: string) => Json;
  /** what an answer decided: deny, pass (no objection), or null when it is not the client's answer */
  decision: (stdout: string) => 'deny' | 'pass' | null;
  /** whether the client will run the hooks installed (Codex: the trust of the project and of each hook); given the hook file's text */
  ready?: (root: string, env: NodeJS.ProcessEnv, hooksText: string) => ProbeReadiness;
}

/** What a client needs before it runs the hooks: there (and how it says so), or what is missing and how to get it. */
export type ProbeReadiness = { ok: true; detail: string } | { ok: false; detail: string; fix: string };

/** One line of `axme doctor`. */
export interface DoctorCheck {
  name: string;
  status: 'ok' | 'missing' | 'problem';
  detail: string;
  /** what to run or change when the status is not ok */
  fix?: string;
}

/** A decision read from a client's JSON answer by `field`: deny, pass (no decision), or null when it is not such an answer. */
export function jsonDecision(stdout: string, field: (answer: Record<string, unknown>) => unknown): 'deny' | 'pass' | null {
  try {
    const decision = field(JSON.parse(stdout) as Record<string, unknown>);
    return decision === 'deny' ? 'deny' : decision === undefined ? 'pass' : null;
  } catch {
    return null;
  }
}
