/**
 * False alarms a fifth gathering of everyday command lines found — the CONTRIBUTING and docs shell
 * blocks, workflow `run:` steps, Makefile recipes, Dockerfile `RUN` lines and scripts of public
 * projects (the lines of the repositories no earlier corpus drew on are everyday-unseen3.txt) —
 * each with the dangerous neighbours the same rule must still deny.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decide, testAsks, testHoles } from './context.ts';

testHoles({
  // path-access.ts NAMERS: basename, dirname and expr compute on the word; realpath, readlink and du show a name or a size
  'a program that prints a name or a size reads no file': [
    ['basename .env', 'cat .env'],
    ['basename "$ENV_FILE" .env', 'source .env'],
    ['dirname config/.env', 'cp config/.env /tmp/x'],
    ['realpath .env', 'cat "$(realpath .env)"'],
    ['realpath -m .env.local', 'less .env.local'],
    ['expr .env : ".*"', 'expr "$(cat .env)" : ".*"'],
    ['readlink .env', 'readlink -f .env | xargs cat'],
    ['du -sh .env', 'du --files0-from=.env'],
    ['du $arg .[^.]* ./*;', 'du --files0-from .env'],
    ['basename config/.env.local', 'basename .env | xargs -I{} cat {}'],
    ['realpath --relative-to=. .env', 'cat "$(basename .env)"'],
    ['du -sh .[^.]*', 'head .[^.]*'],
  ],
  // command.ts shellStep: `trap -p` and `trap -l` print, they set no handler
  'trap -p lists the handlers, it sets none': [
    ['existing_cmd=`trap -p "${trap_add_name}" |  awk -F"\'" \'{print $2}\'`', "trap 'rm -rf ~' EXIT"],
    ['x=$(trap -p EXIT)', 'trap -- "rm -rf ~" EXIT'],
  ],
  // unknown-commands.ts exempt: apt-ftparchive's `release` writes a Release index to stdout, nothing leaves the machine
  "apt-ftparchive's words are index files it generates": [
    ['apt-ftparchive release . > out/Release', 'aptly publish repo main'],
    ['( cd out && apt-ftparchive release . ) > out/Release', 'reprepro -b repo export && mytool release'],
  ],
  // publish-clouds.ts: a Cloud Run service or job given a new image is a deploy without the word, as `az containerapp update --image`
  'Cloud Run given a new image ships it, as gcloud run deploy does': [
    ['gcloud run services describe SVC', 'gcloud run services update SVC --image IMG'],
    ['gcloud run jobs describe J', 'gcloud run jobs update J --image=us-docker.pkg.dev/p/r/app:2'],
  ],
});

testAsks({
  // github-api-rules.ts undoable: a label's DELETE matched from the URL's end, the repository and the issue as variables
  'a label taken off, whichever repository and issue a variable names': [
    [
      'gh api --method DELETE "repos/$GITHUB_REPOSITORY/issues/$PULL_REQUEST_NUMBER/labels/bot%3Arebase" --silent',
      'gh api -X DELETE "repos/$GITHUB_REPOSITORY/issues/comments/$ID"',
    ],
    ['gh api -X DELETE "repos/o/r/issues/$N/labels/bug"', 'gh api -X DELETE "repos/o/r/labels/$L"'],
    ['gh api -X DELETE "repos/$O/$R/issues/$N/labels"', 'gh api -X DELETE "repos/$R"'],
    ['gh api -X DELETE "repos/$GITHUB_REPOSITORY/labels/stale"', 'gh api -X DELETE "repos/o/r/$X/labels/bug"'],
  ],
});

test('a Cloud Run update without a new image is still the infra family’s ask', async () => {
  assert.match(await decide('gcloud run services update SVC --min-instances 0'), /^ask \[families\.infra: /);
  assert.match(await decide('gcloud run services update SVC --update-env-vars A=1'), /^ask \[families\.infra: /);
});
