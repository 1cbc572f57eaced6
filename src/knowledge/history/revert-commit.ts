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
import { changesAfter, dependsOn, type MergedChange } from './revert-later.ts';
import { revertMergedItem } from './revert-merged-item.ts';

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

/**
 * `axme revert <commit>`: undoes one commit of the knowledge as a new commit (history kept: the
 * undone commit stays where it was). Every file the commit changed goes back to its version
 * before it (for a merge: before the merge, on its first parent's line). Refused when a later
 * commit — one that descends from it — changed one of those files (WRONG_STATE, naming each such
 * commit: revert it first); a concurrent edit a sync merged in is not later: the fields the commit
 * changed go back and the other side's change stays (revert-merged-item.ts), refused only when
 * both changed one field. Refused also when
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
    const { later, merged } = await changesAfter(
      kb,
      target,
      tip,
      changed.map((f) => f.path),
    );
    if (later.length) throw dependsOn(target, subject, later);
    const files = await revertedFiles(kb, target, subject, changed, merged, state);
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

/**
 * The text each changed file goes back to (null: removed). A file a merge after the commit left as
 * the commit wrote it goes back to its version before; one the merge combined with the other
 * side's change is undone field by field; a field both changed refuses the revert, naming the merge.
 */
async function revertedFiles(
  kb: KnowledgeBase,
  target: string,
  subject: string,
  changed: Array<{ path: string; before: string | null; after: string | null }>,
  merged: MergedChange[],
  state: KnowledgeState,
): Promise<Map<string, string | null>> {
  const text = async (oid: string | null | undefined) => (oid ? (await kb.repo.backend.readBlob(oid)).toString('utf8') : null);
  const files = new Map<string, string | null>();
  const clashes: Array<{ merge: MergedChange; path: string; fields: string[] }> = [];
  for (const f of changed) {
    const now = state.snapshot.files.get(f.path)?.oid ?? null;
    const merge = merged.find((m) => m.paths.includes(f.path));
    if (!merge || now === f.after) {
      files.set(f.path, await text(f.before));
      continue;
    }
    const r = revertMergedItem(f.path, await text(f.before), await text(f.after), await text(now));
    if (r.ok) files.set(f.path, r.text);
    else clashes.push({ merge, path: f.path, fields: r.fields });
  }
  if (clashes.length) {
    const named = clashes
      .map((c) => `${c.merge.commit.slice(0, 12)} (${c.merge.subject}) combined ${c.path} with a concurrent change of ${c.fields.join(', ')}`)
      .join('; ');
    throw new AxmeError(
      'WRONG_STATE',
      `cannot revert ${target.slice(0, 12)} (${subject}): a concurrent commit changed what it changed, and a sync merged both — ${named}. Nothing was changed. Change the item itself to the value you want.`,
      { commit: target, merged: clashes.map((c) => ({ commit: c.merge.commit, subject: c.merge.subject, path: c.path, fields: c.fields })) },
    );
  }
  return files;
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
