import { LIMITS } from '../../../model/limits.ts';
import { OraclePage } from '../../../model/oracle.ts';
import { itemPath } from '../../../model/paths.ts';
import { detectOracleFacts } from '../../../scan/detect.ts';
import type { OracleFacts } from '../../../scan/facts.ts';
import { isSkipped } from '../../../scan/files.ts';
import { mergeRegion } from '../../../scan/region.ts';
import { ECOSYSTEM_LABELS, type RenderedPages, renderOracle } from '../../../scan/render.ts';
import { listWorktreeFiles, MAX_READ_BYTES, worktreeReader } from '../../../store/worktree-files.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { learnedAtNow, relearned } from '../../core/learned-at.ts';
import { learnedContentNow } from '../../core/learned-content.ts';
import { mutate } from '../../core/mutate.ts';
import { putItem, stage } from '../../core/staging.ts';
import { type KnowledgeState, readState } from '../../core/state.ts';

/** The pages the scan writes (the glossary is people's and is never touched). */
export const SCANNED_PAGES = ['stack', 'structure', 'patterns'] as const;
export type ScannedPage = (typeof SCANNED_PAGES)[number];

const TITLES: Record<ScannedPage, string> = { stack: 'Stack', structure: 'Structure', patterns: 'Patterns' };

export interface ScanOracleOptions {
  /** compute everything, commit nothing */
  dryRun?: boolean;
  /** at most this many files are scanned (default 200,000) */
  maxFiles?: number;
  /** write nothing when the working tree has no files yet (`axme init` in a new repository): pages saying only "None found" are noise */
  skipEmpty?: boolean;
}

export interface ScanOraclePage {
  slug: ScannedPage;
  path: string;
  /** true when the scan wrote (or, in a dry run, would write) the page */
  changed: boolean;
  /** why the page was left as it is, when the scan could not update it */
  skipped?: string;
}

export interface ScanOracleResult {
  /** the commit written, or null (nothing new, or a dry run) */
  commit: string | null;
  pages: ScanOraclePage[];
  facts: OracleFacts;
  /** a few lines for people */
  text: string;
  /** true when the file list hit its bound */
  truncated: boolean;
  dryRun: boolean;
  /** the working tree that was scanned */
  root: string;
}

interface PagePlan extends ScanOraclePage {
  item: OraclePage | null;
}

/**
 * Scans the working tree (stack, structure, patterns) and writes oracle/stack.md, structure.md
 * and patterns.md in ONE commit. Only the part between the `axme:scan` markers is replaced; text
 * around it is kept, and a page without markers keeps its text with the generated part appended.
 * A scan that finds nothing new commits nothing. INVALID_INPUT without a working tree.
 */
export async function scanOracle(kb: KnowledgeBase, opts: ScanOracleOptions = {}): Promise<ScanOracleResult> {
  const listing = await listWorktreeFiles(kb.repo, { limit: opts.maxFiles, exclude: isSkipped });
  const read = worktreeReader(listing.root, { maxBytes: MAX_READ_BYTES });
  const facts = detectOracleFacts({ files: listing.files, read }, listing);
  const rendered = renderOracle(facts);
  const anchors = manifestsOf(facts);
  const head = learnedAtNow(kb);
  const derived: Derivation = { anchors, head, content: await learnedContentNow(kb, listing.root, anchors, head) };
  const state0 = (await kb.repo.backend.resolveRef(kb.ref)) ? await readState(kb) : null;
  const moved = state0 ? await manifestsMoved(kb, state0, derived) : new Set<string>();
  let plans: PagePlan[];
  let commit: string | null = null;
  const empty = !!opts.skipEmpty && listing.files.length === 0;
  if (opts.dryRun || empty) {
    plans = planPages(kb, state0, rendered, derived, moved);
  } else {
    const r = await mutate(kb, (state) => {
      const st = stage(state);
      const planned = planPages(kb, state, rendered, derived, moved);
      const changed = planned.filter((p) => p.changed && p.item);
      for (const p of changed) putItem(st, 'oracle', p.item!, 'oracle.scanned', '');
      return {
        result: planned,
        files: st.files,
        staged: st,
        subject: `oracle: scan (${changed.map((p) => p.slug).join(', ')})`,
        event: 'oracle.scanned',
        body: projectsLine(facts),
      };
    });
    plans = r.result;
    commit = r.commit;
  }
  const pages = plans.map(({ item: _item, ...p }) => (empty ? { ...p, changed: false } : p));
  const text = empty
    ? 'The working tree has no files yet: nothing written. Run `axme oracle scan` once there is code.'
    : summary(facts, pages, commit, !!opts.dryRun, listing.files.length);
  return { commit, pages, facts, text, truncated: listing.truncated, dryRun: !!opts.dryRun, root: listing.root };
}

/** What the pages are derived from: the manifests read (their anchors) at the code commit HEAD points at (their learned_at). */
interface Derivation {
  anchors: string[];
  head: string | undefined;
  /** the manifests that differed from HEAD when scanned: the blob scanned */
  content: Record<string, string> | undefined;
}

/**
 * The manifests the scan read, as the stack page's anchors: `axme verify` marks it stale when one
 * changes. The structure and patterns pages come from the whole tree (folders, configuration
 * files): anchoring them to it would make them stale at every commit, so they have none.
 */
function manifestsOf(facts: OracleFacts): string[] {
  return [...new Set(facts.stack.projects.flatMap((p) => p.manifests))].sort().slice(0, LIMITS.listItems);
}

/**
 * The pages whose manifests changed between the commit they were learned at and HEAD: scanning
 * them again confirms them (a new learned_at) even when the text comes out the same, so that
 * `axme verify` stops calling them stale. One `git diff` per distinct learned_at.
 */
async function manifestsMoved(kb: KnowledgeBase, state: KnowledgeState, d: Derivation): Promise<Set<string>> {
  const moved = new Set<string>();
  if (!d.head || d.anchors.length === 0) return moved;
  const byCommit = new Map<string, string[]>();
  for (const p of state.items.oracle) {
    if (p.slug !== 'stack' || !p.learned_at || p.learned_at === d.head) continue;
    byCommit.set(p.learned_at, [...(byCommit.get(p.learned_at) ?? []), p.slug]);
  }
  for (const [at, slugs] of byCommit) {
    const r = await kb.repo.git(['diff', '--quiet', at, d.head, '--', ...d.anchors], { allowFail: true });
    if (r.code !== 0) for (const s of slugs) moved.add(s); // 1: changed; 128: the old commit is gone
  }
  return moved;
}

/** What each page becomes: its new item when its body, its anchors or (for moved manifests) its learned_at change, else why not. Pure. */
function planPages(kb: KnowledgeBase, state: KnowledgeState | null, rendered: RenderedPages, d: Derivation, moved: ReadonlySet<string>): PagePlan[] {
  const now = kb.now().toISOString();
  return SCANNED_PAGES.map((slug): PagePlan => {
    const path = itemPath('oracle', slug);
    const existing = state?.items.oracle.find((p) => p.slug === slug);
    if (!existing && state?.snapshot.files.has(path)) {
      const why = state.diagnostics.find((d) => d.path === path)?.reason ?? 'it could not be read';
      return {
        slug,
        path,
        changed: false,
        item: null,
        skipped: `${path} is left as it is: ${why}. Fix the file (\`axme check\` lists problems) and scan again.`,
      };
    }
    const merged = mergeRegion(existing?.body ?? '', rendered[slug]);
    if (!merged.ok) return { slug, path, changed: false, item: null, skipped: `${path} is left as it is: ${merged.reason}` };
    // a page learned anew at HEAD names the session that rescanned it, as a reconfirm does
    const base = !existing
      ? { slug, title: TITLES[slug], source: 'scan', session: kb.session, created: now, extra: {} }
      : d.head && d.head !== existing.learned_at
        ? relearned(kb, existing, d.head)
        : existing;
    const parsed = OraclePage.safeParse({
      ...base,
      body: merged.body,
      anchors: slug === 'stack' ? d.anchors : (existing?.anchors ?? []),
      learned_at: d.head ?? existing?.learned_at,
      learned_content: slug === 'stack' ? d.content : existing?.learned_content,
      updated: existing?.updated ?? now,
    });
    if (!parsed.success) {
      return {
        slug,
        path,
        changed: false,
        item: null,
        skipped: `${path} is left as it is: the page with the generated part could not be stored (${parsed.error.issues[0]?.message ?? 'invalid'}); shorten the text outside the markers`,
      };
    }
    const sameAnchors =
      existing &&
      existing.anchors.join('\n') === parsed.data.anchors.join('\n') &&
      JSON.stringify(existing.learned_content ?? {}) === JSON.stringify(parsed.data.learned_content ?? {});
    if (existing && parsed.data.body === existing.body && sameAnchors && !moved.has(slug)) return { slug, path, changed: false, item: null };
    return { slug, path, changed: true, item: { ...parsed.data, updated: now } };
  });
}

function projectsLine(facts: OracleFacts): string {
  const ps = facts.stack.projects;
  if (ps.length === 0) return 'No manifests found.';
  const shown = ps.slice(0, 10).map((p) => `${ECOSYSTEM_LABELS[p.ecosystem]} (${p.dir})`);
  return `Projects: ${shown.join(', ')}${ps.length > 10 ? `, and ${ps.length - 10} more` : ''}`;
}

function summary(facts: OracleFacts, pages: ScanOraclePage[], commit: string | null, dryRun: boolean, files: number): string {
  const lines = [`Scanned ${files} files. ${projectsLine(facts)}`];
  const changed = pages.filter((p) => p.changed).map((p) => p.path);
  if (dryRun)
    lines.push(changed.length ? `Dry run: would write ${changed.join(', ')}; nothing was committed.` : 'Dry run: nothing new; nothing would be written.');
  else if (commit) lines.push(`Wrote ${changed.join(', ')} in commit ${commit.slice(0, 12)}.`);
  else lines.push('Nothing new: the oracle pages already say this; no commit.');
  for (const p of pages) if (p.skipped) lines.push(`Skipped: ${p.skipped}`);
  for (const n of facts.notes.slice(0, 5)) lines.push(`Note: ${n}`);
  if (facts.notes.length > 5) lines.push(`... and ${facts.notes.length - 5} more notes (see oracle/stack.md)`);
  return lines.join('\n');
}
