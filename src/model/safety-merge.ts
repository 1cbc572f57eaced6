import { FAMILY_NAMES, type RulesData } from './safety-defaults.ts';

/** The enumerated settings, least strict first: where two stores disagree, the later value holds. */
export const STRICTNESS = {
  requireAxmeSuffix: ['never', 'agents', 'always'],
  enforceFor: ['agents', 'everyone'],
  unverifiedPr: ['allow', 'deny'],
  family: ['off', 'ask', 'deny'],
} as const;

/**
 * Combines the safety rules of two stores (a workspace and one of its repositories; the two
 * sides of a sync) so that the result is never less strict than either side (docs/workspaces.md):
 * deny lists (protected branches, denied commands and paths, read-only paths): union;
 * `allow*` flags: AND; `require*` flags: OR; the allow-list of command prefixes: intersection
 * (an exception to a deny holds only when both stores grant it); the enumerated settings take
 * the stricter value (a rule family: deny over ask over off). Pure: plain data in, plain data out, order stable (a's entries first).
 */
export function mergeRules(a: RulesData, b: RulesData): RulesData {
  return {
    git: {
      protectedBranches: union(a.git.protectedBranches, b.git.protectedBranches),
      allowForcePush: a.git.allowForcePush && b.git.allowForcePush,
      allowDirectPushToMain: a.git.allowDirectPushToMain && b.git.allowDirectPushToMain,
      requirePrForMain: a.git.requirePrForMain || b.git.requirePrForMain,
      requireAxmeSuffix: stricter(STRICTNESS.requireAxmeSuffix, a.git.requireAxmeSuffix, b.git.requireAxmeSuffix),
      enforceFor: stricter(STRICTNESS.enforceFor, a.git.enforceFor, b.git.enforceFor),
    },
    github: {
      unverifiedPr: stricter(STRICTNESS.unverifiedPr, a.github.unverifiedPr, b.github.unverifiedPr),
      deployWorkflows: union(a.github.deployWorkflows, b.github.deployWorkflows),
    },
    families: Object.fromEntries(FAMILY_NAMES.map((f) => [f, stricter(STRICTNESS.family, a.families[f], b.families[f])])) as RulesData['families'],
    bash: {
      deniedPrefixes: union(a.bash.deniedPrefixes, b.bash.deniedPrefixes),
      deniedCommands: union(a.bash.deniedCommands, b.bash.deniedCommands),
      allowedPrefixes: a.bash.allowedPrefixes.filter((p) => b.bash.allowedPrefixes.includes(p)),
    },
    filesystem: {
      deniedPaths: union(a.filesystem.deniedPaths, b.filesystem.deniedPaths),
      readOnlyPaths: union(a.filesystem.readOnlyPaths, b.filesystem.readOnlyPaths),
    },
  };
}

function union(a: string[], b: string[]): string[] {
  return [...new Set([...a, ...b])];
}

/** The later of two values in `order` (least strict first). */
function stricter<T extends string>(order: readonly T[], a: T, b: T): T {
  return order.indexOf(a) >= order.indexOf(b) ? a : b;
}
