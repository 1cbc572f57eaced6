import { defaultFamilyActions, FAMILY_ACTIONS, FAMILY_NAMES, type FamilyAction, type FamilyActions, type FamilyName } from './families.ts';

export { FAMILY_ACTIONS, FAMILY_NAMES, type FamilyAction, type FamilyName };

/**
 * AXME Code's default safety rules (docs/safety.md), as plain data: the pre-tool-use hook's fast
 * path compiles them without loading zod.
 */
export const DEFAULT_RULES = {
  git: {
    protectedBranches: ['main', 'master'],
    allowForcePush: false,
    allowDirectPushToMain: false,
    requirePrForMain: true,
    requireAxmeSuffix: 'agents' as 'agents' | 'always' | 'never',
    enforceFor: 'agents' as 'agents' | 'everyone',
  },
  github: {
    unverifiedPr: 'deny' as 'deny' | 'allow',
    deployWorkflows: ['*deploy*', '*release*', '*publish*', '*prod*'],
  },
  /** the rule families past the lists (model/families.ts): each deny, ask (a person decides) or off */
  families: defaultFamilyActions(),
  bash: {
    deniedPrefixes: [
      'rm -rf /',
      'chmod 777',
      'curl | sh',
      'curl | bash',
      'wget | sh',
      'git push --force',
      'git checkout -- .',
      'git clean -f',
      'gh workflow run deploy-prod',
      'gh release create',
      'npm publish',
      'twine upload',
      'docker push',
      'dotnet nuget push',
      'mvn deploy',
      'git tag',
    ],
    deniedCommands: ['shutdown', 'reboot', 'halt', 'poweroff', 'mkfs'],
    allowedPrefixes: [] as string[],
  },
  /**
   * `deniedPaths`: the team's own, neither read nor written. The credentials are not repeated here:
   * they are one list, model/home-credentials.ts HOME_CREDENTIALS and model/sandbox.ts SYSTEM_CREDENTIALS, denied whatever the
   * lists say (`secrets.paths`); an earlier axme's copies of a few are RETIRED_DEFAULTS.
   */
  filesystem: {
    deniedPaths: ['/etc/passwd'],
    readOnlyPaths: [] as string[],
  },
};

/** The shape of effective rules, as the safety engine reads them (the zod schema produces it). */
export interface RulesData {
  git: {
    protectedBranches: string[];
    allowForcePush: boolean;
    allowDirectPushToMain: boolean;
    requirePrForMain: boolean;
    requireAxmeSuffix: 'agents' | 'always' | 'never';
    enforceFor: 'agents' | 'everyone';
  };
  github: { unverifiedPr: 'deny' | 'allow'; deployWorkflows: string[] };
  families: FamilyActions;
  bash: { deniedPrefixes: string[]; deniedCommands: string[]; allowedPrefixes: string[] };
  filesystem: { deniedPaths: string[]; readOnlyPaths: string[] };
}
