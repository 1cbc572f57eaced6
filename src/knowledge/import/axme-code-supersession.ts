import type { Decision } from '../../model/decision.ts';

/** A decision's supersession links as AXME wrote them: D-NNN IDs, turned into slugs once every decision is read. */
export interface AxmeCodeLinks {
  supersededBy?: string;
  supersedes: string[];
}

/** Supersession: AXME's IDs to slugs, both directions set; links to decisions not in the tree are dropped and reported. */
export function linkDecisions(decisions: Decision[], raw: Map<string, AxmeCodeLinks>, problem: (p: string, r: string) => void): void {
  const byId = new Map(decisions.map((d) => [d.id.toUpperCase(), d]));
  const at = (d: Decision) => `decisions/${d.id}-${d.slug}.md`;
  for (const d of decisions) {
    const r = raw.get(d.id)!;
    if (r.supersededBy) {
      const next = byId.get(r.supersededBy.toUpperCase());
      if (next) d.superseded_by = next.slug;
      else problem(at(d), `supersededBy ${r.supersededBy}, which is not in the tree: the link is left out`);
    }
    for (const s of r.supersedes) {
      const old = byId.get(s.toUpperCase());
      if (old) d.supersedes = [...new Set([...d.supersedes, old.slug])];
      else problem(at(d), `supersedes ${s}, which is not in the tree: the link is left out`);
    }
  }
  // symmetric, as fsck wants them
  const bySlug = new Map(decisions.map((d) => [d.slug, d]));
  for (const d of decisions) {
    if (d.superseded_by) {
      const next = bySlug.get(d.superseded_by)!;
      if (!next.supersedes.includes(d.slug)) next.supersedes = [...next.supersedes, d.slug];
      if (d.status === 'active') d.status = 'superseded';
    }
  }
  for (const d of decisions) {
    for (const s of d.supersedes) {
      const old = bySlug.get(s)!;
      if (!old.superseded_by) {
        old.superseded_by = d.slug;
        if (old.status === 'active') old.status = 'superseded';
      }
    }
  }
}
