import { Decision } from '../../../model/decision.ts';
import { formatId, nextId } from '../../../model/ids.ts';
import { decisionKind } from '../../../model/kinds/decision.ts';
import { itemPath } from '../../../model/paths.ts';
import { isSlug, slugify, uniqueSlug } from '../../../model/slug.ts';
import { findDuplicate } from '../../core/identity.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { pathTaken, putItem, type Staged } from '../../core/staging.ts';
import { checkDecision } from '../../items/decision/add-decision.ts';
import { firstLine, type ImportProblem } from '../import-folder.ts';
import type { AdrStyle } from './parse-adr.ts';
import type { AdrFile, AdrFolder } from './read-adr-folder.ts';

/** One ADR of the import: `new` (written, or would be with dry_run), `exists` (already in the store), `linked` (in the store, given a supersession link to a new one). */
export interface ImportedAdr {
  path: string;
  style: AdrStyle;
  id: string;
  slug: string;
  title: string;
  status: Decision['status'];
  outcome: 'new' | 'exists' | 'linked';
}

interface Entry {
  file: AdrFile;
  item: Decision;
  /** not in the store yet */
  fresh: boolean;
  /** in the store, and given a link */
  linked: boolean;
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
  for (const file of folder.files) {
    const existing = stored.find((d) => d.source === file.source) ?? findDuplicate<Decision>(kb, st, 'decision', file.adr.title, () => true);
    if (existing) {
      entries.push({ file, item: existing, fresh: false, linked: false });
      continue;
    }
    try {
      entries.push({ file, item: build(file), fresh: true, linked: false });
    } catch (err) {
      problems.push({ path: file.path, reason: firstLine(err) });
    }
  }
  link(kb, entries, stored, problems);
  for (const e of entries) {
    if (e.fresh && e.file.adr.status === 'superseded' && !e.item.superseded_by) {
      // fsck wants a successor: without one among the imported ADRs, the decision no longer holds
      e.item = {
        ...e.item,
        status: 'revoked',
        revoked_at: e.file.date,
        revoked_reason: `superseded in the ADR by an ADR that was not imported (${e.file.adr.links.find((l) => l.rel === 'superseded_by')?.text ?? 'no link'})`,
      };
      problems.push({ path: e.file.path, reason: 'superseded by an ADR that is not among those imported: imported as revoked' });
    }
    if (e.fresh || e.linked) putItem(st, 'decision', e.item, 'import.adr', `decision ${e.item.id}`);
  }
  const items = entries.map(
    (e): ImportedAdr => ({
      path: e.file.path,
      style: e.file.adr.style,
      id: e.item.id,
      slug: e.item.slug,
      title: e.item.title,
      status: e.item.status,
      outcome: e.fresh ? 'new' : e.linked ? 'linked' : 'exists',
    }),
  );
  return { items, problems };

  function build(file: AdrFile): Decision {
    const a = file.adr;
    const checked = checkDecision({ title: a.title, decision: a.decision, reasoning: a.reasoning }, { allowSecret: opts.allowSecret });
    const wanted = a.number && a.number > 0 ? formatId(decisionKind.idPrefix, a.number) : null;
    const id = wanted && !used.has(wanted) ? wanted : nextId(decisionKind.idPrefix, used);
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
    used.add(id);
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
    const refuse = (reason: string) =>
      problems.push({ path: (old.fresh ? old : next).file.path, reason: `${o.slug} superseded by ${n.slug}: ${reason}: the link is left out` });
    if (o.superseded_by && o.superseded_by !== n.slug) refuse(`the store has it superseded by ${o.superseded_by}`);
    else if (!old.fresh && o.status !== 'active') refuse(`the store has it ${o.status}`);
    else if (chainReaches(current, n.slug, o.slug)) refuse('that would make a cycle');
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
