import type { Decision } from '../../model/decision.ts';
import { CONFIG_PATH, itemPath, RULES_PATH } from '../../model/paths.ts';
import { rulesLoosening } from './rules-loosening.ts';
import type { KnowledgeState } from './state.ts';

/**
 * What taking `next`'s versions of `paths` would loosen of what binds an agent, compared with
 * `now` (a revert puts them back to an earlier commit's; a sync brings a remote's): the safety
 * rules letting more through (the strictest of both is not the rules after), `review.required`
 * switched off, a required decision no longer active and required, `autoMemory: sync` switched on
 * (this machine's auto memory into the shared store). Empty when nothing loosens
 * (tightening is anyone's).
 */
export function loosenedBy(now: KnowledgeState, next: KnowledgeState, paths: string[]): string[] {
  const out: string[] = [];
  const touched = new Set(paths);
  if (touched.has(RULES_PATH)) {
    if (rulesLoosening(now.rules, next.rules).length) out.push(`${RULES_PATH} would let more through`);
  }
  if (touched.has(CONFIG_PATH) && now.config?.review?.required === true && next.config?.review?.required !== true)
    out.push('review.required would be switched off');
  // not a rule, but only a person here switches it on: each session's end would then send what Claude
  // Code keeps in this machine's auto memory into the store, and the next sync to the remote
  if (touched.has(CONFIG_PATH) && now.config?.autoMemory !== 'sync' && next.config?.autoMemory === 'sync')
    out.push("autoMemory: sync would import this machine's Claude Code auto memory into the shared store at each session's end");
  for (const d of now.items.decision as Decision[]) {
    if (d.status !== 'active' || d.enforce !== 'required' || !touched.has(itemPath('decision', d.slug, d.created))) continue;
    const was = (next.items.decision as Decision[]).find((x) => x.slug === d.slug);
    if (!was || was.status !== 'active' || was.enforce !== 'required') out.push(`the required decision ${d.id} "${d.title}" would no longer bind`);
  }
  return out;
}
