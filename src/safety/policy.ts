import { DEFAULT_RULES, FAMILY_ACTIONS, FAMILY_NAMES, type RulesData } from '../model/safety-defaults.ts';

/**
 * The compiled policy: effective rules flattened into plain JSON, so the pre-tool-use hook can
 * keep it in a cache file and evaluate without loading the model's schemas. Its lists are
 * read-only: the guard caches what it compiles from a list by the list's identity (patterns.ts
 * compileList), so a list changed in place would be checked as it was.
 */
export type Policy = ReadonlyLists<
  { version: typeof POLICY_VERSION } & RulesData['git'] &
    RulesData['bash'] &
    RulesData['filesystem'] &
    RulesData['github'] & {
      families: RulesData['families'];
      /** problems met while loading the rules (a broken rules.yaml): shown with every answer */
      warnings: string[];
    }
>;

/** `T` with each of its arrays read-only. */
type ReadonlyLists<T> = { [K in keyof T]: T[K] extends Array<infer E> ? readonly E[] : T[K] };

export const POLICY_VERSION = 5;

/** Flattens effective rules (already validated, defaults applied) into a policy. */
export function policyFromRules(rules: RulesData, warnings: string[] = []): Policy {
  return {
    version: POLICY_VERSION,
    protectedBranches: [...rules.git.protectedBranches],
    allowForcePush: rules.git.allowForcePush,
    allowDirectPushToMain: rules.git.allowDirectPushToMain,
    requirePrForMain: rules.git.requirePrForMain,
    requireAxmeSuffix: rules.git.requireAxmeSuffix,
    enforceFor: rules.git.enforceFor,
    unverifiedPr: rules.github.unverifiedPr,
    deployWorkflows: [...rules.github.deployWorkflows],
    families: { ...rules.families },
    deniedPrefixes: [...rules.bash.deniedPrefixes],
    deniedCommands: [...rules.bash.deniedCommands],
    allowedPrefixes: [...rules.bash.allowedPrefixes],
    deniedPaths: [...rules.filesystem.deniedPaths],
    readOnlyPaths: [...rules.filesystem.readOnlyPaths],
    warnings: [...warnings],
  };
}

/** The built-in policy: AXME's default rules. What applies where no store or no valid rules exist. */
export function defaultPolicy(warnings: string[] = []): Policy {
  return policyFromRules(DEFAULT_RULES, warnings);
}

/** Whether `value` is a policy this version of axme wrote (a cache file may be old or damaged). */
export function isPolicy(value: unknown): value is Policy {
  const p = value as Policy | null;
  const lists = [
    'protectedBranches',
    'deniedPrefixes',
    'deniedCommands',
    'allowedPrefixes',
    'deniedPaths',
    'readOnlyPaths',
    'deployWorkflows',
    'warnings',
  ] as const;
  return (
    typeof p === 'object' &&
    p !== null &&
    p.version === POLICY_VERSION &&
    lists.every((k) => Array.isArray(p[k]) && p[k].every((x) => typeof x === 'string')) &&
    typeof p.allowForcePush === 'boolean' &&
    typeof p.allowDirectPushToMain === 'boolean' &&
    typeof p.requirePrForMain === 'boolean' &&
    ['agents', 'always', 'never'].includes(p.requireAxmeSuffix) &&
    ['agents', 'everyone'].includes(p.enforceFor) &&
    ['deny', 'allow'].includes(p.unverifiedPr) &&
    typeof p.families === 'object' &&
    p.families !== null &&
    FAMILY_NAMES.every((f) => (FAMILY_ACTIONS as readonly string[]).includes(p.families[f]))
  );
}
