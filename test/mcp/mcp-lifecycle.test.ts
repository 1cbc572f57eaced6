import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { JsonLineSplitter, type Line } from '../../src/mcp/json-lines.ts';
import { checkLine } from '../../src/mcp/request-check.ts';
import { initCore } from '../core.ts';
import { CLI, cleanEnv, git, tempRepo } from '../helpers.ts';
import { makeStore } from '../store-fixture.ts';
import { HANG_BOUND_MS, processesEnded, until } from '../until.ts';

/**
 * `axme serve` as a process: what happens when its client goes away, sends too much, or sends
 * garbage. Raw JSON lines on a real pipe (the SDK client cannot send malformed input), the real
 * SDK client where the normal path is exercised.
 */

type Msg = { jsonrpc: '2.0'; id?: string | number | null; result?: any; error?: { code: number; message: string; data?: any }; method?: string };

const INIT = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'lifecycle-test', version: '1' } },
};
const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };
const call = (id: number | string, name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});
const ping = (id: number | string) => ({ jsonrpc: '2.0', id, method: 'ping' });

/** A server process on raw pipes: lines out parsed, stderr kept, its exit observed (killed at the hang bound, so a hang fails the test instead of stalling it). */
class RawServer {
  readonly child: ChildProcessWithoutNullStreams;
  readonly messages: Msg[] = [];
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; hung: boolean }>;
  private buf = '';

  constructor(dir: string, env: NodeJS.ProcessEnv = {}) {
    this.child = spawn(process.execPath, [CLI, 'serve'], { cwd: dir, env: cleanEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdin.on('error', () => {});
    this.child.stdout.setEncoding('utf8').on('data', (d: string) => {
      this.buf += d;
      let nl: number;
      while ((nl = this.buf.indexOf('\n')) >= 0) {
        const line = this.buf.slice(0, nl);
        this.buf = this.buf.slice(nl + 1);
        if (line.trim()) this.messages.push(JSON.parse(line));
      }
    });
    this.child.stderr.setEncoding('utf8').on('data', (d: string) => (this.stderr += d));
    this.exited = new Promise((resolve) => {
      let hung = false;
      const timer = setTimeout(() => {
        hung = true;
        this.child.kill('SIGKILL');
      }, HANG_BOUND_MS);
      this.child.on('exit', (code, signal) => {
        clearTimeout(timer);
        resolve({ code, signal, hung });
      });
    });
  }

  /**
   * What the server wrote to stderr since offset `from`, once it matches `pattern`: stderr and
   * stdout are separate pipes, so a reply can arrive before the line logged with it.
   */
  async logged(from: number, pattern: RegExp): Promise<string> {
    return until(`the server logs ${pattern}`, () => pattern.test(this.stderr.slice(from)) && this.stderr.slice(from), {
      detail: () => `stderr: ${this.stderr}`,
    });
  }

  send(msg: unknown): void {
    this.child.stdin.write(typeof msg === 'string' ? msg : `${JSON.stringify(msg)}\n`);
  }

  /** The reply to request `id`, once it has come. */
  async reply(id: string | number | null): Promise<Msg> {
    return until(`the reply to ${JSON.stringify(id)}`, () => this.messages.find((m) => m.id === id && (m.result !== undefined || m.error !== undefined)), {
      detail: () => `got ${JSON.stringify(this.messages).slice(0, 500)}; stderr: ${this.stderr}`,
    });
  }

  async initialize(): Promise<void> {
    this.send(INIT);
    await this.reply(0);
    this.send(INITIALIZED);
  }

  repliesTo(id: string | number): Msg[] {
    return this.messages.filter((m) => m.id === id);
  }
}

describe('axme serve stops cleanly and answers what it was sent', () => {
  let dir: string;
  let cleanup: () => void;
  before(async () => {
    ({ dir, cleanup } = await makeStore({ init: { gitHooks: true, scan: 'if-new' } }));
  });
  after(() => cleanup());

  for (const session of ['s1', undefined]) {
    test(`a read call sent just before stdin closes is answered, then the server exits (AXME_SESSION=${session ?? 'unset'})`, async () => {
      const s = new RawServer(dir, session ? { AXME_SESSION: session } : {});
      await s.initialize();
      s.send(call(1, 'axme_status'));
      s.child.stdin.end();
      const exit = await s.exited;
      assert.equal(exit.hung, false, `the server did not exit after stdin closed; stderr: ${s.stderr}`);
      assert.equal(exit.code, 0);
      const r = s.repliesTo(1);
      assert.equal(r.length, 1, 'exactly one answer');
      assert.match(r[0]!.result.content[0].text, /refs\/memory\/main @ [0-9a-f]{12}/);
    });
  }

  test('a write sent just before stdin closes is committed and answered', async () => {
    const before = git(dir, ['rev-parse', 'refs/memory/main']).trim();
    const s = new RawServer(dir, { AXME_SESSION: 's1' });
    await s.initialize();
    s.send(call(2, 'axme_save_memory', { type: 'pattern', title: 'written at the edge of EOF', description: 'saved just before the client closed stdin' }));
    s.child.stdin.end();
    const exit = await s.exited;
    assert.equal(exit.hung, false, `hung; stderr: ${s.stderr}`);
    const [r] = s.repliesTo(2);
    assert.ok(r?.result, `answered with a result: ${JSON.stringify(r)}`);
    assert.match(r.result.content[0].text, /Memory saved: written-at-the-edge-of-eof/);
    assert.equal(git(dir, ['rev-list', '--count', `${before}..refs/memory/main`]).trim(), '1', 'the answered write is committed once');
    assert.match(git(dir, ['ls-tree', '-r', '--name-only', 'refs/memory/main']), /written-at-the-edge-of-eof/);
  });

  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    test(`${signal} with a write in flight: the call is answered (done or refused, never silently), the server exits`, async () => {
      const before = git(dir, ['rev-parse', 'refs/memory/main']).trim();
      const title = `memory before ${signal.toLowerCase()}`;
      const s = new RawServer(dir, { AXME_SESSION: 's1' });
      await s.initialize();
      s.send(call(3, 'axme_save_memory', { type: 'pattern', title, description: 'a write racing a signal' }));
      const from = s.stderr.length;
      s.child.kill(signal);
      // stdin stays open: a request after the stop began is refused, not run. "After" is once the
      // server says it is stopping: a signal and a line sent after it race inside a busy process
      await s.logged(from, /stopping \(/);
      s.send(call(4, 'axme_save_memory', { type: 'pattern', title: `${title} late`, description: 'sent after the signal' }));
      const exit = await s.exited;
      assert.equal(exit.hung, false, `hung; stderr: ${s.stderr}`);
      assert.equal(exit.code, 0, `exit code; stderr: ${s.stderr}`);
      const [r3] = s.repliesTo(3);
      assert.ok(r3, `request 3 answered; stderr: ${s.stderr}`);
      // the commits that wrote this memory (the stop may also commit a session's recovery: not counted)
      const slug = title.replace(/ /g, '-');
      const added = git(dir, ['log', '--format=', '--name-only', '--diff-filter=A', `${before}..refs/memory/main`])
        .split('\n')
        .filter((f) => f.includes(slug) && !f.includes(`${slug}-late`)).length;
      if (r3.result) assert.equal(added, 1, 'a write answered with a result is committed');
      else {
        assert.equal(r3.error?.code, -32000);
        assert.equal(added, 0, 'a write refused at the stop is not committed');
      }
      // request 4 is either refused or not read at all (stdin is not read after the stop): never run
      for (const m of s.repliesTo(4)) assert.equal(m.error?.code, -32000, JSON.stringify(m));
      assert.doesNotMatch(git(dir, ['ls-tree', '-r', '--name-only', 'refs/memory/main']), /late/);
    });
  }

  test('the stop leaves no git child process behind', async () => {
    const s = new RawServer(dir, { AXME_SESSION: 's1' });
    await s.initialize();
    s.send(call(5, 'axme_decisions'));
    await s.reply(5);
    // the warm knowledge base holds a `git cat-file --batch` child of the server
    const kids = () => childrenOf(s.child.pid!);
    assert.ok(kids().length > 0, 'the server keeps a git child while it runs');
    const pids = kids();
    s.child.stdin.end();
    assert.equal((await s.exited).hung, false);
    // the children see their stdin close with the server: their ends are awaited, however long a loaded machine takes
    await processesEnded(pids);
  });
});

describe('axme serve bounds and answers malformed input (JSON-RPC 2.0)', () => {
  let dir: string;
  let cleanup: () => void;
  before(async () => {
    ({ dir, cleanup } = await makeStore({ init: { gitHooks: true, scan: 'if-new' } }));
  });
  after(() => cleanup());

  test('an oversize request (20 MiB, 10.5 MiB) is refused by id, logged, and the next request is served', async (t) => {
    const s = new RawServer(dir);
    await s.initialize();
    let n = 5;
    for (const mib of [20, 10.5]) {
      await t.test(`a ${mib} MiB request`, async () => {
        const id = `big-${mib}`;
        const logFrom = s.stderr.length;
        // the id comes last, as the SDK client writes it
        s.send(
          `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"axme_save_memory","arguments":{"type":"pattern","title":"huge","description":"${'x'.repeat(mib * 1024 * 1024)}"}},"id":"${id}"}\n`,
        );
        const pinged = ++n;
        s.send(ping(pinged));
        const r = await s.reply(id);
        assert.equal(r.error?.code, -32600);
        assert.match(r.error!.message, /too large: \d+ bytes .*limit of 4194304 bytes/);
        assert.equal(r.error!.data.limitBytes, 4 * 1024 * 1024);
        assert.deepEqual((await s.reply(pinged)).result, {});
        const called = ++n;
        s.send(call(called, 'axme_status'));
        assert.ok((await s.reply(called)).result, 'a tool call after the oversize one is served');
        const refused = new RegExp(`request "${id}" refused`);
        assert.match(await s.logged(logFrom, refused), new RegExp(`request "${id}" refused: \\d+ bytes is over the limit`));
      });
    }
    s.child.stdin.end();
    assert.equal((await s.exited).code, 0);
    assert.doesNotMatch(git(dir, ['ls-tree', '-r', '--name-only', 'refs/memory/main']), /huge/);
  });

  const cases: Array<{ name: string; line: string; id: string | number | null; code: number; message: RegExp; log: RegExp }> = [
    { name: 'a line that is not JSON', line: '{not json', id: null, code: -32700, message: /Parse error/, log: /parse error/ },
    { name: 'a JSON value that is not an object', line: '42', id: null, code: -32600, message: /Invalid Request/, log: /invalid request/ },
    { name: 'a batch', line: '[{"jsonrpc":"2.0","id":1,"method":"ping"}]', id: null, code: -32600, message: /batch/, log: /batch/ },
    {
      name: 'a wrong jsonrpc version',
      line: '{"jsonrpc":"1.0","id":"v","method":"ping"}',
      id: 'v',
      code: -32600,
      message: /"jsonrpc" must be "2.0"/,
      log: /invalid request/,
    },
    { name: 'a request without a method', line: '{"jsonrpc":"2.0","id":"m"}', id: 'm', code: -32600, message: /needs "method"/, log: /invalid request/ },
    {
      name: 'tools/call with a numeric tool name',
      line: '{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":5}}',
      id: 8,
      code: -32602,
      message: /Invalid params for tools\/call: params\.name/,
      log: /invalid params/,
    },
    {
      name: 'params that are not an object',
      line: '{"jsonrpc":"2.0","id":9,"method":"tools/call","params":"x"}',
      id: 9,
      code: -32602,
      message: /"params" must be an object/,
      log: /invalid params/,
    },
    {
      name: 'resources/read without a uri',
      line: '{"jsonrpc":"2.0","id":10,"method":"resources/read","params":{}}',
      id: 10,
      code: -32602,
      message: /params\.uri/,
      log: /invalid params/,
    },
    {
      name: 'params nested 100k deep',
      line: `{"jsonrpc":"2.0","id":11,"method":"tools/call","params":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`,
      id: 11,
      code: -32600,
      message: /nested \d+ levels deep; axme accepts at most 64/,
      log: /nested \d+ levels deep/,
    },
    {
      name: 'arrays nested 100k deep in arguments',
      line: `{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"axme_status","arguments":{"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}}}`,
      id: 12,
      code: -32600,
      message: /levels deep/,
      log: /levels deep/,
    },
  ];

  test('each malformed line gets the specified error with its id, is logged, and the server keeps serving', async () => {
    const s = new RawServer(dir);
    await s.initialize();
    let n = 100;
    for (const c of cases) {
      const before = s.messages.length;
      const logBefore = s.stderr.length;
      s.send(`${c.line}\n`);
      s.send(ping(++n));
      await s.reply(n);
      const got = s.messages.slice(before).filter((m) => m.id !== n);
      assert.equal(got.length, 1, `${c.name}: exactly one reply, got ${JSON.stringify(got)}`);
      assert.equal(got[0]!.id, c.id, `${c.name}: id`);
      assert.equal(got[0]!.error?.code, c.code, `${c.name}: code (${got[0]!.error?.message})`);
      assert.match(got[0]!.error!.message, c.message, c.name);
      assert.match(await s.logged(logBefore, c.log), c.log, `${c.name}: logged on stderr`);
    }
    // a malformed notification is logged, never answered
    const before = s.messages.length;
    s.send('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{}}}\n');
    s.send(ping(++n));
    await s.reply(n);
    assert.equal(s.messages.length, before + 1, 'only the ping was answered');
    assert.match(await s.logged(0, /notification/), /notification/);
    s.child.stdin.end();
    assert.equal((await s.exited).code, 0);
  });

  test('bad tool arguments still come back as a tool error naming the field (the SDK client path)', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'serve'],
      cwd: dir,
      env: cleanEnv() as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'lifecycle-test', version: '1' });
    await client.connect(transport);
    const r = (await client.callTool({ name: 'axme_save_memory', arguments: { type: 'pattern' } })) as { isError?: boolean; content: Array<{ text: string }> };
    assert.equal(r.isError, true);
    assert.match(r.content[0]!.text, /title/);
    await client.close();
  });
});

describe('a connection that does nothing leaves nothing', () => {
  test('no calls, or read calls only, without AXME_SESSION: no store commit and no handoff, also after the next start', async () => {
    const { dir, cleanup } = tempRepo({ commit: true });
    try {
      await initCore(dir, { gitHooks: true, scan: 'if-new' });
      const tip = git(dir, ['rev-parse', 'refs/memory/main']).trim();
      const sessions = join(dir, '.git', 'axme', 'sessions');
      const records = () => {
        try {
          return readdirSync(sessions).filter((f) => f.endsWith('.json'));
        } catch {
          return [];
        }
      };
      // a script that lists the tools and goes away
      const quiet = new RawServer(dir);
      await quiet.initialize();
      quiet.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      await quiet.reply(1);
      // Claude Code lists the resources as it starts, beside its SessionStart hook: a read binds no session
      quiet.send({ jsonrpc: '2.0', id: 2, method: 'resources/list' });
      assert.ok((await quiet.reply(2)).result);
      quiet.child.stdin.end();
      assert.equal((await quiet.exited).code, 0);
      assert.deepEqual(records(), [], 'no session is recorded for a connection that called no tool');
      // an inspector that reads
      const reader = new RawServer(dir);
      await reader.initialize();
      for (const [i, name] of ['axme_status', 'axme_context', 'axme_decisions', 'axme_search_kb'].entries()) {
        reader.send(call(i + 1, name, name === 'axme_search_kb' ? { query: 'cache' } : {}));
        assert.ok((await reader.reply(i + 1)).result);
      }
      reader.child.stdin.end();
      assert.equal((await reader.exited).code, 0);
      // the next server's start sweep sees the ended sessions too
      const next = new RawServer(dir);
      await next.initialize();
      next.send(ping(1));
      await next.reply(1);
      next.child.stdin.end();
      await next.exited;
      assert.equal(git(dir, ['rev-parse', 'refs/memory/main']).trim(), tip, 'the store is unchanged');
    } finally {
      cleanup();
    }
  });
});

describe('request framing (unit)', () => {
  const split = (input: string, chunkSize: number, opts = { maxLineBytes: 1000, maxDepth: 8 }): Line[] => {
    const s = new JsonLineSplitter(opts);
    const buf = Buffer.from(input);
    const out: Line[] = [];
    for (let i = 0; i < buf.length; i += chunkSize) out.push(...s.push(buf.subarray(i, i + chunkSize)));
    const last = s.end();
    if (last) out.push(last);
    return out;
  };

  test('lines survive any chunking, multi-byte characters included', () => {
    const input = `${JSON.stringify({ a: 'ünïcödé 🎉 "quoted\\" \\\\', id: 1 })}\n\n${JSON.stringify({ b: [1, { c: 2 }] })}\n{"tail":true}`;
    for (const size of [1, 2, 3, 5, 7, 64, 4096]) {
      const lines = split(input, size);
      assert.deepEqual(
        lines.map((l) => (l.kind === 'json' ? JSON.parse(l.text) : l.kind)),
        [{ a: 'ünïcödé 🎉 "quoted\\" \\\\', id: 1 }, { b: [1, { c: 2 }] }, { tail: true }],
        `chunk size ${size}`,
      );
    }
  });

  test('the top-level id of a dropped line is found wherever it is, and only at the top level', () => {
    const big = 'y'.repeat(2000);
    const table: Array<[string, string | number | null]> = [
      [`{"jsonrpc":"2.0","params":{"id":"inner","x":"${big}"},"id":42}`, 42],
      [`{"id":"first","params":{"x":"${big}"}}`, 'first'],
      [`{"id" : "spaced \\" quote","params":{"x":"${big}"}}`, 'spaced " quote'],
      [`{"params":{"x":"${big}", "id": 7}}`, null],
      [`{"id":{"obj":1},"params":"${big}"}`, null],
      [`{"id":1.5,"params":"${big}"}`, null],
      [`["id", 3, "${big}"]`, null],
      [`{"key":"\\"id\\"","params":"${big}","id":"x"}`, 'x'],
    ];
    for (const [line, id] of table) {
      const [l] = split(`${line}\n`, 333);
      assert.equal(l?.kind, 'oversize', line.slice(0, 60));
      assert.equal(l.kind === 'oversize' && l.id, id, line.slice(0, 60));
    }
  });

  test('depth is counted outside strings only', () => {
    assert.equal(split(`{"id":1,"s":"${'['.repeat(50)}"}\n`, 10)[0]?.kind, 'json');
    const deep = split(`{"id":3,"a":${'['.repeat(9)}${']'.repeat(9)}}\n`, 10)[0];
    assert.equal(deep?.kind, 'too-deep');
    assert.equal(deep.kind === 'too-deep' && deep.id, 3);
  });

  test('checkLine: a valid request passes unchanged; a valid notification too', () => {
    const ok = checkLine('{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"axme_status","arguments":{}}}');
    assert.equal(ok.ok, true);
    assert.equal(checkLine('{"jsonrpc":"2.0","method":"notifications/initialized"}').ok, true);
    // methods MCP does not define are left to the SDK (it answers "method not found")
    assert.equal(checkLine('{"jsonrpc":"2.0","id":1,"method":"x/unknown","params":{"a":1}}').ok, true);
  });
});

function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8') as string;
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(d));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}
