import { join } from 'node:path';
import { FORMAT_VERSION } from '../../model/config.ts';
import { AxmeError } from '../../model/errors.ts';
import { writeFileAtomicSync } from '../../store/atomic-file.ts';
import { readStringMap } from '../../store/string-map-file.ts';
import { readSnapshot, type Snapshot } from '../../store/tree.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { parseSnapshot } from '../core/state.ts';
import { checkRemoteTree, idsChangedByRemote, idsTakenByRemote } from './inbound.ts';

/**
 * The store's tip this clone and each remote last agreed on: what a sync that ended with both
 * holding it left (machine-local, `<git-common-dir>/axme/agreed-tips.json`, remote name to commit).
 * The merge base alone is what a remote's history says: one force-pushed from a commit older than
 * an item, or with no common history, meets the item as new on both sides. The agreed tip is this
 * clone's own record of what reached the remote, so an ID an item had there is held to whatever
 * base the remote's history offers.
 */
const agreedPath = (commonDir: string) => join(commonDir, 'axme', 'agreed-tips.json');

const readAgreed = (commonDir: string): Record<string, string> => readStringMap(agreedPath(commonDir));

/** Records that this clone and `remote` both hold `tip` now (a sync's end). */
export function recordAgreedTip(commonDir: string, remote: string, tip: string): void {
  const all = readAgreed(commonDir);
  if (all[remote] === tip) return;
  writeFileAtomicSync(agreedPath(commonDir), `${JSON.stringify({ ...all, [remote]: tip }, null, 2)}\n`);
}

/** The tip this clone and `remote` last agreed on; null when none is recorded. */
export function agreedTip(commonDir: string, remote: string): string | null {
  const tip = readAgreed(commonDir)[remote];
  return tip !== undefined && /^[0-9a-f]{40,64}$/.test(tip) ? tip : null;
}

/** The store at `tip`; null when there is none or its commit is gone (a clone that pruned it). */
async function snapshotAt(kb: KnowledgeBase, tip: string | null): Promise<Snapshot | null> {
  if (!tip) return null;
  try {
    return await readSnapshot(kb.repo.backend, tip);
  } catch {
    return null;
  }
}

/**
 * The one check of a remote's store before anything of it is taken, by a sync (a fast-forward or a
 * merge) or by `axme init` starting a fresh clone's store from it: its tree (checkRemoteTree), then
 * its files (validateRemote). `ours`: the local store (null: none yet); `base`: the common base's;
 * `agreed`: the tip this clone and the remote last agreed on. Returns the remote's snapshot;
 * CORRUPT, with nothing changed, when it is refused.
 */
export async function checkRemoteStore(
  kb: KnowledgeBase,
  label: string,
  tip: string,
  ours: Snapshot | null,
  base: Snapshot | null = null,
  agreed: string | null = null,
): Promise<Snapshot> {
  await checkRemoteTree(kb, label, tip, ours);
  const theirs = await readSnapshot(kb.repo.backend, tip);
  await validateRemote(kb, label, tip, theirs, ours, base, agreed);
  return theirs;
}

/**
 * A remote store must be readable before it is merged: a newer format, or items that do not
 * parse (and are not broken the same way here already), stop the sync with nothing changed; so do
 * items that take a display ID one here carries, or change one this clone holds with the ID it had
 * at the common base (`baseSnap`) or at the tip this clone and the remote last agreed on
 * (`agreed`, agreedTip) (inbound.ts).
 */
export async function validateRemote(
  kb: KnowledgeBase,
  remote: string,
  remoteTip: string,
  snap: Snapshot,
  localSnap: Snapshot | null,
  baseSnap: Snapshot | null,
  agreed: string | null,
): Promise<void> {
  const state = await parseSnapshot(kb, snap);
  const local = localSnap ? await parseSnapshot(kb, localSnap) : null;
  const parsed = async (s: Snapshot | null) => (s === null ? null : s === localSnap ? local : await parseSnapshot(kb, s));
  const earlier = [await parsed(baseSnap), agreed === baseSnap?.commit ? null : await parsed(await snapshotAt(kb, agreed))];
  const problems = [
    ...state.diagnostics.filter((d) => d.severity === 'error' && snap.files.get(d.path)?.oid !== localSnap?.files.get(d.path)?.oid),
    ...idsTakenByRemote(state, local),
    ...idsChangedByRemote(state, local, earlier),
  ];
  const format = state.config?.format;
  if (typeof format === 'number' && format > FORMAT_VERSION) {
    throw new AxmeError(
      'CORRUPT',
      `${remote}'s knowledge uses storage format ${format}, newer than this axme reads (${FORMAT_VERSION}): upgrade axme, then sync. Nothing was changed.`,
      { remote, format },
    );
  }
  if (problems.length) {
    const list = problems
      .slice(0, 10)
      .map((d) => `${d.path}: ${d.reason}`)
      .join('; ');
    throw new AxmeError(
      'CORRUPT',
      `refusing to merge ${remote}'s knowledge (${remoteTip.slice(0, 12)}): ${problems.length === 1 ? '1 file does not validate' : `${problems.length} files do not validate`} — ${list}${problems.length > 10 ? '; ...' : ''}. Nothing was changed; fix ${problems.length === 1 ? 'it where it was' : 'them where they were'} written (axme fsck there) and sync again.`,
      { remote, problems },
    );
  }
}
