/**
 * `axme ui` in a real browser: the system's Chromium (never a download) driven by
 * playwright-core against the built dist/axme.cjs on a demo store. Every view, a supersession
 * chain and a timeline entry clicked through, search as you type, the XSS title as text, stale
 * marks, no console errors; and, over plain HTTP, the refusals (POST, a foreign Host).
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { axme, tempRepo } from '../helpers.ts';
import { chromiumPath, demoStore, startUi, type UiProcess, XSS_TITLE } from './fixture.ts';

const chromium = chromiumPath();
const skip =
  !chromium && !process.env.CI ? 'no chromium on this machine (apt-get install -y chromium): the browser tests of axme ui are skipped; in CI they run' : false;

/** A raw HTTP request (the browser would not send a foreign Host or let us read a refusal's body). */
function raw(url: string, opts: { method?: string; host?: string }): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: u.hostname, port: u.port, path: u.pathname, method: opts.method ?? 'GET', headers: opts.host ? { Host: opts.host } : {} },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, body, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(opts.method === 'POST' ? 'title=x' : undefined);
  });
}

describe('axme ui', { skip }, () => {
  let store: { dir: string; cleanup: () => void };
  let ui: UiProcess;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  const dialogs: string[] = [];

  before(async () => {
    if (!chromium) throw new Error('CI is set but no chromium was found: .ci/run installs it (apt-get install -y chromium)');
    store = await demoStore();
    ui = await startUi(store.dir);
    const { chromium: pw } = await import('playwright-core');
    browser = await pw.launch({ executablePath: chromium, args: ['--no-sandbox'] });
    page = await browser.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
  });
  after(async () => {
    await browser?.close();
    const code = await ui?.stop();
    store?.cleanup();
    assert.equal(code, 0, 'axme ui exits 0 on SIGTERM');
  });

  test('every view of the navigation opens, with its heading and no error', async () => {
    await page.goto(`${ui.url}/`);
    assert.equal(new URL(page.url()).pathname, '/decisions');
    const views: Array<[string, string, RegExp]> = [
      ['Decisions', 'Decisions', /Use Postgres 17 for orders/],
      ['Memories', 'Memories', /Payment helpers/],
      ['Backlog', 'Backlog', /Refund endpoint/],
      ['Questions', 'Questions', /second approval/],
      ['Safety', 'Safety rules', /protectedBranches/],
      ['Sessions', 'Sessions and handoffs', /demo-session-1/],
      ['Oracle', 'Oracle', /Stack|stack/],
      ['Timeline', 'Timeline', /supersede D-002/],
      ['Code', 'Code commits', /charge takes cents/],
    ];
    for (const [link, heading, content] of views) {
      const res = page.waitForResponse((r) => r.request().isNavigationRequest());
      await page.click(`nav >> text=${link}`);
      assert.equal((await res).status(), 200, link);
      assert.equal(await page.textContent('main h1'), heading);
      assert.match((await page.textContent('main'))!, content, link);
      assert.equal(await page.locator('nav a.active').textContent(), link);
    }
  });

  test('the backlog is a board with one column per status', async () => {
    await page.goto(`${ui.url}/backlog`);
    assert.deepEqual(await page.locator('.board .col').evaluateAll((cols) => cols.map((c) => c.getAttribute('data-status'))), [
      'open',
      'in-progress',
      'done',
      'blocked',
    ]);
    assert.match((await page.textContent('.col[data-status="in-progress"]'))!, /Refund endpoint/);
    assert.match((await page.textContent('.col[data-status="blocked"]'))!, /Retry failed webhooks/);
  });

  test('a supersession chain is drawn old to new, and each link opens its decision', async () => {
    await page.goto(`${ui.url}/decisions`);
    const chain = page.locator('.chains .chain').first();
    assert.deepEqual(
      (await chain.locator('a').allTextContents()).map((t) => t.trim()),
      ['D-001 Use Postgres for orders', 'D-002 Use Postgres 16 for orders', 'D-003 Use Postgres 17 for orders'],
    );
    await chain.locator('a').first().click();
    assert.match((await page.textContent('main h1'))!, /D-001 Use Postgres for orders/);
    assert.match((await page.textContent('main'))!, /superseded/);
    // on the item page, the chain marks it and leads on to its successor
    assert.equal((await page.locator('.chain a.current').textContent())!.trim(), 'D-001 Use Postgres for orders');
    await page.locator('.chain a', { hasText: 'D-002' }).click();
    assert.match((await page.textContent('main h1'))!, /D-002 Use Postgres 16/);
    await page.locator('.chain a', { hasText: 'D-003' }).click();
    assert.match((await page.textContent('main h1'))!, /D-003 Use Postgres 17/);
    assert.match((await page.textContent('main dl.fields'))!, /required/);
    // its history: one version (the supersede that created it)
    await page.click('text=history');
    await page.waitForURL(/\/history\//);
    await page.locator('.change').first().waitFor();
    assert.equal(await page.locator('.change').count(), 1);
  });

  test('a timeline entry opens the semantic diff of its commit', async () => {
    await page.goto(`${ui.url}/timeline`);
    await page.locator('a.commit', { hasText: 'supersede D-002' }).click();
    assert.match((await page.textContent('main h1'))!, /^Commit [0-9a-f]{12}$/);
    assert.match((await page.textContent('.summary'))!, /1 added, 1 superseded/);
    const superseded = page.locator('.semantic-diff .change[data-change="superseded"]');
    assert.match((await superseded.textContent())!, /Use Postgres 16 for orders[\s\S]*D-003 Use Postgres 17 for orders/);
    assert.match((await page.textContent('main dl.fields'))!, /decision\.superseded/);
  });

  test('search as you type ranks as axme search does', async () => {
    await page.goto(`${ui.url}/memories`);
    await page.keyboard.press('/');
    await page.keyboard.type('cents');
    // the answer to the whole word (an earlier keystroke's may land first): the page says which in its URL
    await page.waitForFunction(() => (globalThis as unknown as { location: { search: string } }).location.search === '?q=cents');
    await page.waitForSelector('ol.hits li');
    assert.equal(new URL(page.url()).pathname, '/search');
    const hits = await page.locator('ol.hits li a').allTextContents();
    assert.ok(
      hits.some((h) => /Charge in cents/.test(h)),
      hits.join(' | '),
    );
    // the same query as a plain page (Enter), with the stale mark on a stale hit
    await page.goto(`${ui.url}/search?q=payment+helpers`);
    assert.match((await page.textContent('ol.hits'))!, /Payment helpers[\s\S]*may be outdated/);
  });

  test('the XSS title renders as text: no script runs, the text is visible', async () => {
    await page.goto(`${ui.url}/decisions`);
    const cell = page.locator('td a', { hasText: XSS_TITLE });
    assert.equal(await cell.count(), 1);
    assert.ok(await cell.isVisible());
    assert.equal(await page.locator('main img').count(), 0);
    await cell.click();
    assert.equal(await page.textContent('main h1'), `D-005 ${XSS_TITLE}`);
    assert.equal(await page.locator('img').count(), 0);
    assert.deepEqual(dialogs, []);
  });

  test('stale items are marked "may be outdated" in the lists and on their page', async () => {
    await page.goto(`${ui.url}/decisions`);
    const row = page.locator('tr', { hasText: 'Charge in cents' });
    assert.match((await row.locator('.stale').textContent())!, /may be outdated: src\/pay\.ts changed in 1 commit/);
    await page.goto(`${ui.url}/memories`);
    assert.match((await page.locator('tr', { hasText: 'Payment helpers' }).locator('.stale').textContent())!, /may be outdated/);
    await page.goto(`${ui.url}/item/decision/D-004`);
    assert.match((await page.textContent('main .stale'))!, /may be outdated/);
  });

  test('a code commit leads to its session, and the session to what it saved', async () => {
    await page.goto(`${ui.url}/code`);
    const row = page.locator('tr', { hasText: 'charge takes cents' });
    assert.match((await row.textContent())!, /D-004 Charge in cents/);
    await row.locator('a', { hasText: 'demo-session-1' }).click();
    assert.equal(await page.textContent('main h1'), 'Session demo-session-1');
    assert.match((await page.textContent('main'))!, /Refund handler written/);
  });

  test('no console errors and no page errors on any page visited', () => {
    assert.deepEqual(problems, []);
  });

  test("GET and HEAD, and POST to the page's forms only: a POST elsewhere is refused with 405 and changes nothing", async () => {
    const r = await raw(`${ui.url}/decisions`, { method: 'POST' });
    assert.equal(r.status, 405);
    assert.match(r.body, /GET and HEAD, and POST to its own forms \(\/act\/\.\.\.\) only/);
    assert.equal(r.headers.allow, 'GET, HEAD');
    for (const method of ['PUT', 'DELETE', 'PATCH']) assert.equal((await raw(`${ui.url}/decisions`, { method })).status, 405, method);
  });

  test('a request for another Host (DNS rebinding) is refused; loopback names are answered', async () => {
    const port = new URL(ui.url).port;
    const evil = await raw(`${ui.url}/decisions`, { host: 'evil.example' });
    assert.equal(evil.status, 421);
    assert.match(evil.body, /evil\.example/);
    assert.doesNotMatch(evil.body, /Postgres/);
    assert.equal((await raw(`${ui.url}/decisions`, { host: `evil.example:${port}` })).status, 421);
    assert.equal((await raw(`${ui.url}/decisions`, { host: `localhost:${port}` })).status, 200);
  });

  test('security headers: a CSP allowing only its own scripts and styles, nosniff, no caching of data', async () => {
    const r = await raw(`${ui.url}/decisions`, {});
    assert.match(String(r.headers['content-security-policy']), /default-src 'none'; script-src 'self'; style-src 'self'/);
    assert.equal(r.headers['x-content-type-options'], 'nosniff');
    assert.equal(r.headers['cache-control'], 'no-store');
  });
});

test('axme ui: a port that is not one is a usage error (exit 2) naming the range, with nothing served', async () => {
  const { dir, cleanup } = tempRepo({ commit: true });
  try {
    for (const port of ['abc', '70000', '-1', '1.5']) {
      const r = await axme(dir, ['ui', '--port', port]);
      assert.equal(r.code, 2, port);
      assert.match(r.stderr, /--port must be a whole number from 0 to 65535 \(0 picks a free one\)/, port);
      assert.equal(r.stdout, '', port);
    }
  } finally {
    cleanup();
  }
});
