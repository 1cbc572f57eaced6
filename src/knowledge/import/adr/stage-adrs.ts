import { Decision } from '../../../model/decision.ts';
import { normalizeTitle } from '../../../model/dedup.ts';
import { formatId, nextId } from '../../../model/ids.ts';
import { decisionKind } from '../../../model/kinds/decision.ts';
import { isLive } from '../../../model/liveness.ts';
import { itemPath } from '../../../model/paths.ts';
import { isSlug, slugify, uniqueSlug } from '../../../model/slug.ts';
import { findDuplicate } from '../../core/identity.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { pathTaken, putItem, type Staged } from '../../core/staging.ts';
import { type CheckedDecision, checkDecision } from '../../items/decision/add-decision.ts';
import { firstLine, type ImportProblem } from '../import-folder.ts';
import type { AdrStyle } from './parse-adr.ts';
import type { AdrFile, AdrFolder } from './read-adr-folder.ts';

/**
 * One ADR of the import: `new` (written, or would be with dry_run), `exists` (already in the store),
 * `linked` (in the store, given a supersession link to a new one), `duplicate` (an earlier live ADR
 * of the folder has its title: not written; id and slug are that one's).
 */
export interface ImportedAdr {
  path: string;
  style: AdrStyle;
  id: string;
  slug: string;
  title: string;
  status: Decision['status'];
  outcome: 'new' | 'exists' | 'linked' | 'duplicate';
  /** imported, but not as the ADR says (a superseded ADR imported as revoked), and why */
  note?: string;
}

interface Entry {
  file: AdrFile;
  item: Decision;
  /** not in the store yet */
  fresh: boolean;
  /** in the store, and given a link */
  linked: boolean;
  /** a "superseded by" link of it, to an ADR of the folder, that was left out, and why */
  unlinked?: { to: Entry; why: string };
  /** imported, but not as the ADR says, and why */
  note?: string;
}

/**
 * Stages the decisions of an ADR folder. An ADR is already in the store when a decision has its
 * `source` (its file), else its normalized title: it is not written again. New ones keep their ADR
 * number as D-number when no decision has it. Supersession links (by file or number, from either
 * side) are set on both decisions; a link to an ADR the store already had updates that decision.
 * Files that fail the decision's checks, and links that lead nowhere, are returned as problems.
 */
export function stageAdrs(
  kb: KnowledgeBase,
  st: Staged,
  folder: AdrFolder,
  opts: { allowSecret: boolean },
): { items: ImportedAdr[]; problems: ImportProblem[] } {
  const problems: ImportProblem[] = [];
  const stored = st.state.items.decision;
  const used = new Set([...stored.flatMap((d) => [d.id, ...d.aliases]), ...(st.state.brokenIds.decision ?? [])]);
  const slugs = new Set<string>();
  const entries: Entry[] = [];
  const duplicates: Array<{ file: AdrFile; of: AdrFile }> = [];
  const checked: Array<{ file: AdrFile; data: CheckedDecision }> = [];
  /** the earlier files of the folder that are imported or in the store already: what a later one may duplicate */
  const taken: AdrFile[] = [];
  for (const file of folder.files) {
    const bySource = stored.find((d) => d.source === file.source);
    // decision add's rule: a live ADR of the folder with the same normalized title is the same decision,
    // whether it is new or in the store already, so a second import says what the first did
    const key = normalizeTitle(file.adr.title);
    const same = bySource ? undefined : taken.find((f) => normalizeTitle(f.adr.title) === key && isLive('decision', { status: f.adr.status }));
    if (same) {
      duplicates.push({ file, of: same });
      continue;
    }
    const existing = bySource ?? findDuplicate<Decision>(kb, st, 'decision', file.adr.title, () => true);
    if (existing) {
      entries.push({ file, item: existing, fresh: false, linked: false });
      taken.push(file);
      continue;
    }
    try {
      checked.push({
        file,
        data: checkDecision({ title: file.adr.title, decision: file.adr.decision, reasoning: file.adr.reasoning }, { allowSecret: opts.allowSecret }),
      });
      taken.push(file);
    } catch (err) {
      problems.push({ path: file.path, reason: firstLine(err) });
    }
  }
  // ADR numbers first, each to the first file holding it (when free); then the rest, after the highest
  const ids = new Map<AdrFile, string>();
  for (const { file } of checked) {
    const wanted = file.adr.number && file.adr.number > 0 ? formatId(decisionKind.idPrefix, file.adr.number) : null;
    if (wanted && !used.has(wanted)) {
      ids.set(file, wanted);
      used.add(wanted);
    }
  }
  for (const { file } of checked) {
    if (ids.has(file)) continue;
    const id = nextId(decisionKind.idPrefix, used);
    ids.set(file, id);
    used.add(id);
  }
  for (const { file, data } of checked) entries.push({ file, item: build(file, data, ids.get(file)!), fresh: true, linked: false });
  const order = new Map(folder.files.map((f, i) => [f, i]));
  entries.sort((a, b) => order.get(a.file)! - order.get(b.file)!);
  link(kb, entries, stored, problems);
  for (const e of entries) {
    if (e.fresh && e.file.adr.status === 'superseded' && !e.item.superseded_by) {
      // fsck wants a successor: without a link to one, the decision no longer holds
      const by = e.unlinked
        ? `superseded in the ADR by ${e.unlinked.to.file.path}, but that link is left out (${e.unlinked.why})`
        : `superseded in the ADR by an ADR that is not among those imported (${e.file.adr.links.find((l) => l.rel === 'superseded_by')?.text ?? 'no link'})`;
      e.item = { ...e.item, status: 'revoked', revoked_at: e.file.date, revoked_reason: by };
      e.note = `${by}: imported as revoked`;
    }
    if (e.fresh || e.linked) putItem(st, 'decision', e.item, 'import.adr', `decision ${e.item.id}`);
  }
  const items = entries.map(
    (e): ImportedAdr => ({ ...itemOf(e.file, e.item), outcome: e.fresh ? 'new' : e.linked ? 'linked' : 'exists', ...(e.note ? { note: e.note } : {}) }),
  );
  for (const { file, of } of duplicates) {
    const first = entries.find((e) => e.file === of)!.item;
    items.push({ ...itemOf(file, first), outcome: 'duplicate' });
    problems.push({
      path: file.path,
      reason: `same title as ${of.path} (${first.id}): a duplicate, not imported (decision add refuses it too); retitle one of them to import both`,
    });
  }
  const at = new Map(folder.files.map((f, i) => [f.path, i]));
  items.sort((a, b) => at.get(a.path)! - at.get(b.path)!);
  return { items, problems };

  function itemOf(file: AdrFile, d: Decision): Omit<ImportedAdr, 'outcome'> {
    return { path: file.path, style: file.adr.style, id: d.id, slug: d.slug, title: d.title, status: d.status };
  }

  function build(file: AdrFile, checked: CheckedDecision, id: string): Decision {
    const a = file.adr;
    const base = file.path
      .replace(/\.md$/i, '')
      .replace(/^(?:adr[-_]?)?\d+[-_.]+/i, '')
      .toLowerCase();
    const slug = uniqueSlug(isSlug(base) ? base : slugify(checked.title, id.toLowerCase()), (s) => slugs.has(s) || pathTaken(st, itemPath('decision', s)));
    const item = Decision.parse({
      slug,
      id,
      title: checked.title,
      decision: checked.decision,
      reasoning: checked.reasoning,
      enforce: a.enforce,
      status: a.status === 'revoked' ? 'revoked' : 'active',
      revoked_at: a.status === 'revoked' ? file.date : undefined,
      revoked_reason: a.revokedReason,
      source: file.source,
      session: kb.session,
      created: file.date,
      updated: file.date,
      extra: a.extra,
    });
    slugs.add(slug);
    return item;
  }
}

/** Supersession links of the ADRs, set on both sides (as fsck wants them); between two stored decisions the store's version wins. */
function link(kb: KnowledgeBase, entries: Entry[], stored: Decision[], problems: ImportProblem[]): void {
  const byFile = new Map(entries.map((e) => [e.file.path.toLowerCase(), e]));
  const byNumber = new Map<number, Entry>();
  for (const e of entries) if (e.file.adr.number !== null && !byNumber.has(e.file.adr.number)) byNumber.set(e.file.adr.number, e);
  const pairs: Array<[Entry, Entry]> = [];
  for (const e of entries) {
    for (const l of e.file.adr.links) {
      const target = l.file ? byFile.get(l.file.toLowerCase()) : l.number !== undefined ? byNumber.get(l.number) : undefined;
      if (!target) {
        if (e.fresh) problems.push({ path: e.file.path, reason: `"${l.text}" names no ADR among those imported: the link is left out` });
        continue;
      }
      if (target.item.slug === e.item.slug) continue;
      const [old, next] = l.rel === 'superseded_by' ? [e, target] : [target, e];
      if (!pairs.some(([o, n]) => o === old && n === next)) pairs.push([old, next]);
    }
  }
  const now = kb.now().toISOString();
  const current = (slug: string) => entries.find((e) => e.item.slug === slug)?.item ?? stored.find((d) => d.slug === slug);
  for (const [old, next] of pairs) {
    const o = old.item;
    const n = next.item;
    if ((!old.fresh && !next.fresh) || (o.superseded_by === n.slug && n.supersedes.includes(o.slug))) continue;
    const refuse = (why: string) => {
      problems.push({ path: (old.fresh ? old : next).file.path, reason: `${o.slug} superseded by ${n.slug}: ${why}: the link is left out` });
      old.unlinked ??= { to: next, why };
    };
    if (o.superseded_by && o.superseded_by !== n.slug) refuse(`the store has it superseded by ${o.superseded_by}`);
    else if (!old.fresh && o.status !== 'active') refuse(`the store has it ${o.status}`);
    else if (chainReaches(current, n.slug, o.slug)) refuse('it would make a cycle');
    else {
      old.item = {
        ...o,
        superseded_by: n.slug,
        status: 'superseded',
        revoked_at: undefined,
        revoked_reason: undefined,
        ...(old.fresh ? {} : { updated: now }),
      };
      next.item = { ...n, supersedes: [...new Set([...n.supersedes, o.slug])], ...(next.fresh ? {} : { updated: now }) };
      old.linked ||= !old.fresh;
      next.linked ||= !next.fresh;
    }
  }
}

/** True when following superseded_by from `from` reaches `to`. */
function chainReaches(current: (slug: string) => Decision | undefined, from: string, to: string): boolean {
  const seen = new Set<string>();
  for (let s: string | undefined = from; s && !seen.has(s); s = current(s)?.superseded_by) {
    if (s === to) return true;
    seen.add(s);
  }
  return false;
}
