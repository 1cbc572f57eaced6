import type { SessionState } from '../../session/sessions.ts';
import { commitSubjects, uncommitted } from '../../store/code-commits.ts';
import { withoutRepoEnv } from '../../store/git.ts';
import { clientOfHarness } from '../../transcript/clients.ts';
import { type TranscriptGist, transcriptGist } from '../../transcript/gist.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { worklog } from '../history/worklog.ts';
import { committable } from './finalize-close.ts';

/** What is known of a session without its agent's word: its record, its commits, its transcript's gist. */
export interface Facts {
  files: string[];
  /** other-than-repository paths the session touched, counted only */
  outside: number;
  dirty: Array<{ path: string; status: string }>;
  commits: Array<{ commit: string; subject: string }>;
  knowledge: string[];
  gist: TranscriptGist | null;
}

/** The facts of session `s` (its recovery's and its checkpoint's material). */
export async function gatherFacts(kb: KnowledgeBase, s: SessionState): Promise<Facts> {
  const files = committable(s.files);
  const at = { cwd: s.meta.cwd, env: withoutRepoEnv(kb.repo.env) };
  const [commits, dirty, knowledge, gist] = await Promise.all([
    commitSubjects(at, s.commits.slice(-50)).catch(() => []),
    uncommitted(at, files.slice(0, 200)).catch(() => []),
    // unknown is not "none": a session whose knowledge could not be looked up is never set aside as empty
    sessionKnowledge(kb, s).catch((err: Error) => [`(the knowledge this session saved could not be listed: ${err.message})`]),
    // in the format of the client whose hooks opened the session, else the one its first line shows
    transcriptGist(s.meta.transcriptPath, clientOfHarness(s.meta.harness)),
  ]);
  return {
    files,
    outside: s.files.length - files.length,
    dirty,
    commits,
    knowledge,
    gist, // its texts are redacted where the transcript is read
  };
}

/** Subjects of the knowledge commits the session made (decisions, memories saved before it stopped). */
async function sessionKnowledge(kb: KnowledgeBase, s: SessionState): Promise<string[]> {
  const log = await worklog(kb, { since: s.meta.startedAt.slice(0, 10), limit: 10_000 });
  return log
    .filter((e) => e.session === s.meta.id && e.event !== 'session.recovered')
    .map((e) => e.subject)
    .reverse();
}
