import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decide, testAsks, testHoles } from './context.ts';

/**
 * Where two copies of one concept differed, the case that shows it: [an everyday command, its
 * dangerous neighbour]. The context is context.ts's: the project /home/u/proj on main, home /home/u.
 */
testHoles({
  // a trap handler runs with what the line set before it, by any builtin that sets names (shell-vars.ts SETTING_BUILTINS)
  'a trap handler runs with the aliases and `printf -v` values the line set': [
    [`printf -v d '%s' dist; trap 'rm -rf "$d"' EXIT`, `printf -v d '%s' ~; trap 'rm -rf "$d"' EXIT`],
    [`alias clean='rm -rf dist'; trap clean EXIT`, `alias x='rm -rf ~'; trap x EXIT`],
    [`alias x='ls'; trap x EXIT`, `alias x='rm -rf ~'; trap 'x; echo done' EXIT`],
  ],
  // github-api.ts reads curl's words with request-hosts.ts's table of its options: a cluster's last letter takes the value
  "curl's clustered options are read as curl reads them": [
    ['curl -sX GET https://api.github.com/repos/acme/app/contents/a.ts', 'curl -sX DELETE https://api.github.com/repos/acme/app/git/refs/heads/main'],
    [
      `curl -sX PUT https://api.github.com/repos/acme/app/contents/a.ts -d '{"message":"x","content":"eA==","branch":"feature"}'`,
      `curl -sX PUT https://api.github.com/repos/acme/app/contents/a.ts -d '{"message":"x","content":"eA=="}'`,
    ],
  ],
});

testAsks({
  'a DELETE through curl with clustered options is asked as gh api -X DELETE is': [
    ['curl -sI https://api.github.com/repos/acme/app', 'curl -fsSX DELETE https://api.github.com/repos/acme/app'],
    [
      'curl -sX GET https://api.github.com/repos/acme/app/git/refs/heads/feature-x',
      'curl -sX DELETE https://api.github.com/repos/acme/app/git/refs/heads/feature-x',
    ],
  ],
  // infra-backups.ts reads curl's method with request-hosts.ts curlMethod, as github-api.ts does
  'a search index deleted through curl with clustered options is asked': [
    ['curl -sX GET localhost:9200/_all', 'curl -sX DELETE localhost:9200/_all'],
    ['curl -sX DELETE localhost:9200/idx/_doc/1', "curl -fsXDELETE 'http://es:9200/logs-*'"],
  ],
  // unknown.ts reads the code handed to a program it does not know as infra-sql.ts reads a database shell's
  "an unknown database shell's SQL is read as SQL, as psql's is": [
    ["cqlsh -e 'SELECT * FROM users'", "cqlsh -e 'TRUNCATE users'"],
    ["cqlsh -e 'DELETE FROM users WHERE id = 1'", "cqlsh -e 'DELETE FROM users'"],
    ["cqlsh -e 'DROP INDEX users_by_mail'", "cqlsh -e 'DROP TABLE users'"],
    ["cqlsh -e 'CREATE TABLE t (id int PRIMARY KEY); DROP TABLE t'", "cqlsh --execute='truncate shop.users'"],
    ["cqlsh -e 'DESCRIBE KEYSPACES'", "cqlsh -e 'DROP KEYSPACE shop'"],
  ],
});

test('gh api -X DELETE is asked by one rule, with one finding', async () => {
  assert.equal(await decide('gh api -X DELETE repos/acme/app'), 'ask [families.infra: gh api -X DELETE]');
  assert.equal(await decide('gh api --method=DELETE repos/acme/app/git/refs/heads/feat-old'), 'ask [families.infra: gh api -X DELETE]');
});
