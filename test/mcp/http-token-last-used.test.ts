import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { axmeIn, axmeInOk } from '../cli-in-process.ts';
import { makeStore } from '../store-fixture.ts';
import { INIT, raw, startHttp } from './http-helpers.ts';

/**
 * When a token was last used (`axme token list`) is the token's own: a name revoked and added
 * again starts with "never", whatever the revoked token did. The servers record uses by the token's
 * stored hash; a file of uses written before, by name, is read without a crash and counts only
 * for a token it can be the use of.
 */

type Listed = { name: string; lastUsed: string | null; created: string };
const listed = async (dir: string, file: string, name: string) =>
  ((await axmeInOk(dir, ['token', 'list', '--json', '--tokens', file])) as Listed[]).find((t) => t.name === name)!;

describe('axme token list: last used is the token’s, not its name’s', () => {
  let dir: string;
  let cleanup: () => void;
  before(async () => {
    ({ dir, cleanup } = await makeStore({ init: { scan: 'if-new' }, commit: false }));
  });
  after(() => cleanup());

  test('revoke -> add again under the name -> list: the new token was never used', async () => {
    const file = join(dir, 'reused.json');
    const old = (await axmeInOk(dir, ['token', 'add', 'bob', '--scope', 'read', '--json', '--tokens', file])).token as string;
    const server = await startHttp(dir, ['--tokens', file]);
    try {
      assert.equal((await raw(server.url, { headers: { Authorization: `Bearer ${old}` }, body: INIT })).status, 200);
    } finally {
      // the server writes the uses it noted when it stops
      assert.equal((await server.stop()).code, 0);
    }
    assert.ok((await listed(dir, file, 'bob')).lastUsed, 'the use of the token is recorded');
    await axmeInOk(dir, ['token', 'revoke', 'bob', '--tokens', file]);
    await axmeInOk(dir, ['token', 'add', 'bob', '--scope', 'read', '--json', '--tokens', file]);
    assert.equal((await listed(dir, file, 'bob')).lastUsed, null, "the new bob shows the revoked bob's last use");
    const text = await axmeInOk(dir, ['token', 'list', '--tokens', file]);
    assert.match(text, /^bob\tread\tcreated \S+\tlast used never$/m);
  });

  test('a file of uses by name (written before): a use before the token was added is not its; one after is; a damaged file is no crash', async () => {
    const file = join(dir, 'old-uses.json');
    await axmeInOk(dir, ['token', 'add', 'carol', '--scope', 'read', '--json', '--tokens', file]);
    await axmeInOk(dir, ['token', 'add', 'dave', '--scope', 'read', '--json', '--tokens', file]);
    const created = (await listed(dir, file, 'dave')).created;
    const later = new Date(Date.parse(created) + 60_000).toISOString();
    const uses = join(dir, 'old-uses.used.json');
    writeFileSync(uses, JSON.stringify({ carol: '2020-01-01T00:00:00.000Z', dave: later }));
    assert.equal((await listed(dir, file, 'carol')).lastUsed, null, 'a use before carol was added (a revoked carol’s) is shown as hers');
    assert.equal((await listed(dir, file, 'dave')).lastUsed, later, 'a use by name after dave was added is his');
    for (const damaged of ['{', '[1,2]', '{"dave": 7}', 'null']) {
      writeFileSync(uses, damaged);
      const r = await axmeIn(dir, ['token', 'list', '--json', '--tokens', file]);
      assert.equal(r.code, 0, `${damaged}: ${r.stderr}`);
      assert.equal((JSON.parse(r.stdout) as Listed[]).find((t) => t.name === 'dave')!.lastUsed, null);
    }
  });

  test('a server recording uses into a file of uses by name keeps what is right and writes it by hash', async () => {
    const file = join(dir, 'migrated.json');
    const erin = (await axmeInOk(dir, ['token', 'add', 'erin', '--scope', 'read', '--json', '--tokens', file])).token as string;
    await axmeInOk(dir, ['token', 'add', 'frank', '--scope', 'read', '--json', '--tokens', file]);
    const created = (await listed(dir, file, 'frank')).created;
    const later = new Date(Date.parse(created) + 60_000).toISOString();
    const uses = join(dir, 'migrated.used.json');
    writeFileSync(uses, JSON.stringify({ erin: '2020-01-01T00:00:00.000Z', frank: later }));
    const server = await startHttp(dir, ['--tokens', file]);
    try {
      assert.equal((await raw(server.url, { headers: { Authorization: `Bearer ${erin}` }, body: INIT })).status, 200);
    } finally {
      assert.equal((await server.stop()).code, 0);
    }
    const written = JSON.parse(readFileSync(uses, 'utf8')) as Record<string, string>;
    assert.deepEqual(
      Object.keys(written).filter((k) => !k.startsWith('sha256:')),
      [],
      'names left as keys',
    );
    assert.ok((await listed(dir, file, 'erin')).lastUsed! > created, "erin's use recorded");
    assert.equal((await listed(dir, file, 'frank')).lastUsed, later, "frank's use by name kept");
  });
});
