import { classifyPath } from '../../model/paths.ts';
import { findSecrets } from '../../model/secrets.ts';
import { resolveAt } from '../../store/revision.ts';
import { snapshotAt } from '../../store/tree.ts';
import { type KnowledgeBase, notInitialized } from '../core/kb.ts';
import type { Diagnostic } from '../core/state.ts';
import { checkStore, type FsckResult } from './check-store.ts';

export interface CheckResult extends FsckResult {
  /** item, rules and config files scanned for credentials */
  scanned: number;
}

/**
 * `axme check [<rev>]`: what CI runs on a knowledge pull request. Everything `axme fsck`
 * checks (objects, schemas, unique IDs, the supersession graph, rule files that parse), plus
 * no credentials in any file — a secret saved with --allow-secret, or written by hand, is a
 * finding here, because a merged PR shares it with everyone who fetches.
 */
export async function checkKnowledge(kb: KnowledgeBase, opts: { at?: string | undefined } = {}): Promise<CheckResult> {
  // resolved here so that a bad revision is named as the argument it was, not as --at
  const commit = await resolveAt(kb.repo, kb.ref, opts.at, kb.now(), 'revision');
  if (!commit) throw notInitialized(kb);
  const r = await checkStore(kb, { at: commit });
  const snap = await snapshotAt(kb.repo, r.commit);
  const findings: Diagnostic[] = [...r.findings];
  const paths = [...snap.files.keys()].filter((p) => classifyPath(p).type !== 'other');
  await Promise.all(
    paths.map(async (path) => {
      let text: string;
      try {
        text = (await kb.repo.backend.readBlob(snap.files.get(path)!.oid)).toString('utf8');
      } catch {
        return; // a missing object is already a finding of checkStore
      }
      // every credential of the file, each on its line: a CI run shows all that a merge would share
      for (const f of findSecrets('content', text)) {
        const line = text.slice(0, f.index).split('\n').length;
        findings.push({
          path,
          severity: 'error',
          line,
          reason: `line ${line} looks like it contains ${f.what} (pattern ${f.pattern}): knowledge is shared with everyone who fetches it. Remove the credential (refer to where it is kept instead); history keeps it, so rotate it too`,
        });
      }
    }),
  );
  findings.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : (a.line ?? 0) - (b.line ?? 0)));
  return { ...r, ok: !findings.some((f) => f.severity === 'error'), findings, scanned: paths.length };
}
