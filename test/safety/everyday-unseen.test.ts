/**
 * A demanding user's first day, from commands nobody on this team wrote: the `run:` steps of
 * GitHub Actions workflows, the `RUN` lines of Dockerfiles, Makefile recipes and CONTRIBUTING.md
 * blocks of public repositories in several ecosystems, and the examples in the Debian docs of
 * this machine (test/fixtures/safety/everyday-unseen.txt, each group under a `#` line naming
 * where it came from). Every line must pass silently; the lines the docs deny by design
 * (publishing, pushing to main, commits without the marker, `curl | sh`, writes into system
 * folders) are not in it. Beside it, the false alarms it found, each with its dangerous
 * neighbour that stays denied.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { evaluateCommand } from '../../src/safety/evaluate.ts';
import { defaultPolicy } from '../../src/safety/policy.ts';
import { safetyContext, testEverydayCorpus, testHoles } from './context.ts';

testEverydayCorpus('everyday-unseen.txt', { name: 'the unseen corpus', atLeast: 800, infraAsks: false });

testHoles({
  // shell-vars.ts known: $USER and $LOGNAME name the user whose home it is (a name, never a path), unless the line sets them
  'a home folder spelled /home/$USER is that home': [
    ['sudo mkdir /home/$USER/.m2 /home/$USER/.gradle', 'cat /home/$USER/.aws/credentials'],
    ['ls -la /home/$LOGNAME/.cache', 'tar czf /tmp/k.tgz /home/$USER/.ssh'],
    ['du -sh "/home/${USER}/.cache/pip"', 'cp -r /home/$USER/.gnupg /tmp/g'],
    ['rm -rf /home/$USER/.npm/_cacache', 'rm -rf /home/$USER'],
    ['mkdir -p /home/$USER/.venvs', 'USER=u/.ssh; cat /home/$USER/x'],
  ],
  // path-uses-archives.ts tarMembers: `-C DIR` is the folder the names after it are read from, not a folder read
  'tar -C: the names after it are read from that folder': [
    ['tar -czf /tmp/src.tgz -C .. proj', 'tar -czf /tmp/h.tgz -C .. .ssh'],
    ['tar -czvf target/release/deno_src.tar.gz -C .. deno', 'tar -czf /tmp/h.tgz -C ~ .ssh'],
    ['tar -C .. -czf /tmp/x.tgz proj/src', 'tar -C .. -czf /tmp/x.tgz .'],
    ['tar --directory=.. -czf /tmp/x.tgz proj', 'tar --directory=.. -czf /tmp/x.tgz .aws'],
    ['tar czf /tmp/x.tgz -C /home/u proj', 'tar czf /tmp/x.tgz -C /home/u/.ssh .'],
    ['tar -czf /tmp/x.tgz -C build . -C ../docs .', 'tar -czf /tmp/x.tgz -C build . -C .. ..'],
    ['tar --create --file /tmp/x.tar --directory .. proj', 'tar --create --file /tmp/x.tar --directory .. .gnupg'],
  ],
  // shell.ts command: inside `[[ … ]]`, `||`, `&&` and parentheses join tests; the command ends at `]]`
  '[[ a || b ]] is one test, not a command after ||': [
    ['[[ "$file" == "a.toml" || "$file" =~ ^crates/.*\\.rs$ ]] && changed=1', '[[ -n "$file" ]] || cat .env.local'],
    ['[[ $f == a || $f =~ .*\\.rs ]]', '[[ $f == a ]] && cat .env.production'],
    ['[[ -z "$CI" && ( "$OS" == linux || "$OS" == darwin ) ]] && echo ok', '[[ $(cat ~/.ssh/id_rsa) || -n x ]]'],
    ['if [[ $a == x || $b =~ \\.env\\.* ]]; then echo y; fi', '[[ -f .env.prod ]] && source .env.prod'],
  ],
  // search-patterns.ts splitsSafely: a pattern in one pair of double quotes stays one word, whatever its substitution prints
  'a quoted grep pattern is a pattern, not a file': [
    [`golangci-lint version | grep -E "version v?$(head -n 1 .golangci.yml | tr -d '# v')"`, `grep -E "version v?$(head -n 1 .golangci.yml)" .env.local`],
    // unquoted, the substitution's words may be file names: one the text names as a secret's is read
    ['grep -q "x.$(cat VERSION).pem" CHANGELOG.md', 'grep -q x.$(cat VERSION).pem CHANGELOG.md'],
    ['grep -n "release-$(git describe --tags).*" docs/*.md', 'grep -n "release" $(echo .env.production)'],
  ],
});
