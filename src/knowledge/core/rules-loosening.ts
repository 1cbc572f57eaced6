import { AxmeError } from '../../model/errors.ts';
import type { RulesData } from '../../model/safety-defaults.ts';
import { mergeRules } from '../../model/safety-merge.ts';
import type { KnowledgeBase } from './kb.ts';

/** A value with its lists sorted: two rule sets compared as sets. */
export function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return [...v.map(canonical)].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, x]) => [k, canonical(x)]),
    );
  return v;
}

const shown = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v) : String(JSON.stringify(v)));

/** The differences of `next` from `strict` at `path`, one phrase each (lists as sets, other values by key). */
function differences(path: string, strict: unknown, next: unknown, out: string[]): void {
  if (Array.isArray(strict) || Array.isArray(next)) {
    const s = (Array.isArray(strict) ? strict : []).map((x) => JSON.stringify(x));
    const n = (Array.isArray(next) ? next : []).map((x) => JSON.stringify(x));
    for (const x of s) if (!n.includes(x)) out.push(`${path} no longer lists ${x}`);
    for (const x of n) if (!s.includes(x)) out.push(`${path} adds ${x}`);
    return;
  }
  if (strict && next && typeof strict === 'object' && typeof next === 'object') {
    const keys = [...new Set([...Object.keys(strict), ...Object.keys(next)])].sort();
    for (const k of keys) differences(path ? `${path}.${k}` : k, (strict as Record<string, unknown>)[k], (next as Record<string, unknown>)[k], out);
    return;
  }
  if (JSON.stringify(strict) !== JSON.stringify(next)) out.push(`${path}: ${shown(next)} (here ${shown(strict)})`);
}

/**
 * What the rule set `next` lets through that the strictest of it and `now` does not, one phrase a
 * value (`git.protectedBranches no longer lists "main"`, `bash.allowedPrefixes adds "…"`,
 * `git.allowForcePush: true (here false)`); empty when `next` loosens nothing (a tightening is
 * anyone's). Said to the person who decides whether to take it, so that no YAML diff is needed.
 */
export function rulesLoosening(now: RulesData, next: RulesData): string[] {
  const out: string[] = [];
  differences('', canonical(mergeRules(next, now)), canonical(next), out);
  return out;
}

/**
 * Refuses a change of the whole rule set (a setting, a reset, an import) that lets more through,
 * unless a person makes it: NOT_ALLOWED naming what loosens and the command for the user, as
 * `safety remove` is refused (rules/update-safety.ts). Tightening is anyone's.
 */
export function assertPersonMayLoosenRules(kb: KnowledgeBase, now: RulesData, next: RulesData, what: string, how: string): void {
  if (kb.actor === 'human') return;
  const loosened = rulesLoosening(now, next);
  if (!loosened.length) return;
  throw new AxmeError(
    'NOT_ALLOWED',
    `${what} loosens the safety rules (${loosened.join('; ')}), which only a person may do: ask the user to run \`${how}\` themselves (tightening rules is fine)`,
    { actor: kb.actor, loosened },
  );
}
