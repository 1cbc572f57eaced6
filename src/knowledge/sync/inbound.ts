import { AxmeError } from '../../model/errors.ts';
import { ID_KINDS } from '../../model/kinds.ts';
import { formatSize, LIMITS } from '../../model/limits.ts';
import { CONFIG_PATH, classifyPath, itemPath, RULES_PATH, SPECS } from '../../model/paths.ts';
import { applyChanges, changedFiles, type Snapshot } from '../../store/tree.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { loosenedBy } from '../core/loosened-by.ts';
import { rulesLoosening } from '../core/rules-loosening.ts';
import { sharedIds } from '../core/shared-ids.ts';
import { type Diagnostic, type KnowledgeState, parseSnapshot } from '../core/state.ts';

/**
 * What a remote's knowledge must not bring in (docs/sync.md, "Refused remotes" and "Removals are
 * held"). The store travels through remotes the team may not control: its tree is data, and
 * data that no axme writes — a path git itself would refuse to check out, a file no axme store
 * keeps, a blob over the item size limit — stops the sync before anything local changes, and
 * what only a person here may take — the loss of items, a loosening of what binds agents — is
 * held with a question until they take it (held-sync.ts).
 */

/** The top-level names of a store: axme.yaml, safety/ and one folder per kind of item. */
const TOP_LEVEL = new Set([CONFIG_PATH, RULES_PATH.split('/')[0]!, ...Object.values(SPECS).map((s) => s.dir)]);

/** Why one path component of a tree entry is not one git would check out, or null. */
function componentProblem(name: string): string | null {
  if (name === '') return 'an empty name (an absolute path or a doubled "/")';
  if (name === '.' || name === '..') return `a "${name}" component`;
  if (name.toLowerCase() === '.git') return 'a ".git" component';
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) return 'a control character in its name';
  return null;
}

/** One entry of the remote tree and why it is refused. */
export interface RefusedEntry {
  path: string;
  reason: string;
}

/**
 * Refuses (CORRUPT, nothing changed) a remote tree holding an entry no axme store holds: a path
 * with `.`, `..`, `.git`, an empty name or a control character; a symbolic link or a submodule;
 * a file over the size limit of one item (LIMITS.fileBytes); a top-level file or folder that is
 * not axme's. An entry the local store holds already, the same, is not refused again. Read
 * from the tree listing alone: no blob of the remote is read before this passes.
 */
export async function checkRemoteTree(kb: KnowledgeBase, label: string, tip: string, local: Snapshot | null): Promise<void> {
  const r = await kb.repo.git(['ls-tree', '-r', '-l', '-z', '--full-tree', tip]);
  const refused: RefusedEntry[] = [];
  const localTop = new Set([...(local?.files.keys() ?? [])].map((p) => p.split('/')[0]));
  for (const line of r.stdout.toString('utf8').split('\0')) {
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const [mode, type, oid, size] = line.slice(0, tab).split(/\s+/);
    const path = line.slice(tab + 1);
    const same = local?.files.get(path)?.oid === oid;
    if (same) continue;
    const parts = path.split('/');
    const bad = parts.map(componentProblem).find((p) => p !== null);
    if (bad) refused.push({ path, reason: `${bad}: not a path git checks out` });
    else if (type !== 'blob') refused.push({ path, reason: `a ${type === 'commit' ? 'submodule' : type} entry, not a file` });
    else if (mode === '120000') refused.push({ path, reason: 'a symbolic link, not a file' });
    else if (Number(size) > LIMITS.fileBytes)
      refused.push({ path, reason: `${formatSize(Number(size))}, over the ${formatSize(LIMITS.fileBytes)} limit of one file` });
    else if (!TOP_LEVEL.has(parts[0]!) && !localTop.has(parts[0]!))
      refused.push({ path, reason: `not a file or folder of an axme store (${[...TOP_LEVEL].join(', ')})` });
  }
  if (!refused.length) return;
  throw new AxmeError(
    'CORRUPT',
    `refusing ${label}'s knowledge (${tip.slice(0, 12)}): ${refusedList(refused, 'no axme store holds')}. Nothing was changed; remove them from ${label}'s refs/memory/main where they were written, then sync again.`,
    { remote: label, refused },
  );
}

/** `N entries <what> — "path": reason; …`, the first 10, each path quoted as JSON (a control character never printed raw). */
function refusedList(refused: RefusedEntry[], what: string): string {
  const list = refused
    .slice(0, 10)
    .map((e) => `${JSON.stringify(e.path)}: ${e.reason}`)
    .join('; ');
  return `${refused.length} entr${refused.length === 1 ? 'y' : 'ies'} ${what} — ${list}${refused.length > 10 ? '; ...' : ''}`;
}

/** The path of a note: the annotated object's name (40 or 64 hex digits), in fan-out folders of two digits or not. */
function notePath(path: string): boolean {
  const hex = path.split('/');
  const name = hex.join('');
  return (name.length === 40 || name.length === 64) && /^[0-9a-f]+$/.test(name) && hex.slice(0, -1).every((d) => d.length === 2);
}

/**
 * Refuses (CORRUPT, nothing changed) a remote's notes (refs/notes/axme) holding an entry no axme
 * note is: a path that is not an object's name, a link, a submodule or a folder where a note goes,
 * or a blob over the size limit of one file (a note is a few `key: value` lines; every read of
 * the history — `axme blame`, the page's code view, a rewrite's hook — would load it whole).
 * Read from the tree listing alone.
 */
export async function checkRemoteNotes(kb: KnowledgeBase, label: string, tip: string): Promise<void> {
  const r = await kb.repo.git(['ls-tree', '-r', '-l', '-z', '--full-tree', tip]);
  const refused: RefusedEntry[] = [];
  for (const line of r.stdout.toString('utf8').split('\0')) {
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const [mode, type, , size] = line.slice(0, tab).split(/\s+/);
    const path = line.slice(tab + 1);
    if (!notePath(path)) refused.push({ path, reason: "not an object's name: no note of axme's" });
    else if (type !== 'blob' || mode !== '100644')
      refused.push({ path, reason: `a ${mode === '120000' ? 'symbolic link' : type === 'commit' ? 'submodule' : type}, not a note` });
    else if (Number(size) > LIMITS.fileBytes)
      refused.push({ path, reason: `${formatSize(Number(size))}, over the ${formatSize(LIMITS.fileBytes)} limit of one file` });
  }
  if (!refused.length) return;
  throw new AxmeError(
    'CORRUPT',
    `refusing ${label}'s notes (refs/notes/axme at ${tip.slice(0, 12)}): ${refusedList(refused, 'no axme note is')}. Nothing was changed; remove them from ${label}'s refs/notes/axme, then sync again.`,
    { remote: label, refused },
  );
}

/**
 * The remote's items that take a display ID an item of this clone carries: the remote has both,
 * and only the one at the same path here carries that ID here. An item's `created` is whatever its
 * writer put there, and a merge gives a shared ID to the earlier one: a newcomer with the team's
 * required decision's ID, its title and a date far back would take D-001 over it, and every D-001
 * cited (commits, code, the context) would read the newcomer's text. One error on each such item,
 * for validateRemote to refuse. Newcomers that share an ID among themselves (two proposals merged
 * on the host) are left to the renumbering, and a clash this clone already has is not refused again.
 */
export function idsTakenByRemote(state: KnowledgeState, local: KnowledgeState | null): Diagnostic[] {
  if (!local) return [];
  const here = new Map(sharedIdsOf(local));
  return sharedIds(state.items).flatMap(({ kind, id, paths }) => {
    const holders = paths.filter((p) => here.get(`${kind}:${p}`) === id);
    if (!holders.length) return [];
    return paths
      .filter((p) => !holders.includes(p))
      .map(
        (path): Diagnostic => ({
          path,
          severity: 'error',
          reason: `display ID ${id} is also used by ${holders.join(', ')}, which has it here: an item may not take another's ID (renumber it and keep the old ID in aliases)`,
        }),
      );
  });
}

/**
 * The remote's items whose display ID is not the one they carry here and carried in an earlier
 * store both sides held (`earlier`: the merge base of this clone's tip and the remote's, and the
 * tip this clone and the remote last agreed on, validate-remote.ts): a merge renumbers only
 * newcomers (sync/merge/renumber-merged.ts), so no merge of the team's changes the ID of an item
 * that reached the remote; a remote that does has written it by hand (or rewritten its history),
 * and gives the old ID to another item or leaves every citation of it pointing nowhere. One error
 * on each such item, for validateRemote to refuse. An ID this clone changed itself (a merge here
 * renumbered its own newcomer) is not the remote's change.
 */
export function idsChangedByRemote(state: KnowledgeState, local: KnowledgeState | null, earlier: ReadonlyArray<KnowledgeState | null>): Diagnostic[] {
  if (!local) return [];
  const here = new Map(sharedIdsOf(local));
  const thens = earlier.filter((e): e is KnowledgeState => e !== null).map((e) => new Map(sharedIdsOf(e)));
  return sharedIdsOf(state).flatMap(([key, id]): Diagnostic[] => {
    const was = here.get(key);
    if (was === undefined || was === id || !thens.some((then) => then.get(key) === was)) return [];
    const path = key.slice(key.indexOf(':') + 1);
    return [
      {
        path,
        severity: 'error',
        reason: `display ID changed from ${was} to ${id}: it had ${was} here and when this clone last shared it, and a merge renumbers only newcomers (give it ${was} back and, if a new item took ${was}, renumber that one, keeping ${was} in its aliases)`,
      },
    ];
  });
}

/** Each item of an ID kind in `state` by `kind:path`, with its display ID. */
function sharedIdsOf(state: KnowledgeState): Array<[string, string]> {
  return ID_KINDS.flatMap((kind) =>
    (state.items[kind] as Array<{ id: string; slug: string }>).map((i): [string, string] => [`${kind}:${itemPath(kind, i.slug)}`, i.id]),
  );
}

/** Whether removing `path` loses knowledge: every item but handoffs (which each close prunes to the newest few), the settings and the rules. */
function counted(path: string): boolean {
  if (path === CONFIG_PATH || path === RULES_PATH) return true;
  const c = classifyPath(path);
  return c.type === 'item' && c.spec.kind !== 'handoff';
}

/** The paths the local store holds that taking the remote would remove: `next` is the remote's snapshot (a fast-forward) or the merge's changes (null removes). */
export function removedBy(local: Snapshot, next: Snapshot | Map<string, Buffer | null>): string[] {
  if (next instanceof Map)
    return [...next]
      .filter(([p, b]) => b === null && local.files.has(p) && counted(p))
      .map(([p]) => p)
      .sort();
  return [...local.files.keys()].filter((p) => !next.files.has(p) && counted(p)).sort();
}

/** What a remote change loosens: one reason a kind (`loosened` in JSON), and the same reasons as said to a person, each rule value named. */
export interface Loosening {
  reasons: string[];
  said: string[];
}

/**
 * What taking a remote's knowledge would loosen of what binds agents here (core/loosened-by.ts:
 * the safety rules letting more through, review switched off, a required decision let go);
 * `next` is the remote's snapshot (a fast-forward) or the merge's changes. Read only when the
 * change touches the rules, the settings or a decision. The rules' reason is said with the values
 * that loosen (core/rules-loosening.ts), the first 10.
 */
export async function loosenedByRemote(kb: KnowledgeBase, local: Snapshot, next: Snapshot | Map<string, Buffer | null>): Promise<Loosening> {
  const paths = [...(next instanceof Map ? next.keys() : changedFiles(local, next).keys())];
  const decisions = `${SPECS.decision.dir}/`;
  if (!paths.some((p) => p === RULES_PATH || p === CONFIG_PATH || p.startsWith(decisions))) return { reasons: [], said: [] };
  const after = next instanceof Map ? await applyChanges(kb.repo.backend, local, next) : next;
  const [now, then] = [await parseSnapshot(kb, local), await parseSnapshot(kb, after)];
  const reasons = loosenedBy(now, then, paths);
  const values = rulesLoosening(now.rules, then.rules);
  const named = values.slice(0, 10).join('; ') + (values.length > 10 ? `; and ${values.length - 10} more` : '');
  const said = reasons.map((r) => (r.startsWith(`${RULES_PATH} `) && values.length ? `${r}: ${named}` : r));
  return { reasons, said };
}
