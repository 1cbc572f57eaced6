import { FORMAT_VERSION } from '../../model/config.ts';
import type { Decision } from '../../model/decision.ts';
import type { ItemBase, KindName } from '../../model/kind.ts';
import { ID_KINDS, type IdKind } from '../../model/kinds.ts';
import { itemPath } from '../../model/paths.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { type Diagnostic, type KnowledgeState, readState } from '../core/state.ts';

export interface FsckResult {
  /** false when any finding is an error */
  ok: boolean;
  commit: string;
  findings: Diagnostic[];
  counts: Record<KindName, number>;
  /** objects reachable from the ref that were checked */
  objects: number;
}

/**
 * Checks a memory store: every object reachable from the ref is present, every file parses
 * against its schema, display IDs and aliases are unique per kind, and the supersession graph
 * of decisions and of memories is consistent (links both ways, statuses agree with the lifecycle
 * fields, no cycles).
 */
export async function checkStore(kb: KnowledgeBase, opts: { at?: string | undefined } = {}): Promise<FsckResult> {
  const state = await readState(kb, opts.at);
  const findings: Diagnostic[] = [...state.diagnostics];
  const objects = await checkObjects(kb, state.commit!, findings);
  if (state.config && state.config.format > FORMAT_VERSION) {
    findings.push({
      path: 'axme.yaml',
      severity: 'error',
      reason: `format ${state.config.format} was written by a newer axme (this one reads ${FORMAT_VERSION}): upgrade axme`,
    });
  }
  for (const kind of ID_KINDS) checkIds(state, kind, findings);
  checkSupersession(state, findings);
  findings.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const counts = Object.fromEntries(Object.entries(state.items).map(([k, v]) => [k, v.length])) as Record<KindName, number>;
  return { ok: !findings.some((f) => f.severity === 'error'), commit: state.commit!, findings, counts, objects };
}

async function checkObjects(kb: KnowledgeBase, commit: string, findings: Diagnostic[]): Promise<number> {
  const list = await kb.repo.git(['rev-list', '--objects', '--missing=print', commit], { allowFail: true });
  if (list.code !== 0) {
    findings.push({ path: kb.ref, severity: 'error', reason: `history cannot be walked: ${list.stderr.trim()}. Run \`git fsck\`.` });
    return 0;
  }
  const lines = list.stdout.toString('utf8').split('\n').filter(Boolean);
  const oids: string[] = [];
  for (const l of lines) {
    if (l.startsWith('?'))
      findings.push({
        path: kb.ref,
        severity: 'error',
        reason: `object ${l.slice(1)} is missing. Run \`git fsck\`; fetch the store again from a teammate if needed.`,
      });
    else oids.push(l.slice(0, l.indexOf(' ') === -1 ? undefined : l.indexOf(' ')));
  }
  const check = await kb.repo.git(['cat-file', '--batch-check'], { input: oids.join('\n') + '\n', allowFail: true });
  for (const l of check.stdout.toString('utf8').split('\n')) {
    if (l.endsWith(' missing')) findings.push({ path: kb.ref, severity: 'error', reason: `object ${l.split(' ')[0]} is missing. Run \`git fsck\`.` });
  }
  return oids.length;
}

function checkIds(state: KnowledgeState, kind: IdKind, findings: Diagnostic[]): void {
  // IDs must be unique. An alias may equal another item's ID: that is how a renumbered item
  // keeps its old number (lookups try IDs before aliases). Two items with one alias are ambiguous.
  const ids = new Map<string, string>();
  const aliases = new Map<string, string>();
  for (const item of state.items[kind] as Array<ItemBase & { id: string; aliases: string[] }>) {
    const path = itemPath(kind, item.slug);
    const other = ids.get(item.id);
    if (other)
      findings.push({ path, severity: 'error', reason: `display ID ${item.id} is also used by ${other}: renumber one and keep its old ID in aliases` });
    else ids.set(item.id, path);
    for (const alias of item.aliases) {
      const first = aliases.get(alias);
      if (first)
        findings.push({
          path,
          severity: 'warning',
          reason: `alias ${alias} is also an alias of ${first}: lookups by ${alias} find the item that holds it as its ID, else the first`,
        });
      else aliases.set(alias, path);
    }
  }
}

/** What the supersession check needs of a kind: its items' links, and how one is taken out of force. */
interface Superseding {
  slug: string;
  status: string;
  supersedes: string[];
  superseded_by?: string | undefined;
}

/**
 * The supersession links of decisions and of memories: each link names an item of the kind, both
 * ends agree, the status agrees with superseded_by, no cycles. A decision also carries revoked_at
 * and revoked_reason only when revoked.
 */
function checkSupersession(state: KnowledgeState, findings: Diagnostic[]): void {
  checkLinks('decision', state.items.decision, 'revoked', (slug) => `axme decision revoke ${slug} --reason ...`, findings);
  checkLinks('memory', state.items.memory, 'archived', (slug) => `axme memory remove ${slug}`, findings);
  for (const d of state.items.decision) checkRevocation(d, findings);
}

function checkLinks(
  kind: 'decision' | 'memory',
  items: readonly Superseding[],
  retired: string,
  retire: (slug: string) => string,
  findings: Diagnostic[],
): void {
  const bySlug = new Map(items.map((d) => [d.slug, d]));
  const err = (d: Superseding, reason: string) => findings.push({ path: itemPath(kind, d.slug), severity: 'error', reason });
  const warn = (d: Superseding, reason: string) => findings.push({ path: itemPath(kind, d.slug), severity: 'warning', reason });
  for (const d of items) {
    if (d.superseded_by) {
      const next = bySlug.get(d.superseded_by);
      if (!next) err(d, `superseded_by ${d.superseded_by}, which does not exist`);
      else if (!next.supersedes.includes(d.slug)) err(d, `superseded_by ${d.superseded_by}, but that ${kind} does not list ${d.slug} in supersedes`);
      // revoked on one clone and superseded on another, merged by an axme that kept both: out of
      // force either way, but nobody was asked which one stands
      if (kind === 'decision' && d.status === 'revoked')
        warn(
          d,
          `status revoked but superseded_by ${d.superseded_by}: it was revoked on one clone and superseded on another, and both were kept. If the revocation holds, revoke ${d.superseded_by} too (axme decision revoke ${d.superseded_by} --reason ...); otherwise ${d.superseded_by} stands`,
        );
      else if (d.status !== 'superseded') err(d, `has superseded_by but status ${d.status} (expected superseded)`);
    } else if (d.status === 'superseded') err(d, `status superseded but no superseded_by: name the ${kind} that replaced it`);
    for (const s of d.supersedes) {
      const old = bySlug.get(s);
      if (!old) err(d, `supersedes ${s}, which does not exist`);
      else if (old.superseded_by !== d.slug) {
        // superseded separately on two clones: a sync keeps one link and opens a question; the
        // other successor is not damage, and taking either successor out of force settles it
        const rival = old.superseded_by ? bySlug.get(old.superseded_by) : undefined;
        if (rival?.supersedes.includes(s)) {
          if (d.status !== retired && rival.status !== retired)
            warn(
              d,
              `supersedes ${s}, which ${rival.slug} supersedes too (superseded separately on two clones): keep one successor and ${kind === 'decision' ? 'revoke' : 'remove'} the other (${retire('<slug>')})`,
            );
        } else if (kind === 'decision' && old.status === 'revoked' && !old.superseded_by) {
          // revoked on one clone, superseded on another: a sync keeps the revocation without the link and opens a question
          if (d.status !== 'revoked')
            warn(
              d,
              `supersedes ${s}, which was revoked (revoked on one clone, superseded on another): this decision is in force; if the revocation holds, revoke it too (axme decision revoke ${d.slug} --reason ...)`,
            );
        } else err(d, `supersedes ${s}, but ${s} is not marked superseded_by ${d.slug}`);
      }
    }
    // cycle: follow superseded_by links; a chain that returns to d is a cycle
    const seen = new Set<string>([d.slug]);
    for (let cur = d.superseded_by; cur; cur = bySlug.get(cur)?.superseded_by) {
      if (seen.has(cur)) {
        err(d, `supersession cycle through ${[...seen].join(' -> ')} -> ${cur}`);
        break;
      }
      seen.add(cur);
    }
  }
}

function checkRevocation(d: Decision, findings: Diagnostic[]): void {
  const err = (reason: string) => findings.push({ path: itemPath('decision', d.slug), severity: 'error', reason });
  if (d.status === 'revoked' && !d.revoked_at) findings.push({ path: itemPath('decision', d.slug), severity: 'warning', reason: 'revoked without revoked_at' });
  if (d.status !== 'revoked' && (d.revoked_at || d.revoked_reason)) {
    const fields = [d.revoked_at && 'revoked_at', d.revoked_reason && 'revoked_reason'].filter(Boolean).join(' and ');
    const fix =
      d.status === 'active' ? `revoke it (axme decision revoke ${d.slug} --reason ...) if it no longer holds, otherwise remove ${fields}` : `remove ${fields}`;
    err(`status ${d.status} but ${fields} set: only a revoked decision carries them; ${fix}`);
  }
}
