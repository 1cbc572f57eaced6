import { appendFileSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AxmeError } from '../model/errors.ts';
import { SESSION_ID_FORM, SESSION_ID_RE } from '../model/session-id.ts';
import { writeFileAtomicSync } from '../store/atomic-file.ts';
import { claimLockFile, lockFileHeld } from './claim-lock.ts';
import { processAlive, processStart } from './owner.ts';

/**
 * Machine-local session state under `<git-common-dir>/axme/sessions/` — never committed. A
 * harness session (Claude Code's `session_id`) maps to one axme session id; what happens in
 * the session (files changed, its end) is appended to `<id>.jsonl`, so hooks running in
 * parallel never rewrite each other's lines. Plain synchronous fs: hooks run on every tool call.
 */

export interface SessionMeta {
  id: string;
  harness: string;
  harnessSessionId: string;
  startedAt: string;
  cwd: string;
  transcriptPath: string | null;
  /** the harness process that owns the session (the hook's parent) */
  ownerPid: number;
  /** when the owner started (clock ticks since boot; null where unknown): a reused pid is not the owner */
  ownerStart?: number | null;
}

/** The process that owns a session: the agent harness (or MCP client) it runs under. */
export interface SessionOwner {
  pid: number;
  start: number | null;
}

export type SessionEvent =
  | { t: string; type: 'file'; path: string; tool: string }
  | { t: string; type: 'commit'; commit: string }
  | { t: string; type: 'end'; reason: string }
  /** the agent closed the session (axme_finalize_close): the commit holding its handoff */
  | { t: string; type: 'closed'; commit: string | null }
  /** an orphan's handoff was written from what is known */
  | { t: string; type: 'recovered'; commit: string | null }
  /** an orphan with nothing worth a handoff was set aside */
  | { t: string; type: 'discarded'; reason: string };

export interface SessionState {
  meta: SessionMeta;
  files: string[];
  commits: string[];
  ended: { t: string; reason: string } | null;
  /** the agent's last close (the session may go on after it) */
  closed: { t: string; commit: string | null } | null;
  recovered: { t: string; commit: string | null } | null;
  discarded: { t: string; reason: string } | null;
  /** files and commits recorded after the last close or recovery: work no handoff or summary holds yet */
  pending: { files: string[]; commits: string[] };
  /** the newest event's time, else the start */
  lastActivity: string;
}

export type SessionStatus = 'active' | 'closed' | 'orphan' | 'recovered' | 'discarded';

const HARNESS_ID_RE = /^[A-Za-z0-9._-]{1,128}$/;
/** Whether a harness's session id can name a session: it becomes part of a file name (1-128 of A-Z a-z 0-9 . _ -). */
export const isHarnessSessionId = (id: string): boolean => HARNESS_ID_RE.test(id);

/** A session's metadata as read from disk: anything else (a foreign or damaged file) is not a session. */
function asMeta(x: unknown, id?: string): SessionMeta | null {
  const m = x as Partial<SessionMeta> | null;
  if (!m || typeof m !== 'object') return null;
  if (typeof m.id !== 'string' || !SESSION_ID_RE.test(m.id) || (id !== undefined && m.id !== id)) return null;
  if (typeof m.harness !== 'string' || !HARNESS_ID_RE.test(m.harness) || typeof m.harnessSessionId !== 'string' || !HARNESS_ID_RE.test(m.harnessSessionId))
    return null;
  if (typeof m.startedAt !== 'string' || typeof m.cwd !== 'string' || typeof m.ownerPid !== 'number') return null;
  return { ...m, transcriptPath: typeof m.transcriptPath === 'string' ? m.transcriptPath : null } as SessionMeta;
}

/** An event line's shape, checked: a damaged or foreign line is skipped. */
function asEvent(x: unknown): SessionEvent | null {
  const e = x as Record<string, unknown> | null;
  if (!e || typeof e !== 'object' || typeof e.t !== 'string') return null;
  const str = (k: string) => typeof e[k] === 'string';
  const ok =
    (e.type === 'file' && str('path') && str('tool')) ||
    (e.type === 'commit' && str('commit')) ||
    ((e.type === 'end' || e.type === 'discarded') && str('reason')) ||
    ((e.type === 'closed' || e.type === 'recovered') && (e.commit === null || str('commit')));
  return ok ? (e as unknown as SessionEvent) : null;
}

export function sessionsDir(commonDir: string): string {
  return join(commonDir, 'axme', 'sessions');
}

/**
 * The axme session of a harness session, created on first sight (reused on reload and by every
 * later hook). Creation is atomic: two hooks racing agree on one id. With `renew`, a mapped
 * session that is over — it ended, was recovered or set aside, or its owner process is gone (a
 * harness that resumed the session in a new process) — is replaced by a new one: the old one's
 * record stays as it is, for its own handoff.
 */
export function sessionForHarness(
  commonDir: string,
  harness: string,
  harnessSessionId: string,
  info: { cwd: string; transcriptPath: string | null; now: Date; owner: () => SessionOwner; renew?: boolean },
): SessionMeta {
  if (!HARNESS_ID_RE.test(harnessSessionId))
    throw new AxmeError(
      'INVALID_INPUT',
      `unusable ${harness} session id ${JSON.stringify(harnessSessionId.slice(0, 80))}: a session id is 1 to 128 letters, digits, ".", "_" or "-" (the hook payload's session_id)`,
    );
  const dir = sessionsDir(commonDir);
  const mapDir = join(dir, 'harness');
  mkdirSync(mapDir, { recursive: true });
  const mapPath = join(mapDir, `${harness}-${harnessSessionId}`);
  const existing = readMapped(dir, mapPath);
  if (existing && (!info.renew || stillRunning(commonDir, existing))) return existing;
  const stamp = info.now.toISOString().slice(0, 10).replace(/-/g, '');
  const owner = info.owner();
  const meta: SessionMeta = {
    id: `${stamp}-${uniqueSuffix()}`,
    harness,
    harnessSessionId,
    startedAt: info.now.toISOString(),
    cwd: info.cwd,
    transcriptPath: info.transcriptPath,
    ownerPid: owner.pid,
    ownerStart: owner.start,
  };
  writeFileAtomicSync(join(dir, `${meta.id}.json`), `${JSON.stringify(meta, null, 2)}\n`);
  const tmp = `${mapPath}.${process.pid}.tmp`;
  writeFileSync(tmp, meta.id);
  // compare-and-swap by an exclusive hard link: the first hook to create the mapping, or the
  // first to renew one given session (a file named after it), wins; the others use its session
  const claim = existing ? `${mapPath}.after-${existing.id}` : mapPath;
  try {
    linkSync(tmp, claim);
  } catch (err) {
    unlinkSync(tmp);
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    unlinkSync(join(dir, `${meta.id}.json`));
    const won = readMapped(dir, claim);
    if (won) return won;
    throw err;
  }
  if (existing) renameSync(tmp, mapPath);
  else unlinkSync(tmp);
  return meta;
}

/** True when the harness session is mapped to an axme session: one stat, for the per-tool-call hook. */
export function isMapped(commonDir: string, harness: string, harnessSessionId: string): boolean {
  return HARNESS_ID_RE.test(harnessSessionId) && existsSync(join(sessionsDir(commonDir), 'harness', `${harness}-${harnessSessionId}`));
}

/** The axme session a harness session is mapped to, or null: never creates one. */
export function mappedSession(commonDir: string, harness: string, harnessSessionId: string): SessionMeta | null {
  if (!HARNESS_ID_RE.test(harnessSessionId)) return null;
  const dir = sessionsDir(commonDir);
  return readMapped(dir, join(dir, 'harness', `${harness}-${harnessSessionId}`));
}

/** A mapped session that can take more events: not ended, not finished, its owner alive. */
function stillRunning(commonDir: string, meta: SessionMeta): boolean {
  const s = readSession(commonDir, meta.id);
  return !!s && !s.ended && !s.recovered && !s.discarded && processAlive(meta.ownerPid, meta.ownerStart);
}

/** 8 hex digits, unique enough for a machine's sessions (node:crypto costs the hook ~3 ms to load). */
function uniqueSuffix(): string {
  const n = (Math.random() * 0x100000000) ^ (process.pid << 8) ^ Number(process.hrtime.bigint() & 0xffffffffn);
  return (n >>> 0).toString(16).padStart(8, '0');
}

function readMapped(dir: string, mapPath: string): SessionMeta | null {
  let id: string;
  try {
    id = readFileSync(mapPath, 'utf8').trim();
  } catch {
    return null;
  }
  try {
    return SESSION_ID_RE.test(id) ? asMeta(JSON.parse(readFileSync(join(dir, `${id}.json`), 'utf8')), id) : null;
  } catch {
    return null;
  }
}

/** Appends one event to a session's log (one short line: appends of it are atomic). */
export function recordEvent(commonDir: string, sessionId: string, event: SessionEvent): void {
  if (!SESSION_ID_RE.test(sessionId))
    throw new AxmeError('INVALID_INPUT', `unusable session id ${JSON.stringify(sessionId.slice(0, 80))}: a session id is ${SESSION_ID_FORM} (AXME_SESSION)`);
  appendFileSync(join(sessionsDir(commonDir), `${sessionId}.jsonl`), `${JSON.stringify(event)}\n`);
}

/** A session's metadata and what its log says (files changed, in first-seen order; its end). */
export function readSession(commonDir: string, sessionId: string): SessionState | null {
  const dir = sessionsDir(commonDir);
  let meta: SessionMeta;
  try {
    if (!SESSION_ID_RE.test(sessionId)) return null;
    const m = asMeta(JSON.parse(readFileSync(join(dir, `${sessionId}.json`), 'utf8')), sessionId);
    if (!m) return null;
    meta = m;
  } catch {
    return null;
  }
  const files = new Set<string>();
  const commits: string[] = [];
  let ended: SessionState['ended'] = null;
  let closed: SessionState['closed'] = null;
  let recovered: SessionState['recovered'] = null;
  let discarded: SessionState['discarded'] = null;
  let pendingFiles = new Set<string>();
  let pendingCommits = new Set<string>();
  let lastActivity = meta.startedAt;
  let log = '';
  try {
    log = readFileSync(join(dir, `${sessionId}.jsonl`), 'utf8');
  } catch {
    // no events yet
  }
  for (const line of log.split('\n')) {
    if (!line) continue;
    try {
      const e = asEvent(JSON.parse(line));
      if (!e) continue;
      if (typeof e.t === 'string' && e.t > lastActivity) lastActivity = e.t;
      if (e.type === 'file') {
        files.add(e.path);
        pendingFiles.add(e.path);
      } else if (e.type === 'commit') {
        if (!commits.includes(e.commit)) commits.push(e.commit);
        pendingCommits.add(e.commit);
      } else if (e.type === 'end') ended ??= { t: e.t, reason: e.reason };
      else if (e.type === 'closed' || e.type === 'recovered') {
        if (e.type === 'closed') closed = { t: e.t, commit: e.commit };
        else recovered = { t: e.t, commit: e.commit };
        // what came before is in the store now
        pendingFiles = new Set();
        pendingCommits = new Set();
      } else if (e.type === 'discarded') discarded = { t: e.t, reason: e.reason };
    } catch {
      // a line cut short by a crash: skip it, keep the rest
    }
  }
  return {
    meta,
    files: [...files],
    commits,
    ended,
    closed,
    recovered,
    discarded,
    pending: { files: [...pendingFiles], commits: [...pendingCommits] },
    lastActivity,
  };
}

/**
 * Where a session stands. Closed by the agent, recovered or discarded, with nothing recorded
 * since: done. Otherwise it is active while its owner runs and it has not ended; an orphan once
 * it ended or its owner is gone — also a closed session that went on working after its close,
 * so that work reaches the store too.
 */
export function sessionStatus(s: SessionState, alive: (meta: SessionMeta) => boolean): SessionStatus {
  const pending = s.pending.files.length > 0 || s.pending.commits.length > 0;
  if ((s.closed || s.recovered) && !pending) return s.closed ? 'closed' : 'recovered';
  if (s.discarded && !pending) return 'discarded';
  if (s.ended || !alive(s.meta)) return 'orphan';
  return 'active';
}

/** Every session of the repository, newest first (a file that is not a session is skipped). */
export function listSessions(commonDir: string): SessionState[] {
  let names: string[];
  try {
    names = readdirSync(sessionsDir(commonDir));
  } catch {
    return [];
  }
  const out: SessionState[] = [];
  for (const n of names) {
    if (!n.endsWith('.json')) continue;
    const s = readSession(commonDir, n.slice(0, -5));
    if (s && s.meta.id === n.slice(0, -5)) out.push(s);
  }
  return out.sort((a, b) => (a.meta.startedAt < b.meta.startedAt ? 1 : a.meta.startedAt > b.meta.startedAt ? -1 : 0));
}

/** How long the record of a finished session (closed, recovered, discarded) is kept. */
export const FINISHED_SESSION_DAYS = 30;

/**
 * Deletes the local record of sessions finished more than `days` ago: every lookup reads the
 * folder, so it must not grow forever. What they left for the team is in the store.
 */
export function pruneSessions(commonDir: string, now: Date, days = FINISHED_SESSION_DAYS, sessions = listSessions(commonDir)): string[] {
  const cutoff = new Date(now.getTime() - days * 86_400_000).toISOString();
  const dir = sessionsDir(commonDir);
  const pruned: string[] = [];
  for (const s of sessions) {
    const done = s.closed ?? s.recovered ?? s.discarded;
    if (!done || s.pending.files.length || s.pending.commits.length || s.lastActivity >= cutoff) continue;
    const mapping = join(dir, 'harness', `${s.meta.harness}-${s.meta.harnessSessionId}`);
    // the mapping only while it still names this session (a renewed one names its successor)
    const maps = readMapped(dir, mapping)?.id === s.meta.id ? [mapping] : [];
    for (const f of [...maps, `${mapping}.after-${s.meta.id}`, join(dir, `${s.meta.id}.jsonl`), join(dir, `${s.meta.id}.json`)]) {
      try {
        unlinkSync(f);
      } catch {
        // already gone
      }
    }
    // its own folder (what it was given: session/given.ts)
    rmSync(join(dir, s.meta.id), { recursive: true, force: true });
    pruned.push(s.meta.id);
  }
  return pruned;
}

/**
 * Claims a session for a one-time job (recovering it) across processes: an exclusive lock file.
 * Returns the release function, or null when another live process holds a claim younger than `staleMs`.
 */
export function claimSession(commonDir: string, sessionId: string, now: Date, staleMs = 10 * 60_000): (() => void) | null {
  return claimLockFile(join(sessionsDir(commonDir), `${sessionId}.claim`), now, staleMs);
}

/** Whether a live process holds the claim on a session now (it is recovering or renewing it). */
export function sessionClaimHeld(commonDir: string, sessionId: string): boolean {
  return lockFileHeld(join(sessionsDir(commonDir), `${sessionId}.claim`));
}

/**
 * The open session a command belongs to: the newest one whose harness process is among the
 * command's ancestors (a git hook run by Claude Code's Bash tool, the MCP server it started), or
 * null. A session the harness's hooks created wins over one an MCP server made for itself.
 */
export function activeSession(commonDir: string, ancestorPids: number[]): SessionMeta | null {
  if (!ancestorPids.length) return null;
  let names: string[];
  try {
    names = readdirSync(sessionsDir(commonDir)).filter((n) => n.endsWith('.json'));
  } catch {
    return null;
  }
  // the small metadata files first; only a session owned by an ancestor has its log read
  const owned: SessionMeta[] = [];
  for (const n of names) {
    try {
      const meta = asMeta(JSON.parse(readFileSync(join(sessionsDir(commonDir), n), 'utf8')), n.slice(0, -5));
      if (meta && ancestorPids.includes(meta.ownerPid) && sameOwner(meta)) owned.push(meta);
    } catch {
      // a half-written or foreign file: not a session
    }
  }
  const rank = (m: SessionMeta) => (m.harness === MCP_HARNESS ? 1 : 0);
  owned.sort((a, b) => rank(a) - rank(b) || (a.startedAt < b.startedAt ? 1 : -1));
  return (
    owned.find((m) => {
      const s = readSession(commonDir, m.id);
      return s !== null && !s.ended && !s.recovered && !s.discarded;
    }) ?? null
  );
}

/** The harness name of sessions an MCP server opens for itself (a client without session hooks). */
export const MCP_HARNESS = 'mcp';

/** False when the session's owner pid now belongs to a later process. */
function sameOwner(meta: SessionMeta): boolean {
  if (meta.ownerStart === undefined || meta.ownerStart === null) return true;
  const now = processStart(meta.ownerPid);
  return now === null || now === meta.ownerStart;
}
