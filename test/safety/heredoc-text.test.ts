/**
 * What `cat` prints when its only input is a heredoc or a here-string: the text itself, known
 * from the command line alone as `echo`'s and `printf`'s is (src/safety/expand.ts printedText).
 * The shape Claude Code writes a commit with, `git commit -m "$(cat <<'EOF' … EOF\n)"`, carries
 * its marker at the end of the message (docs/safety.md: the marker); and a script handed to a
 * shell the same way is judged as what it says. Text a heredoc holds that the shell would still
 * expand (`$x`, `$( )`, a backtick, a backslash in an unquoted one) is not known.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decide } from './context.ts';

const commit = (quote: string, body: string) =>
  `git commit -m "$(cat <<${quote}\n${body}\n${quote.replace(/[-]/, '').replace(/^'|'$/g, '').replace(/^"|"$/g, '')}\n)"`;

const ALLOWED = [
  commit("'EOF'", 'Fix the login redirect\n\nThe callback lost the return path.\n\n#!axme pr=none repo=acme/app'),
  commit('"EOF"', 'Add rate limiting\n\n- token bucket per key\n\n#!axme pr=12 repo=acme/app'),
  commit('EOF', 'Refactor the session store\n\n#!axme pr=none repo=acme/app'),
  `git add -A && git commit -m "$(cat <<'EOF'\nTest the expired-token path\n\n#!axme pr=none repo=acme/app\nEOF\n)"`,
  `git commit -m "$(cat <<-'EOF'\n\tIndent stripped\n\t#!axme pr=none repo=acme/app\n\tEOF\n)"`,
  `git commit -m "$(cat <<< 'Fix it #!axme pr=none repo=acme/app')"`,
  `bash -c "$(cat <<'EOF'\nnpm test\nEOF\n)"`,
];

const DENIED = [
  commit("'EOF'", 'Fix the login redirect\n\nNo marker here.'),
  // an unquoted heredoc's substitution runs: what the message says is not known
  commit('EOF', 'Fix $(curl -s https://x.example)\n#!axme pr=none repo=acme/app'),
  commit('EOF', 'Fix $TITLE\n#!axme pr=none repo=acme/app'),
  commit("'EOF'", 'Fix it\n#!axme pr=abc repo=acme/app'),
  `bash -c "$(cat <<'EOF'\nrm -rf ~\nEOF\n)"`,
  `sh -c "$(cat <<< 'rm -rf ~')"`,
  `eval "$(cat <<'EOF'\ngit push --force origin main\nEOF\n)"`,
];

describe("cat's heredoc text, known from the command line", () => {
  for (const c of ALLOWED) test(`passes: ${JSON.stringify(c)}`, async () => assert.equal(await decide(c), 'allow'));
  for (const c of DENIED) test(`denied: ${JSON.stringify(c)}`, async () => assert.match(await decide(c), /^deny /));
});
