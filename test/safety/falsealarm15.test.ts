/**
 * False alarms a seventeenth gathering of everyday command lines found (everyday-unseen15.txt: what
 * twenty-one public repositories of scanners, migrations, operators, embedded Rust, game tooling,
 * packaging, Nix, Deno, ML, data pipelines, F#, Solidity, Crystal, Gleam and a monorepo tool run in
 * their scripts, workflows, Makefiles and docs), each with the dangerous neighbours the same rule
 * must still deny.
 */
import { testHoles } from './context.ts';

const M = ' #!axme pr=none repo=acme/app';

testHoles({
  // git-rules.ts deletedName: a name --delete takes, completed by the shell, is protected only where
  // its written parts could spell a protected branch (or the one checked out), a tag where they could spell one
  'a deleted branch whose written parts rule out a protected one': [
    [`git push origin --delete "trigger-v$PUBLISHED_CRATE_VERSION"${M}`, `git push origin --delete "ma$X"${M}`],
    [`git push origin --delete "release-$V-rc"${M}`, `git push origin -u "v$OLD_VERSION-maint"${M}`],
    [`git push origin --delete "fix/$ISSUE"${M}`, `git push origin --delete "heads/$B"${M}`],
    [`git push --delete origin "ci-$RUN_ID-tmp"${M}`, `git push origin --delete "refs/$KIND/v1"${M}`],
    [`git push origin -d "preview-$PR"${M}`, `git push origin -d "m\${A}n"${M}`],
    [`git push origin --delete "wip/\${GITHUB_ACTOR}"${M}`, `git push origin --delete "$(git branch --show-current)"${M}`],
    [`git push origin --delete "feature/$N-fix"${M}`, `git push origin "feature/$N-fix"${M}`],
  ],
});
