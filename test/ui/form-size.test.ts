// A form larger than the page accepts (256 KB) is answered 413 Payload Too Large, as docs/ui.md
// says, and writes nothing. The real page (dist/axme.cjs) over plain HTTP.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, test } from 'node:test';
import { axmeOk, git, tempRepo } from '../helpers.ts';
import { startUi, type UiProcess } from './fixture.ts';

let store: { dir: string; cleanup: () => void };
let ui: UiProcess;
before(async () => {
  store = tempRepo();
  await axmeOk(store.dir, ['init']);
  await axmeOk(store.dir, ['decision', 'add', '--title', 'Amounts are integer cents', '--decision', 'No floats for money.']);
  ui = await startUi(store.dir);
});
after(async () => {
  await ui?.stop();
  store?.cleanup();
});

test('a form over 256 KB: 413, nothing written', async () => {
  const tip = git(store.dir, ['rev-parse', 'refs/memory/main']);
  const u = new URL(`${ui.url}/act/decision/D-001/amend`);
  const data = new URLSearchParams({ reasoning: 'x'.repeat(300 * 1024) }).toString();
  const status = await new Promise<number>((resolve, reject) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': Buffer.byteLength(data), Origin: u.origin },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode!);
      },
    );
    req.on('error', reject);
    req.end(data);
  });
  assert.equal(status, 413);
  assert.equal(git(store.dir, ['rev-parse', 'refs/memory/main']), tip);
});
