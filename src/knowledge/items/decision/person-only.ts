import type { Decision } from '../../../model/decision.ts';
import { AxmeError } from '../../../model/errors.ts';
import { editDistance } from '../../../model/near-names.ts';
import type { KnowledgeBase } from '../../core/kb.ts';

/**
 * A required decision binds every agent, so only a person may let go of it: revoke it, or supersede
 * it (by an advisory decision or a required one that says something else). An agent or the auditor asking (on any surface: MCP, the close, the CLI
 * run by an agent) gets NOT_ALLOWED with the command a person would run — the way loosening a
 * safety rule is refused (rules/update-safety.ts). Tightening stays open to agents, and so does
 * fixing a typo in its wording (assertWordingFix).
 */
export function assertPersonMayLoosen(kb: KnowledgeBase, old: Decision, what: string, how: string): void {
  if (old.enforce !== 'required' || kb.actor === 'human') return;
  throw new AxmeError(
    'NOT_ALLOWED',
    `${old.id} "${old.title}" is a required decision: ${what} lets go of a rule every agent must follow, which only a person may do. Ask the user to run \`${how}\` themselves`,
    {
      id: old.id,
      actor: kb.actor,
    },
  );
}

/**
 * Words whose change turns what a rule says around or loosens it (`must` → `may`, a `not`, an
 * `except`): never a typo's, whatever the edit's size.
 */
const BINDING_WORDS = new Set(
  (
    "not no never none nothing nor must mustn't may might should shouldn't shall can cannot can't could do don't does doesn't " +
    "is isn't are aren't will won't always only except unless without allowed allow allows forbidden forbid prohibited permitted " +
    'required optional ok okay fine'
  ).split(' '),
);

/** A word as a typo fix compares it: lower case, without the punctuation around it. */
const bare = (w: string): string => w.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}']+$/gu, '');

/**
 * Whether `after` is `before` with its typos fixed: the same number of words, and each word that
 * changed (case and punctuation aside) two edits or fewer from the one it replaces and not a word
 * that binds (BINDING_WORDS), at most one word in ten (at least two).
 */
export function isWordingFix(before: string, after: string): boolean {
  const a = before.split(/\s+/).filter(Boolean);
  const b = after.split(/\s+/).filter(Boolean);
  if (a.length !== b.length) return false;
  let changed = 0;
  for (let i = 0; i < a.length; i++) {
    const x = bare(a[i]!);
    const y = bare(b[i]!);
    if (x === y) continue;
    if (BINDING_WORDS.has(x) || BINDING_WORDS.has(y) || editDistance(x, y, 2) > 2) return false;
    changed++;
  }
  return changed <= Math.max(2, Math.ceil(a.length / 10));
}

/**
 * A required decision binds every agent, so an agent may fix the typos of its title and text but
 * not change what it says (a person amends or supersedes it themselves).
 * NOT_ALLOWED with the command a person would run, as assertPersonMayLoosen.
 */
export function assertWordingFix(kb: KnowledgeBase, old: Decision, next: Pick<Decision, 'title' | 'decision'>, how: string): void {
  if (old.enforce !== 'required' || kb.actor === 'human') return;
  const changed = (['title', 'decision'] as const).filter((f) => !isWordingFix(old[f], next[f]));
  if (!changed.length) return;
  throw new AxmeError(
    'NOT_ALLOWED',
    `${old.id} "${old.title}" is a required decision: this amend changes what a required decision says (its ${changed.join(' and ')}, beyond fixing a typo), which only a person may do. Ask the user to run \`${how}\` themselves, or to supersede it themselves (\`axme decision supersede ${old.id} ...\`)`,
    { id: old.id, actor: kb.actor, fields: changed },
  );
}
