import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_RULES } from '../../src/model/safety-defaults.ts';
import { evaluateCommand } from '../../src/safety/evaluate.ts';
import { policyFromRules } from '../../src/safety/policy.ts';
import { safetyContext, testHoles } from './context.ts';

/**
 * A git subcommand's words as git's parse-options reads them. One reading of git push's words
 * (families/git-options.ts pushWords) for both checks of a push, the git rules' (git-rules.ts
 * checkPush) and the history family's (git-history.ts): the value of `-o` is the rest of its
 * cluster (`-onx` is `-o nx`, no dry run). One table of the subcommands' long options
 * (git-long-options.ts), against which every check reads an abbreviation (`--no-veri` is
 * `--no-verify`). Rows: [an everyday command, its dangerous neighbour]; the context is
 * context.ts's (the project /home/u/proj on main).
 */
testHoles({
  "a push option's value in a cluster is no dry run": [
    ['git push -n --force origin main', 'git push -onx --force origin main'],
    ['git push --prune -n origin', 'git push --prune -onx origin'],
    ['git push -dn origin main', 'git push -ond --delete origin main'],
  ],
  // self-rules.ts: the verbs whose hooks --no-verify skips
  'an abbreviated --no-verify skips the hooks as --no-verify does': [
    ['git rebase main', 'git rebase --no-veri main'],
    ['git rebase --continue', 'git rebase --no-verif main'],
    ['git am x.patch', 'git am --no-veri x.patch'],
  ],
  // git am's -n is its --no-verify (git 2.40 on; before, am refuses the switch): as commit's -n
  "am's -n, as commit's, is --no-verify": [
    ['git am -3 x.patch', 'git am -n x.patch'],
    ['git am --3way x.patch', 'git am -3n x.patch'],
  ],
});

describe('what the history family reads of a push when force and direct pushes to main are allowed', () => {
  const loose = policyFromRules({
    ...DEFAULT_RULES,
    git: { ...DEFAULT_RULES.git, allowForcePush: true, allowDirectPushToMain: true, requirePrForMain: false },
  });
  const decide = async (command: string) => {
    const v = await evaluateCommand(`${command} #!axme pr=none repo=acme/app`, loose, safetyContext());
    return v.decision === 'allow' ? 'allow' : `${v.decision} [${v.rule}]`;
  };
  const rows: ReadonlyArray<readonly [string, string]> = [
    ['git push --mirror -n origin', 'git push --mirror -onx origin'],
    ['git push --all --force -n origin', 'git push --all --force -onx origin'],
  ];
  for (const [everyday, dangerous] of rows)
    test(`${everyday}  passes;  ${dangerous}  is denied`, async () => {
      assert.equal(await decide(everyday), 'allow', everyday);
      assert.match(await decide(dangerous), /^deny \[families\.gitHistory: push --(mirror|all --force)\]$/, dangerous);
    });
});
