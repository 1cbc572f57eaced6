import { z } from 'zod';
import { FAMILIES, FAMILY_ACTIONS, FAMILY_NAMES, type FamilyAction, type FamilyName } from './families.ts';
import { DEFAULT_RULES } from './safety-defaults.ts';
import { listEntry } from './text.ts';

export { DEFAULT_RULES };

/** The comment that opens `safety/rules.yaml` when axme writes the whole file (init, merge). */
export const RULES_HEADER = `# axme safety rules: enforced by the agent-harness hook on every tool call.
# A list present here replaces the default list. Edit with \`axme safety add|remove|set\`.
`;

const list = (d: string[], description: string) => z.array(listEntry).default(d).describe(description);
const family = (d: FamilyAction, description: string) => z.enum(FAMILY_ACTIONS).default(d).describe(`${description} (deny, ask: a person decides, or off)`);
/** One entry per rule family of model/families.ts, with its default and description. */
const familyShape = Object.fromEntries(FAMILIES.map((f) => [f.name, family(f.action, f.description)])) as Record<FamilyName, ReturnType<typeof family>>;
/** `families.<name>` for `axme safety set`, one per family. */
const familySettings = Object.fromEntries(FAMILY_NAMES.map((n) => [`families.${n}`, z.enum(FAMILY_ACTIONS)])) as Record<
  `families.${FamilyName}`,
  z.ZodEnum<{ [K in FamilyAction]: K }>
>;

/**
 * `safety/rules.yaml`. A list present in the file replaces the default list; a missing field
 * takes its default. Unknown keys are kept in the file (edits go through the YAML document).
 */
export const SafetyRules = z.object({
  git: z
    .object({
      protectedBranches: list(DEFAULT_RULES.git.protectedBranches, 'branches agents must not push to directly'),
      allowForcePush: z.boolean().default(false).describe('allow force pushes'),
      allowDirectPushToMain: z.boolean().default(false).describe('allow pushing straight to a protected branch'),
      requirePrForMain: z.boolean().default(true).describe('changes reach protected branches through pull requests'),
      requireAxmeSuffix: z
        .enum(['agents', 'always', 'never'])
        .default('agents')
        .describe('who must end commit messages with the #!axme pr=<N|none> repo=<owner>/<name> line'),
      enforceFor: z
        .enum(['agents', 'everyone'])
        .default('agents')
        .describe('whom the git hooks hold to the branch and force-push rules: agents (CLAUDECODE=1 or AXME_AGENT=1) or everyone'),
    })
    .default(() => structuredClone(DEFAULT_RULES.git)),
  github: z
    .object({
      unverifiedPr: z
        .enum(['deny', 'allow'])
        .default('deny')
        .describe('what a #!axme pr=<N> marker gets when the PR state cannot be checked (no token, offline)'),
      deployWorkflows: list(
        DEFAULT_RULES.github.deployWorkflows,
        'workflows `gh workflow run` may not start (globs over the name or file, case-insensitive): the publish family',
      ),
    })
    .default(() => structuredClone(DEFAULT_RULES.github)),
  families: z.object(familyShape).default(() => structuredClone(DEFAULT_RULES.families)),
  bash: z
    .object({
      deniedPrefixes: list(DEFAULT_RULES.bash.deniedPrefixes, 'command prefixes that are refused (word boundary)'),
      deniedCommands: list(DEFAULT_RULES.bash.deniedCommands, 'commands that are refused wherever they appear in a pipeline'),
      allowedPrefixes: list([], 'command prefixes allowed even when a deny rule matches'),
    })
    .default(() => structuredClone(DEFAULT_RULES.bash)),
  filesystem: z
    .object({
      deniedPaths: list(DEFAULT_RULES.filesystem.deniedPaths, 'paths or globs that must not be read or written'),
      readOnlyPaths: list([], 'paths or globs that must not be written'),
    })
    .default(() => structuredClone(DEFAULT_RULES.filesystem)),
});
export type SafetyRules = z.infer<typeof SafetyRules>;

/** AXME's rule types (axme_update_safety) and the list each one edits. */
export const RULE_TYPES = {
  git_protected_branch: ['git', 'protectedBranches'],
  bash_deny: ['bash', 'deniedPrefixes'],
  bash_deny_command: ['bash', 'deniedCommands'],
  bash_allow: ['bash', 'allowedPrefixes'],
  fs_deny: ['filesystem', 'deniedPaths'],
  fs_readonly: ['filesystem', 'readOnlyPaths'],
  deploy_workflow: ['github', 'deployWorkflows'],
} as const;
export type RuleType = keyof typeof RULE_TYPES;
export const RuleTypeSchema = z
  .enum(Object.keys(RULE_TYPES) as [RuleType, ...RuleType[]])
  .describe('git_protected_branch, bash_deny, bash_deny_command, bash_allow, fs_deny, fs_readonly or deploy_workflow');

/** Scalar settings `axme safety set` may change, with their allowed values. */
export const RULE_SETTINGS = {
  'git.allowForcePush': z.boolean(),
  'git.allowDirectPushToMain': z.boolean(),
  'git.requirePrForMain': z.boolean(),
  'git.requireAxmeSuffix': z.enum(['agents', 'always', 'never']),
  'git.enforceFor': z.enum(['agents', 'everyone']),
  'github.unverifiedPr': z.enum(['deny', 'allow']),
  ...familySettings,
} as const;
export type RuleSetting = keyof typeof RULE_SETTINGS;

export const SafetyRuleChange = z.object({
  rule_type: RuleTypeSchema,
  value: listEntry.describe('the branch, command prefix, command or path/glob'),
});
export type SafetyRuleChange = z.input<typeof SafetyRuleChange>;

/** A rule change with its direction (axme_update_safety, `axme safety add|remove`). */
export const SafetyUpdate = SafetyRuleChange.extend({
  action: z.enum(['add', 'remove']).default('add').describe('add the rule (default) or remove it'),
});
export type SafetyUpdate = z.input<typeof SafetyUpdate>;

/**
 * Entries an earlier axme wrote into every new store's rules as defaults and no longer ships, each
 * with why (entries retired together share it word for word). A store made before keeps them (its rules are the team's, and no upgrade loosens them
 * on its own): `axme doctor` names each one found and the command that removes it.
 */
export const RETIRED_DEFAULTS: readonly { rule_type: RuleType; value: string; why: string }[] = [
  {
    rule_type: 'bash_deny_command',
    value: 'dd if=',
    why: 'it denied every dd that reads a file, such as writing a test fixture from /dev/urandom; dd onto a disk or a system path is denied by the system family, a secret it reads by the path rules',
  },
  ...['.env', '*.pem', '*.key'].map((value) => ({
    rule_type: 'fs_deny' as const,
    value,
    why: 'it denied making one (cp .env.example .env, touch .env, the Write tool): a denied path is neither read nor written, while a secret file name is never read but may be made',
  })),
  ...['/etc/shadow', '~/.ssh/id_*', '~/.aws/credentials', '~/.gnupg/*'].map((value) => ({
    rule_type: 'fs_deny' as const,
    value,
    why: "a copy of the built-in credentials (secrets.paths: the home's credential files and the system's), which are denied whatever the lists say: removing it changes no verdict",
  })),
];

/** The retired defaults (RETIRED_DEFAULTS) a compiled policy still holds (its lists keep RULE_TYPES' names). */
export function retiredDefaultsIn(policy: { readonly [K in (typeof RULE_TYPES)[RuleType][1]]: readonly string[] }): typeof RETIRED_DEFAULTS {
  return RETIRED_DEFAULTS.filter(({ rule_type, value }) => policy[RULE_TYPES[rule_type][1]].includes(value));
}
