/**
 * AXME_BIN and AXME_NODE choose the axme that every hook starts (the harness hooks and the git
 * hooks try them first, setup/launch.ts). An agent's command that sets them — before git, through
 * `env`, exported, declared — makes the commit-msg and pre-push hooks run a program of its choice
 * (`/bin/true`), so a commit lands without the hook's checks, trailers or note: the same way around
 * the hooks as another exec path. Reading them, or unsetting them, is everyday.
 */
import { testHoles } from './context.ts';

const MARKED = 'git commit -m "fix: typo\n\n#!axme pr=none repo=acme/app"';

testHoles({
  'the variables that choose the axme the hooks start': [
    [MARKED, `AXME_BIN=/bin/true ${MARKED}`],
    ['echo "$AXME_BIN"', `AXME_NODE=/tmp/fake-node ${MARKED}`],
    ['printenv AXME_NODE', `env AXME_BIN=/tmp/x/axme ${MARKED}`],
    ['unset AXME_BIN', `export AXME_BIN=/bin/true; ${MARKED}`],
    ['axme doctor', `declare -x AXME_BIN=/bin/true; ${MARKED}`],
    ['AXME_X=1 npm test', 'export AXME_NODE=/bin/true'],
  ],
});
