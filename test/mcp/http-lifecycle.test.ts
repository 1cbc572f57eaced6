import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { rateLimiter } from '../../src/mcp/http/auth.ts';
import { type SyncTimers, syncLoop } from '../../src/mcp/http/sync-loop.ts';
import { axmeIn, axmeInOk } from '../cli-in-process.ts';
import { withCore } from '../core.ts';
import { axme, cleanEnv, git, tempRepo } from '../helpers.ts';
import { makeStore } from '../store-fixture.ts';
import { httpClient, startHttp, type ToolResult, text } from './http-helpers.ts';

/** A tool call that answered, not with an error result. */
const answered = (r: ToolResult): boolean => !r.isError && text(r).length > 0;

/** Timers a test fires by hand: what the sync loop has scheduled is there to see, no clock runs. */
function handTimers(): SyncTimers & { scheduled(): number[]; fireNext(): Promise<void> } {
  const waiting = new Map<number, { fire: () => Promise<void>; ms: number }>();
  let next = 0;
  return {
    set(fire, ms) {
      waiting.set(++next, { fire, ms });
      return next;
    },
    clear: (timer) => void waiting.delete(timer as number),
    scheduled: () => [...waiting.values()].map((w) => w.ms),
    async fireNext() {
      const [first] = waiting;
      assert.ok(first, 'nothing is scheduled');
      waiting.delete(first[0]);
      await first[1].fire();
    },
  };
}

/** `axme serve --http` over time: idle sessions, a stop with writes in flight, refused binds, the token commands, the timer sync. */

describe('axme serve --http: lifecycle', () => {
  let dir: string;
  let cleanup: () => void;
  before(async () => {
    ({ dir, cleanup } = await makeStore({ init: { scan: 'if-new' }, commit: false }));
  });
  after(() => cleanup());

  test('axme token add/list/revoke: printed once, only the hash kept', async () => {
    const file = join(dir, 'team-tokens.json');
    const added = await axmeInOk(dir, ['token', 'add', 'carol', '--scope', 'admin', '--json', '--tokens', file]);
    assert.deepEqual(Object.keys(added).sort(), ['name', 'scope', 'token']);
    assert.equal(added.name, 'carol');
    assert.equal(added.scope, 'admin');
    assert.match(added.token, /^axme_[A-Za-z0-9_-]{43}$/);
    const plain = await axmeInOk(dir, ['token', 'add', 'dave', '--scope', 'read', '--tokens', file]);
    assert.match(plain, /^axme_\S+\n$/);
    const stored = readFileSync(file, 'utf8');
    assert.ok(!stored.includes(added.token) && !stored.includes(plain.trim()), 'the file holds a token');
    assert.match(stored, /"hash": "sha256:[0-9a-f]{64}"/);
    assert.equal(statSync(file).mode & 0o077, 0);
    const list = await axmeInOk(dir, ['token', 'list', '--json', '--tokens', file]);
    assert.deepEqual(
      list.map((t: { name: string; scope: string }) => [t.name, t.scope]),
      [
        ['carol', 'admin'],
        ['dave', 'read'],
      ],
    );
    assert.ok(list.every((t: Record<string, unknown>) => !('token' in t) && !('hash' in t) && 'created' in t && 'lastUsed' in t));
    assert.doesNotMatch(await axmeInOk(dir, ['token', 'list', '--tokens', file]), /axme_/);
    // through the binary: the real process's exit code and stderr (the other token commands in-process)
    const dup = await axme(dir, ['token', 'add', 'carol', '--scope', 'read', '--tokens', file]);
    assert.equal(dup.code, 2);
    assert.match(dup.stderr, /exists already/);
    await axmeInOk(dir, ['token', 'revoke', 'carol', '--tokens', file]);
    assert.deepEqual(
      (await axmeInOk(dir, ['token', 'list', '--json', '--tokens', file])).map((t: { name: string }) => t.name),
      ['dave'],
    );
    assert.equal((await axmeIn(dir, ['token', 'revoke', 'carol', '--tokens', file])).code, 1);
    // the default place: the repository's machine-local state
    await axmeInOk(dir, ['token', 'add', 'erin', '--scope', 'write']);
    assert.match(readFileSync(join(dir, '.git', 'axme', 'tokens.json'), 'utf8'), /"name": "erin"/);
    await axmeInOk(dir, ['token', 'revoke', 'erin']);
  });

  test('bad --http flags are refused before anything listens (exit 2, the flag named)', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['--http', '--port', '70000'], /--port takes a whole number from 0 to 65535, not "70000"/],
      [['--http', '--port', '-1'], /--port takes a whole number from 0 to 65535, not "-1"/],
      [['--http', '--max-body', '10'], /--max-body takes a whole number of at least 1024, not "10"/],
      [['--http', '--rate-limit', 'x'], /--rate-limit takes a number of at least 0, not "x"/],
      [['--http', '--idle-timeout', '0'], /--idle-timeout takes a number of at least 0.1, not "0"/],
      [['--http', '--host', ''], /--host needs one address/],
      [['--http', '--sessions-per-token', '0'], /--sessions-per-token takes a whole number of at least 1, not "0"/],
      [['--http', '--sessions-per-token', '2.5'], /--sessions-per-token takes a whole number of at least 1, not "2\.5"/],
      [['--port', '7777'], /--port goes with --http/],
    ];
    for (const [args, message] of cases) {
      const r = await axme(dir, ['serve', ...args]);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message, args.join(' '));
      assert.equal(r.stdout, '');
    }
  });

  test('past the per-token rate, requests get 429 with Retry-After; the server goes on answering the other tokens', async () => {
    const file = join(dir, 'rate-tokens.json');
    const busy = (await axmeInOk(dir, ['token', 'add', 'busy', '--scope', 'read', '--json', '--tokens', file])).token as string;
    const calm = (await axmeInOk(dir, ['token', 'add', 'calm', '--scope', 'read', '--json', '--tokens', file])).token as string;
    const server = await startHttp(dir, ['--rate-limit', '2', '--tokens', file]);
    try {
      const send = () =>
        fetch(server.url, {
          method: 'POST',
          headers: { authorization: `Bearer ${busy}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
        });
      // 2 requests a second in bursts of 10: 30 at once empty busy's bucket
      const answers = await Promise.all(Array.from({ length: 30 }, send));
      const limited = answers.filter((r) => r.status === 429);
      assert.ok(limited.length > 0, `statuses: ${answers.map((r) => r.status).join(',')}`);
      assert.match(limited[0]!.headers.get('retry-after') ?? '', /^\d+$/);
      // another token has its own bucket (the refill over time: the limiter's own test below)
      const client = await httpClient(server.url, calm);
      assert.ok(answered((await client.callTool({ name: 'axme_status', arguments: {} })) as ToolResult), 'another token is answered');
      await client.close();
    } finally {
      assert.equal((await server.stop()).code, 0);
    }
  });

  test('the rate limiter refills the bucket of each token with time, up to the burst; Retry-After is when one request fits', () => {
    const limiter = rateLimiter({ perSecond: 2, burst: 10 });
    const t0 = 1_000_000;
    const takes = (key: string, at: number, n: number) => Array.from({ length: n }, () => limiter.take(key, at).ok);
    assert.deepEqual(takes('busy', t0, 10), Array(10).fill(true));
    assert.deepEqual(limiter.take('busy', t0), { ok: false, retryAfterS: 1 });
    // another token is not charged for busy's requests
    assert.equal(limiter.take('calm', t0).ok, true);
    // half a second refills one request, a second two
    assert.deepEqual(takes('busy', t0 + 500, 2), [true, false]);
    assert.deepEqual(takes('busy', t0 + 1_500, 3), [true, true, false]);
    // an hour idle refills the burst, not more
    assert.deepEqual(takes('busy', t0 + 3_600_000, 11), [...Array(10).fill(true), false]);
    // no limit set: every request passes
    const open = rateLimiter({ perSecond: 0, burst: 0 });
    assert.ok(Array.from({ length: 100 }, () => open.take('', t0).ok).every(Boolean));
  });

  test('an idle session is closed and forgotten', async () => {
    const server = await startHttp(dir, ['--idle-timeout', '1']);
    try {
      const client = await httpClient(server.url);
      assert.ok(answered((await client.callTool({ name: 'axme_status', arguments: {} })) as ToolResult));
      // said before the session goes
      await server.waitForLog(/closed after 1 s idle/);
      await assert.rejects(client.callTool({ name: 'axme_status', arguments: {} }), (err: { code?: number }) => err.code === 404);
      // a new session works
      const again = await httpClient(server.url);
      assert.ok(answered((await again.callTool({ name: 'axme_status', arguments: {} })) as ToolResult));
      await again.close();
    } finally {
      assert.equal((await server.stop()).code, 0);
    }
  });

  test('SIGTERM with writes in flight: each acknowledged write is stored, exit 0', async () => {
    const server = await startHttp(dir);
    const client = await httpClient(server.url);
    const writes = Array.from({ length: 8 }, (_, i) =>
      client.callTool({ name: 'axme_backlog_add', arguments: { title: `In flight ${i}` } }).then(
        (r) => ({ ok: !(r as ToolResult).isError, r: r as ToolResult }),
        (err: Error) => ({ ok: false, err }),
      ),
    );
    // the first answer back: the other writes are still on their way
    await Promise.race(writes);
    const stopped = server.stop('SIGTERM');
    const results = await Promise.all(writes);
    const exit = await stopped;
    assert.equal(exit.code, 0, server.stderr());
    assert.match(server.stderr(), /stopping \(SIGTERM/);
    const acked = results.filter((x) => x.ok).length;
    assert.ok(acked >= 1, `no write finished: ${server.stderr()}`);
    const backlog = await axmeInOk(dir, ['backlog', 'list', '--json']);
    const titles = JSON.stringify(backlog);
    for (let i = 0; i < results.length; i++) if (results[i]!.ok) assert.ok(titles.includes(`In flight ${i}`), `acknowledged write ${i} lost`);
  });

  test('a repository with no remote: the timer sync says once that it is off; writes still answer', async () => {
    const server = await startHttp(dir, ['--sync-interval', '1']);
    try {
      await server.waitForLog(/sync: the repository has no git remote; the timer sync is off/);
      const client = await httpClient(server.url);
      assert.match(
        text((await client.callTool({ name: 'axme_backlog_add', arguments: { title: 'Written with the timer off' } })) as ToolResult),
        /Written with the timer off|B-\d+/,
      );
      await client.close();
      assert.doesNotMatch(server.stderr(), /sync failed/);
    } finally {
      assert.equal((await server.stop()).code, 0);
    }
  });

  test('the timer sync with no remote: its first run turns it off, and nothing is scheduled after, not even by a write', async () => {
    const timers = handTimers();
    const said: string[] = [];
    await withCore(dir, async (kb) => {
      const loop = syncLoop({ kb: async () => kb, env: cleanEnv(), intervalS: 1, log: (m) => said.push(m), timers });
      assert.deepEqual(timers.scheduled(), [0], 'the first run, at once');
      await timers.fireNext();
      assert.deepEqual(said, ['sync: the repository has no git remote; the timer sync is off']);
      assert.deepEqual(timers.scheduled(), [], 'no next run');
      loop.kick();
      assert.deepEqual(timers.scheduled(), [], 'no run after a write');
      await loop.stop(true);
      assert.equal(said.length, 1, said.join('\n'));
    });
  });

  test('a bare repository with a remote syncs on a timer and after writes', async () => {
    const { dir: remote, cleanup: dropRemote } = tempRepo({ bare: true });
    const { dir: owned, cleanup: dropOwned } = tempRepo({ bare: true });
    try {
      git(dir, ['push', '-q', remote, 'refs/memory/main:refs/memory/main']);
      git(owned, ['remote', 'add', 'origin', remote]);
      git(owned, ['fetch', '-q', 'origin', 'refs/memory/main:refs/memory/main']);
      const server = await startHttp(owned, ['--sync-interval', '1']);
      try {
        const client = await httpClient(server.url);
        assert.match(
          text(
            (await client.callTool({ name: 'axme_save_decision', arguments: { title: 'Synced by the team server', decision: 'It pushes.' } })) as ToolResult,
          ),
          /Decision saved/,
        );
        // the run that pushed says so once the remote has it
        await server.waitForLog(/sync with \S+: [^\n]*pushed/, 30_000);
        assert.match(git(remote, ['log', '--format=%s', 'refs/memory/main']), /Synced by the team server/, server.stderr());
        await client.close();
      } finally {
        assert.equal((await server.stop()).code, 0);
      }
    } finally {
      dropRemote();
      dropOwned();
    }
  });
});
