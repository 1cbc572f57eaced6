import { z } from 'zod';
import { AxmeError } from '../../model/errors.ts';
import { decodeItem, type ItemBase, type KindSpec } from '../../model/kind.ts';
import { ID_KINDS } from '../../model/kinds.ts';
import { CONFIG_PATH, classifyPath, itemPath, RULES_PATH, SPECS } from '../../model/paths.ts';
import { parseInput } from '../../model/validate.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { loosenedBy } from '../core/loosened-by.ts';
import { mutate } from '../core/mutate.ts';
import { renumberCollisions } from '../core/renumber-ids.ts';
import { type KnowledgeState, readState } from '../core/state.ts';

export const RevertInput = z.object({
  commit: z
    .string()
    .trim()
    .regex(/^[0-9a-fA-F]{4,40}$/, 'a commit OID: 4 to 40 hex digits (`axme log` lists them)')
    .describe('the commit of refs/memory/main to undo: its OID or an unambiguous prefix of it (`axme log` lists them)'),
});
export type RevertInput = z.input<typeof RevertInput>;

export interface RevertResult {
  /** the commit undone, and its subject */
  reverted: string;
  subject: string;
  /** the new commit that undoes it */
  commit: string;
  /** the ref written: refs/memory/main, or the session's proposal when an agent's writes are reviewed */
  ref: string;
  /** each file put back as it was before the commit: restored (changed back), removed (the commit added it), re-added (the commit removed it) */
  files: Array<{ path: string; change: 'restored' | 'removed' | 're-added' }>;
  /** items put back whose display ID another item took after the commit: each takes the next free ID and keeps the old one as an alias */
  renumbered: Array<{ path: string; from: string; to: string }>;
}

/** A later commit that changed files the reverted commit changed: the revert waits for it. */
export interface LaterChange {
  commit: string;
  subject: string;
  paths: string[];
}

const RS = '\x1e';
const FS = '\x1f';

/**
 * `axme revert <commit>`: undoes one commit of the knowledge as a new commit (history kept: the
 * undone commit stays where it was). Every file the commit changed goes back to its version
 * before it (for a merge: before the merge, on its first parent's line). Refused when a later
 * commit changed one of those files (WRONG_STATE, naming each such commit: revert it first), when
 * the commit is not on the ref, or is its first. An agent's revert goes where its writes go (its
 * proposal when `review.required`), and one that would loosen what binds it (safety rules,
 * review, a required decision) is a person's to make (NOT_ALLOWED), as on every other surface.
 */
export async function revertCommit(kb: KnowledgeBase, input: RevertInput): Promise<RevertResult> {
  const data = parseInput(RevertInput, input, 'revert');
  const target = await resolveCommit(kb, data.commit);
  const r = await mutate(kb, async (state) => {
    const tip = state.commit!;
    const onRef = await kb.repo.git(['merge-base', '--is-ancestor', target, tip], { allowFail: true });
    if (onRef.code !== 0)
      throw new AxmeError('NOT_FOUND', `${target.slice(0, 12)} is not a commit of ${kb.ref}: \`axme log\` lists the commits that can be reverted`, {
        commit: target,
      });
    const c = await kb.repo.backend.readCommit(target);
    const subject = c.message.split('\n')[0]!.trim();
    const parent = c.parents[0];
    if (!parent)
      throw new AxmeError('WRONG_STATE', `${target.slice(0, 12)} (${subject}) is the first commit of ${kb.ref}: there is no earlier state to go back to`, {
        commit: target,
      });
    const changed = await changedFiles(kb, parent, target);
    if (!changed.length)
      throw new AxmeError(
        'WRONG_STATE',
        `${target.slice(0, 12)} (${subject}) changed no file against its ${c.parents.length > 1 ? 'first parent' : 'parent'}: nothing to revert`,
        { commit: target },
      );
    const later = await laterChanges(
      kb,
      target,
      tip,
      changed.map((f) => f.path),
    );
    if (later.length) throw dependsOn(target, subject, later);
    const files = new Map<string, string | null>();
    for (const f of changed) files.set(f.path, f.before === null ? null : (await kb.repo.backend.readBlob(f.before)).toString('utf8'));
    if (kb.actor !== 'human') await refuseLoosening(kb, state, parent, target, files);
    // an item brought back whose display ID another item took meanwhile takes the next free one, the old kept as an alias
    const renumbered = renumberReturning(state, files);
    for (const x of renumbered) files.set(x.path, x.text);
    const result = {
      reverted: target,
      subject,
      files: changed.map((f) => ({
        path: f.path,
        change: f.before === null ? ('removed' as const) : f.after === null ? ('re-added' as const) : ('restored' as const),
      })),
      renumbered: renumbered.map(({ path, from, to }) => ({ path, from, to })),
    };
    return {
      result,
      files,
      subject: `revert: ${subject}`,
      event: 'store.reverted',
      body: [
        `Reverts ${target}: every file it changed is back to its version before it.`,
        ...renumbered.map((x) => `Renumbered ${x.from} -> ${x.to} (${x.path}): another item took ${x.from} after ${target.slice(0, 12)}.`),
      ].join('\n'),
    };
  });
  return { ...r.result, commit: r.commit!, ref: r.ref };
}

/**
 * The items a revert puts back (`files`: path to text, null for a removal) whose display ID an
 * item now in the store holds at another path (the reverted commit removed D-001, and a later add
 * took D-001): each takes the next free ID and keeps the old one as an alias, as a sync's merge
 * renumbers a newcomer (core/renumber-ids.ts); the item that holds the ID now keeps it.
 */
function renumberReturning(state: KnowledgeState, files: ReadonlyMap<string, string | null>): Array<{ path: string; from: string; to: string; text: string }> {
  const out: Array<{ path: string; from: string; to: string; text: string }> = [];
  for (const kind of ID_KINDS) {
    const spec = SPECS[kind] as unknown as KindSpec<ItemBase>;
    type Numbered = ItemBase & { id: string; aliases?: string[] };
    const returning: Array<{ path: string; item: Numbered }> = [];
    for (const [path, text] of files) {
      const c = classifyPath(path);
      if (text === null || c.type !== 'item' || c.spec.kind !== kind) continue;
      const decoded = decodeItem(spec, c.slug, text);
      if (decoded.ok) returning.push({ path, item: decoded.item as Numbered });
    }
    if (!returning.length) continue;
    const back = new Set(returning.map((e) => e.path));
    const staying = (state.items[kind] as Numbered[]).map((item) => ({ path: itemPath(kind, item.slug, item.created), item })).filter((e) => !back.has(e.path));
    out.push(...renumberCollisions(spec, [...staying, ...returning], (path) => (back.has(path) ? 1 : 0)).filter((x) => back.has(x.path)));
  }
  return out;
}

/** The full OID of a commit named by a hex prefix; NOT_FOUND when none or several. */
async function resolveCommit(kb: KnowledgeBase, hex: string): Promise<string> {
  const r = await kb.repo.git(['rev-parse', '--verify', '--quiet', `${hex}^{commit}`], { allowFail: true });
  const oid = r.stdout.toString('utf8').trim();
  if (r.code !== 0 || !oid)
    throw new AxmeError('NOT_FOUND', `no commit ${hex} (or the prefix names several): give more digits; \`axme log\` lists the commits of ${kb.ref}`, {
      commit: hex,
    });
  return oid;
}

/** The files a commit changed against `parent`, each with its blob before and after (null: absent). */
async function changedFiles(kb: KnowledgeBase, parent: string, commit: string): Promise<Array<{ path: string; before: string | null; after: string | null }>> {
  const out = (await kb.repo.git(['diff-tree', '-r', '--no-renames', '-z', parent, commit])).stdout.toString('utf8').split('\0');
  const files: Array<{ path: string; before: string | null; after: string | null }> = [];
  for (let i = 0; i + 1 < out.length; i += 2) {
    const [, , before, after] = out[i]!.split(' ');
    const none = (oid: string | undefined) => (!oid || /^0+$/.test(oid) ? null : oid);
    files.push({ path: out[i + 1]!, before: none(before), after: none(after) });
  }
  return files;
}

/** The commits after `commit` up to `tip` (on any line of history) that changed one of `paths`, newest first. */
async function laterChanges(kb: KnowledgeBase, commit: string, tip: string, paths: string[]): Promise<LaterChange[]> {
  if (commit === tip) return [];
  const r = await kb.repo.git(['log', '--full-history', '--name-only', `--format=${RS}%H${FS}%s`, `${commit}..${tip}`, '--', ...paths]);
  const wanted = new Set(paths);
  return (
    r.stdout
      .toString('utf8')
      .split(RS)
      .filter((s) => s.trim())
      .map((rec) => {
        const [head, ...rest] = rec.split('\n');
        const [oid, subject] = head!.split(FS);
        return { commit: oid!, subject: subject ?? '', paths: rest.map((p) => p.trim()).filter((p) => wanted.has(p)) };
      })
      // a merge lists no files of its own: it depends through the commits it brought, which are listed
      .filter((l) => l.paths.length > 0)
  );
}

function dependsOn(target: string, subject: string, later: LaterChange[]): AxmeError {
  const named = later
    .slice(0, 10)
    .map((l) => `${l.commit.slice(0, 12)} (${l.subject}) changed ${l.paths.join(', ')}`)
    .join('; ');
  const newest = later[0]!.commit.slice(0, 12);
  return new AxmeError(
    'WRONG_STATE',
    `cannot revert ${target.slice(0, 12)} (${subject}): ${later.length === 1 ? 'a later commit' : `${later.length} later commits`} changed the same files — ${named}${later.length > 10 ? '; ...' : ''}. Nothing was changed. Revert ${later.length === 1 ? 'it' : 'them, newest first,'} before this one (\`axme revert ${newest}\`), or change the items themselves.`,
    { commit: target, later },
  );
}

/** An agent's revert that would let more through (rules, review, a required decision) is refused: only a person loosens them. */
async function refuseLoosening(kb: KnowledgeBase, now: KnowledgeState, parent: string, target: string, files: Map<string, string | null>): Promise<void> {
  const touches = [...files.keys()].some((p) => p === RULES_PATH || p === CONFIG_PATH || p.startsWith('decisions/'));
  if (!touches) return;
  const before = await readState(kb, parent);
  const reasons = loosenedBy(now, before, [...files.keys()]);
  if (!reasons.length) return;
  throw new AxmeError(
    'NOT_ALLOWED',
    `reverting ${target.slice(0, 12)} would loosen what binds the agent (${reasons.join('; ')}), which only a person may do: ask the user to run \`axme revert ${target.slice(0, 12)}\` themselves`,
    { commit: target, reasons, actor: kb.actor },
  );
}
