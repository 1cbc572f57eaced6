import { FAMILIES, type FamilyName, familySpec } from '../../model/families.ts';
import type { Invocation } from '../command.ts';
import type { Finding } from '../git-rules.ts';
import type { Policy } from '../policy.ts';
import type { SimpleCommand } from '../syntax.ts';
import { checkGitHistory } from './git-history.ts';
import { checkInfra } from './infra.ts';
import { interpreterScripts } from './interpreter.ts';
import { checkPublish } from './publish.ts';
import { checkSystem } from './system.ts';
import type { FamilyCheck, FamilyContext } from './types.ts';
import { checkUnknown } from './unknown.ts';

/**
 * The rule families past the lists (docs/safety.md; the table is model/families.ts): each one a
 * plain function that looks at one command — its program and arguments after the wrappers are
 * peeled off, and its redirections — and says what irreversible thing it would do. The policy
 * says per family whether that is a deny, an "ask" (a person decides) or nothing
 * (`families.<name>: off` in safety/rules.yaml); `bash.allowedPrefixes` exempts a command from
 * them as from the lists. Git's history rules read the parsed git call (git-history.ts);
 * interpreter one-liners are turned into commands that are checked like any other
 * (interpreter.ts); a command no check knows is judged by its verbs (unknown.ts).
 */

/** Each family's check, by the `check.id` of its row in model/families.ts. */
export const FAMILY_CHECKS = {
  publish: checkPublish,
  infra: checkInfra,
  system: checkSystem,
  gitHistory: checkGitHistory,
  interpreter: interpreterScripts,
} as const;

/** The families whose check reads one command, in the table's order. */
const CHECKS: Array<[FamilyName, FamilyCheck]> = FAMILIES.filter((f) => f.check.reads === 'command').map((f) => [
  f.name,
  FAMILY_CHECKS[f.check.id] as FamilyCheck,
]);

/** The findings of the command-level families that are on, with the policy's action; then the verbs of a command none of them knows. */
export function checkFamilies(cmd: SimpleCommand, inv: Invocation | null, ctx: FamilyContext): Finding[] {
  const out: Finding[] = [];
  for (const [name, check] of CHECKS) {
    if (ctx.policy.families[name] === 'off') continue;
    const hit = check(cmd, inv, ctx);
    if (hit) out.push(familyFinding(name, hit, ctx.policy));
  }
  if (inv && !out.length) for (const { family, hit } of checkUnknown(inv, ctx)) out.push(familyFinding(family, hit, ctx.policy));
  return out;
}

/**
 * A family's hit as a finding: the rule named `families.<name>: <what>`, its reason ending with
 * the family's words and how to proceed; asked rather than denied when the policy says ask.
 */
export function familyFinding(name: FamilyName, hit: { rule: string; reason: string }, policy: Policy): Finding {
  const ask = policy.families[name] === 'ask';
  const words = familySpec(name).words;
  const how = ask
    ? `${words}: a person should decide, the user is asked before it runs`
    : `${words}: ask the user to run it, or, if it is part of the task, to allow it: axme safety set families.${name} ask (or off), or axme safety add bash_allow "<prefix>"`;
  return { rule: `families.${name}: ${hit.rule}`, reason: `${hit.reason} (${how})`, ...(ask ? { action: 'ask' as const } : {}) };
}
