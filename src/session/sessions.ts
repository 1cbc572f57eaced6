import { appendFileSync, linkSync, mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { writeFileAtomicSync } from '../store/atomic-file.ts';
import { join } from 'node:path';

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
}

export type SessionEvent =
  | { t: string; type: 'file'; path: string; tool: string }
  | { t: string; type: 'commit'; commit: string }
  | { t: string; type: 'end'; reason: string };

export interface SessionState {
  meta: SessionMeta;
  files: string[];
  commits: string[];
  ended: { t: string; reason: string } | null;
}

const HARNESS_ID_RE = /^[A-Za-z0-9._-]{1,128}$/;

export function sessionsDir(commonDir: string): string {
  return join(commonDir, 'axme', 'sessions');
}

/**
 * The axme session of a harness session, created on first sight (reused on reload and by every
 * later hook). Creation is atomic: two hooks racing agree on one id.
 */
export function sessionForHarness(commonDir: string, harness: string, harnessSessionId: string, info: { cwd: string; transcriptPath: string | null; now: Date; ownerPid: number }): SessionMeta {
  if (!HARNESS_ID_RE.test(harnessSessionId)) throw new Error(`unusable ${harness} session id ${JSON.stringify(harnessSessionId.slice(0, 80))}`);
  const dir = sessionsDir(commonDir);
  const mapDir = join(dir, 'harness');
  mkdirSync(mapDir, { recursive: true });
  const mapPath = join(mapDir, `${harness}-${harnessSessionId}`);
  const existing = readMapped(dir, mapPath);
  if (existing) return existing;
  const stamp = info.now.toISOString().slice(0, 10).replace(/-/g, '');
  const meta: SessionMeta = {
    id: `${stamp}-${uniqueSuffix()}`,
    harness,
    harnessSessionId,
    startedAt: info.now.toISOString(),
    cwd: info.cwd,
    transcriptPath: info.transcriptPath,
    ownerPid: info.ownerPid,
  };
  writeFileAtomicSync(join(dir, `${meta.id}.json`), `${JSON.stringify(meta, null, 2)}\n`);
  const tmp = `${mapPath}.${process.pid}.tmp`;
  writeFileSync(tmp, meta.id);
  try {
    linkSync(tmp, mapPath);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // another hook created it first: use theirs, forget ours
    unlinkSync(join(dir, `${meta.id}.json`));
    const won = readMapped(dir, mapPath);
    if (won) return won;
    throw err;
  } finally {
    unlinkSync(tmp);
  }
  return meta;
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
    return JSON.parse(readFileSync(join(dir, `${id}.json`), 'utf8')) as SessionMeta;
  } catch {
    return null;
  }
}

/** Appends one event to a session's log (one short line: appends of it are atomic). */
export function recordEvent(commonDir: string, sessionId: string, event: SessionEvent): void {
  appendFileSync(join(sessionsDir(commonDir), `${sessionId}.jsonl`), `${JSON.stringify(event)}\n`);
}

/** A session's metadata and what its log says (files changed, in first-seen order; its end). */
export function readSession(commonDir: string, sessionId: string): SessionState | null {
  const dir = sessionsDir(commonDir);
  let meta: SessionMeta;
  try {
    meta = JSON.parse(readFileSync(join(dir, `${sessionId}.json`), 'utf8')) as SessionMeta;
  } catch {
    return null;
  }
  const files = new Set<string>();
  const commits: string[] = [];
  let ended: SessionState['ended'] = null;
  let log = '';
  try {
    log = readFileSync(join(dir, `${sessionId}.jsonl`), 'utf8');
  } catch {
    // no events yet
  }
  for (const line of log.split('\n')) {
    if (!line) continue;
    try {
      const e = JSON.parse(line) as SessionEvent;
      if (e.type === 'file') files.add(e.path);
      else if (e.type === 'commit') commits.push(e.commit);
      else if (e.type === 'end') ended = { t: e.t, reason: e.reason };
    } catch {
      // a line cut short by a crash: skip it, keep the rest
    }
  }
  return { meta, files: [...files], commits, ended };
}

/**
 * The open session a command belongs to: the newest one whose harness process is among the
 * command's ancestors (a git hook run by Claude Code's Bash tool), or null.
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
      const meta = JSON.parse(readFileSync(join(sessionsDir(commonDir), n), 'utf8')) as SessionMeta;
      if (ancestorPids.includes(meta.ownerPid)) owned.push(meta);
    } catch {
      // a half-written or foreign file: not a session
    }
  }
  owned.sort((a, b) => (a.startedAt < b.startedAt ? 1 : -1));
  return owned.find((m) => readSession(commonDir, m.id)?.ended === null) ?? null;
}
