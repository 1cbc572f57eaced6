/**
 * The tokens file of `axme serve --http`: a server noting last uses never loses a token added or
 * brings back one revoked meanwhile, and `axme token add` run many times at once keeps them all.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { addToken, listTokens, revokeToken, tokenVerifier } from '../../src/knowledge/admin/tokens.ts';
import { axme, cleanEnv } from '../helpers.ts';

describe('the tokens file', () => {
  test('last uses go to a file of their own: a token added or revoked meanwhile stays so', () => {
    const dir = mkdtempSync(join(tmpdir(), 'axme-tokens-'));
    try {
      const path = join(dir, 'tokens.json');
      const now = new Date('2026-11-26T00:00:00.000Z');
      const alice = addToken({ path, name: 'alice', scope: 'write', now });
      const mallory = addToken({ path, name: 'mallory', scope: 'write', now });
      const server = tokenVerifier(path);
      assert.equal(server.verify(alice.token)?.name, 'alice');
      // uses are noted by the token's stored hash (a name may be another token's later)
      server.touch(server.verify(alice.token)!.hash, new Date('2026-11-26T01:00:00.000Z'));
      server.touch(server.verify(mallory.token)!.hash, new Date('2026-11-26T01:00:00.000Z'));
      // between the server's notes and its flush, a person adds one token and revokes another
      addToken({ path, name: 'bob', scope: 'read', now });
      assert.deepEqual(
        revokeToken({ path, name: 'mallory' }),
        { name: 'mallory', left: 2 },
        'how many remain: none left means a running server refuses everyone',
      );
      server.flush();
      const names = listTokens(path)
        .map((t) => t.name)
        .sort();
      assert.deepEqual(names, ['alice', 'bob'], 'bob kept, mallory not brought back');
      assert.equal(listTokens(path).find((t) => t.name === 'alice')!.lastUsed, '2026-11-26T01:00:00.000Z');
      assert.doesNotMatch(readFileSync(path, 'utf8'), new RegExp(alice.token), 'no token in the file, only its hash');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('ten `axme token add` at once: all ten are kept', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'axme-tokens-'));
    try {
      const file = join(dir, 'tokens.json');
      const runs = await Promise.all(
        Array.from({ length: 10 }, (_, i) => axme(dir, ['token', 'add', `t${i}`, '--scope', 'read', '--tokens', file, '--json'], { env: cleanEnv() })),
      );
      for (const r of runs) assert.equal(r.code, 0, r.stderr);
      assert.equal(listTokens(file).length, 10);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
