import { SessionSummary } from '../../model/session-summary.ts';
import type { SessionState } from '../../session/sessions.ts';
import { committable } from './finalize-close.ts';
import { count, list, quote } from './phrases.ts';
import type { Facts } from './session-facts.ts';

/**
 * What a recovery writes, from a session's facts alone: the handoff's fields, the summary's
 * worklog paragraph, and a closed session's summary with the work recorded after its close.
 */

/**
 * A closed session's summary with the work recorded after its close added (files and commits
 * merged in, one worklog paragraph appended); null when there is none, or it is already there.
 */
export function summaryAfterClose(prev: SessionSummary, s: SessionState, f: Facts, now: string): SessionSummary | null {
  const files = committable(s.pending.files).filter((p) => !prev.files_changed.includes(p));
  const commits = s.pending.commits.filter((c) => !prev.commits.includes(c));
  if (!files.length && !commits.length) return null;
  const subjects = f.commits.filter((c) => commits.includes(c.commit));
  const bits = [
    `After the close the session went on (recorded by axme's hooks, ${s.ended ? `ended ${s.ended.t.slice(0, 16).replace('T', ' ')} UTC` : 'its harness is gone'}):`,
  ];
  if (files.length) bits.push(`${count(files.length, 'more file')} changed (${list(files, 30)})`);
  if (commits.length)
    bits.push(
      `${count(commits.length, 'more commit')}${
        subjects.length
          ? ` (${subjects
              .slice(0, 10)
              .map((c) => `${c.commit.slice(0, 12)} ${c.subject}`)
              .join('; ')})`
          : ''
      }`,
    );
  return SessionSummary.parse({
    ...prev,
    files_changed: [...prev.files_changed, ...files],
    commits: [...prev.commits, ...commits],
    worklog: `${prev.worklog}${prev.worklog ? '\n\n' : ''}${bits[0]} ${bits.slice(1).join('; ')}.`,
    updated: now,
  });
}

/** The fields of the recovered handoff of session `s`: how it ran and stopped, what it left, what to do next. */
export function handoffText(s: SessionState, f: Facts) {
  const end = s.ended?.t ?? s.lastActivity;
  const how = s.ended ? `ended (${s.ended.reason}) without a close` : 'stopped without a close (its harness is gone)';
  const parts: string[] = [
    `The session ran ${duration(s.meta.startedAt, end)} (${s.meta.startedAt.slice(0, 16).replace('T', ' ')} to ${end.slice(0, 16).replace('T', ' ')} UTC) and ${how}; axme recovered this from its record.`,
  ];
  if (f.gist?.firstPrompt) parts.push(`First request: ${quote(f.gist.firstPrompt)}`);
  if (f.files.length) parts.push(`Files changed (${f.files.length}): ${list(f.files, 30)}${f.outside ? ` (and ${f.outside} outside the repository)` : ''}`);
  if (f.commits.length)
    parts.push(
      `Commits (${f.commits.length}):\n${f.commits
        .slice(0, 20)
        .map((c) => `- ${c.commit.slice(0, 12)} ${c.subject}`)
        .join('\n')}`,
    );
  if (f.knowledge.length)
    parts.push(
      `Knowledge saved:\n${f.knowledge
        .slice(0, 20)
        .map((k) => `- ${k}`)
        .join('\n')}`,
    );
  const stopped = f.gist?.lastPrompt ? `last request ${quote(f.gist.lastPrompt)}` : f.files.length ? `after editing ${f.files.at(-1)}` : 'unknown';
  const next: string[] = [];
  if (f.dirty.length)
    next.push(
      `Review the uncommitted changes (${list(
        f.dirty.map((d) => `${d.path} [${d.status}]`),
        15,
      )}) and commit or discard them.`,
    );
  if (f.gist?.lastPrompt) next.push(`Ask the user whether ${quote(f.gist.lastPrompt)} was finished.`);
  next.push('Save any decisions or memories from that session that are not stored yet.');
  return {
    stopped_at: `Session ended without a handoff; ${stopped}`.slice(0, 2000),
    summary: parts.join('\n\n'),
    in_progress: f.dirty.length
      ? `Uncommitted changes in: ${list(
          f.dirty.map((d) => d.path),
          30,
        )}`
      : '',
    next_steps: next.join('\n'),
    test_results: '',
    blockers: '',
    startup_text: `The previous session (${s.meta.id}, ${s.meta.startedAt.slice(0, 10)}) ended without a handoff. From its record: ${count(f.files.length, 'file')} changed, ${count(f.commits.length, 'commit')}${f.dirty.length ? `, ${count(f.dirty.length, 'file')} still uncommitted` : ''}${f.gist?.lastPrompt ? `; the last request was ${quote(f.gist.lastPrompt)}` : ''}. Ask whether to continue it.`,
    prs: [],
    dirty_branches: [],
  };
}

/** The recovered summary's worklog paragraph (also the recovery commit's body). */
export function worklogText(s: SessionState, f: Facts): string {
  const bits = [
    `Recovered by axme (the session ended without a close). Ran ${duration(s.meta.startedAt, s.ended?.t ?? s.lastActivity)}; ${count(f.files.length, 'file')} changed, ${count(f.commits.length, 'commit')}, ${count(f.knowledge.length, 'knowledge change')}.`,
  ];
  if (f.gist?.firstPrompt) bits.push(`Began with ${quote(f.gist.firstPrompt)}.`);
  if (f.gist?.lastReply) bits.push(`The agent's last words: ${quote(f.gist.lastReply)}`);
  return bits.join(' ');
}

/** How long from `from` to `to`: `N min`, or `H h M min`. */
function duration(from: string, to: string): string {
  const min = Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 60_000));
  return min < 60 ? `${min} min` : `${Math.floor(min / 60)} h ${min % 60} min`;
}
