// An edit form carries the version of the item it was rendered from (`base`: the item file's blob
// id); a submit made from an older version than the item's current one is refused with 409 and a
// page showing the item as it is now, and writes nothing. The real page (dist/axme.cjs) on a
// real store, over plain HTTP; the change in between is made by the CLI, as another writer would.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { axmeOk, git, tempRepo } from '../helpers.ts';
import { startUi, type UiProcess } from './fixture.ts';

const REF = 'refs/memory/main';

function http(url: string, form?: Record<string, string>): Promise<{ status: number; body: string; location?: string | undefined }> {
  const u = new URL(url);
  const data = form ? new URLSearchParams(form).toString() : undefined;
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: form ? 'POST' : 'GET',
        headers: form ? { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': Buffer.byteLength(data!), Origin: u.origin } : {},
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, body: text, location: res.headers.location }));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

/** The named form's hidden and visible fields, as the browser would send them unchanged. */
function formOf(page: string, action: string): Record<string, string> {
  const start = page.indexOf(`action="${action}"`);
  assert.ok(start > 0, `the page has a form posting to ${action}`);
  const form = page.slice(start, page.indexOf('</form>', start));
  const out: Record<string, string> = {};
  const unescape = (s: string) =>
    s
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  for (const m of form.matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)) out[m[1]!] = unescape(m[2]!);
  for (const m of form.matchAll(/<textarea name="([^"]+)"[^>]*>([^<]*)<\/textarea>/g)) out[m[1]!] = unescape(m[2]!);
  return out;
}

describe('an edit form made from an older version of its item', () => {
  let store: { dir: string; cleanup: () => void };
  let ui: UiProcess;

  before(async () => {
    store = tempRepo();
    await axmeOk(store.dir, ['init']);
    await axmeOk(store.dir, [
      'memory',
      'add',
      '--type',
      'feedback',
      '--title',
      'Run tests in docker',
      '--description',
      'Use the compose file.',
      '--keywords',
      'docker,tests',
    ]);
    await axmeOk(store.dir, ['decision', 'add', '--title', 'Amounts are integer cents', '--decision', 'No floats for money.', '--reasoning', 'Rounding.']);
    ui = await startUi(store.dir);
  });
  after(async () => {
    await ui?.stop();
    store?.cleanup();
  });

  test('a memory edited elsewhere after the page was opened: 409, the page shows it as it is now, nothing written; redone from it, saved', async () => {
    const action = '/act/memory/run-tests-in-docker/update';
    const opened = formOf((await http(`${ui.url}/item/memory/run-tests-in-docker`)).body, action);
    assert.match(opened.base ?? '', /^[0-9a-f]{40,64}$/, 'the form carries the version it was rendered from');
    await axmeOk(store.dir, ['memory', 'update', 'run-tests-in-docker', '--body', 'Needs DOCKER_HOST on macOS.', '--keywords', 'docker,tests,macos']);
    const tip = git(store.dir, ['rev-parse', REF]);
    const r = await http(`${ui.url}${action}`, { ...opened, title: 'Run tests in Docker' });
    assert.equal(r.status, 409);
    assert.match(r.body, /changed since/);
    assert.match(r.body, /Needs DOCKER_HOST on macOS\./, 'the page shows the memory as it is now');
    assert.match(r.body, /href="\/item\/memory\/run-tests-in-docker"/, 'and links to the page to redo the edit on');
    assert.equal(git(store.dir, ['rev-parse', REF]), tip, 'nothing was written');
    const again = formOf((await http(`${ui.url}/item/memory/run-tests-in-docker`)).body, action);
    const saved = await http(`${ui.url}${action}`, { ...again, title: 'Run tests in Docker' });
    assert.equal(saved.status, 303);
    const file = git(store.dir, ['show', `${REF}:memories/run-tests-in-docker.md`]);
    assert.match(file, /Run tests in Docker/);
    assert.match(file, /Needs DOCKER_HOST on macOS\./);
    assert.match(file, /macos/);
  });

  test('a decision amended elsewhere after the page was opened: 409 and nothing written; a form without its version is refused too', async () => {
    const action = '/act/decision/D-001/amend';
    const opened = formOf((await http(`${ui.url}/item/decision/D-001`)).body, action);
    await axmeOk(store.dir, ['decision', 'amend', 'D-001', '--reasoning', 'Floats round; sums drift.']);
    const tip = git(store.dir, ['rev-parse', REF]);
    const r = await http(`${ui.url}${action}`, { ...opened, title: 'Amounts are integer cents.' });
    assert.equal(r.status, 409);
    assert.match(r.body, /Floats round; sums drift\./);
    const { base: _, ...unversioned } = formOf((await http(`${ui.url}/item/decision/D-001`)).body, action);
    assert.equal((await http(`${ui.url}${action}`, { ...unversioned, title: 'Amounts are integer cents.' })).status, 400);
    assert.equal(git(store.dir, ['rev-parse', REF]), tip, 'nothing was written');
    const file = git(store.dir, ['show', `${REF}:decisions/amounts-are-integer-cents.md`]);
    assert.match(file, /Floats round; sums drift\./);
  });
});

describe('a revoke or archive form made from an older version of its item', () => {
  let store: { dir: string; cleanup: () => void };
  let ui: UiProcess;

  before(async () => {
    store = tempRepo();
    await axmeOk(store.dir, ['init']);
    await axmeOk(store.dir, ['memory', 'add', '--type', 'feedback', '--title', 'Cache in Valkey', '--description', 'Not Redis.']);
    await axmeOk(store.dir, ['decision', 'add', '--title', 'Store amounts in Postgres', '--decision', 'One database.', '--reasoning', 'Fewer parts.']);
    ui = await startUi(store.dir);
  });
  after(async () => {
    await ui?.stop();
    store?.cleanup();
  });

  test('a memory updated elsewhere after its archive form was opened: 409 and nothing written; a form without its version is refused; redone, archived', async () => {
    const action = '/act/memory/cache-in-valkey/archive';
    const opened = formOf((await http(`${ui.url}/item/memory/cache-in-valkey`)).body, action);
    assert.match(opened.base ?? '', /^[0-9a-f]{40,64}$/, 'the archive form carries the version it was rendered from');
    await axmeOk(store.dir, ['memory', 'update', 'cache-in-valkey', '--body', 'Valkey 8 needs the new client.']);
    const tip = git(store.dir, ['rev-parse', REF]);
    const r = await http(`${ui.url}${action}`, opened);
    assert.equal(r.status, 409);
    assert.match(r.body, /changed since/);
    assert.match(r.body, /Valkey 8 needs the new client\./, 'the page shows the memory as it is now');
    const { base: _, ...unversioned } = formOf((await http(`${ui.url}/item/memory/cache-in-valkey`)).body, action);
    assert.equal((await http(`${ui.url}${action}`, unversioned)).status, 400);
    assert.equal(git(store.dir, ['rev-parse', REF]), tip, 'nothing was written');
    const again = formOf((await http(`${ui.url}/item/memory/cache-in-valkey`)).body, action);
    assert.equal((await http(`${ui.url}${action}`, again)).status, 303);
    assert.match(git(store.dir, ['show', `${REF}:memories/cache-in-valkey.md`]), /status: archived/);
  });

  test('a decision amended elsewhere after its revoke form was opened: 409 and nothing written; a form without its version is refused; redone, revoked', async () => {
    const action = '/act/decision/D-001/revoke';
    const opened = formOf((await http(`${ui.url}/item/decision/D-001`)).body, action);
    assert.match(opened.base ?? '', /^[0-9a-f]{40,64}$/, 'the revoke form carries the version it was rendered from');
    await axmeOk(store.dir, ['decision', 'amend', 'D-001', '--reasoning', 'Fewer parts to run at night.']);
    const tip = git(store.dir, ['rev-parse', REF]);
    const r = await http(`${ui.url}${action}`, { ...opened, reason: 'We moved to SQLite.' });
    assert.equal(r.status, 409);
    assert.match(r.body, /Fewer parts to run at night\./, 'the page shows the decision as it is now');
    assert.match(r.body, /We moved to SQLite\./, 'and the reason as sent, to redo');
    const { base: _, ...unversioned } = formOf((await http(`${ui.url}/item/decision/D-001`)).body, action);
    assert.equal((await http(`${ui.url}${action}`, { ...unversioned, reason: 'We moved to SQLite.' })).status, 400);
    assert.equal(git(store.dir, ['rev-parse', REF]), tip, 'nothing was written');
    const again = formOf((await http(`${ui.url}/item/decision/D-001`)).body, action);
    assert.equal((await http(`${ui.url}${action}`, { ...again, reason: 'We moved to SQLite.' })).status, 303);
    assert.match(git(store.dir, ['show', `${REF}:decisions/store-amounts-in-postgres.md`]), /status: revoked/);
  });
});
