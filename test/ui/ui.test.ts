/**
 * `axme ui` in a real browser: the system's Chromium (never a download) driven by playwright-core
 * against the built dist/axme.cjs on a demo store.
 *
 * Reading: every view, a supersession chain and a timeline entry clicked through, search as you
 * type, the XSS title as text, stale marks, no console errors; and, over plain HTTP, the refusals
 * (POST, a foreign Host).
 *
 * A person changing knowledge: edit a memory, amend a decision (each then shows both versions in
 * its history), archive a memory, revoke a decision; and over plain HTTP what keeps the forms the
 * page's own: the Origin, the anti-forgery token, a page started by an agent (the core's rules), a
 * page of the past.
 *
 * One Chromium for both (a context of its own for each page) and one demo store, made once: the
 * reading views run on it, the edits on a copy of its folder.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { axme, git, tempRepo } from '../helpers.ts';
import { chromiumPath, demoStore, startUi, type UiProcess, XSS_TITLE } from './fixture.ts';

const chromium = chromiumPath();
const skip =
  !chromium && !process.env.CI ? 'no chromium on this machine (apt-get install -y chromium): the browser tests of axme ui are skipped; in CI they run' : false;
const REF = 'refs/memory/main';

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

/** A form POST as a page elsewhere (or a script) would send it: its own Origin, any token. */
function post(url: string, body: Record<string, string>, headers: Record<string, string> = {}): Promise<{ status: number; body: string; location?: string }> {
  const u = new URL(url);
  const data = new URLSearchParams(body).toString();
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': Buffer.byteLength(data), ...headers },
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

describe('axme ui in a real browser', { skip }, () => {
  let browser: Browser;
  /** the demo store the reading views show, and a copy of it that the edits change */
  let shown: { dir: string; cleanup: () => void };
  let store: { dir: string; cleanup: () => void };

  before(async () => {
    if (!chromium) throw new Error('CI is set but no chromium was found: .ci/run installs it (apt-get install -y chromium)');
    shown = await demoStore();
    // a repository holds no absolute path of its own: a byte-for-byte copy is the same store
    const copy = mkdtempSync(join(tmpdir(), 'axme-test-'));
    cpSync(shown.dir, copy, { recursive: true });
    store = { dir: copy, cleanup: () => rmSync(copy, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }) };
    const { chromium: pw } = await import('playwright-core');
    browser = await pw.launch({ executablePath: chromium, args: ['--no-sandbox'] });
  });
  after(async () => {
    await browser?.close();
    shown?.cleanup();
    store?.cleanup();
  });

  /** A new page of the browser whose console errors and warnings and uncaught errors go to `problems`. */
  const pageReporting = async (problems: string[]): Promise<Page> => {
    const page = await browser.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    return page;
  };

  describe('axme ui', () => {
    let ui: UiProcess;
    let page: Page;
    const problems: string[] = [];
    const dialogs: string[] = [];

    before(async () => {
      ui = await startUi(shown.dir);
      page = await pageReporting(problems);
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
    });
    after(async () => {
      await page?.context().close();
      const code = await ui?.stop();
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

  describe('axme ui: a person edits and retires knowledge', () => {
    let ui: UiProcess;
    let page: Page;
    const problems: string[] = [];
    const tip = () => git(store.dir, ['rev-parse', REF]).trim();
    /** the token of the page's forms, read as the browser sees it */
    const token = async (path: string) => page.goto(`${ui.url}${path}`).then(() => page.locator('input[name=csrf]').first().getAttribute('value'));

    before(async () => {
      ui = await startUi(store.dir);
      page = await pageReporting(problems);
    });
    after(async () => {
      await page?.context().close();
      const code = await ui?.stop();
      assert.equal(code, 0, 'axme ui exits 0 on SIGTERM');
    });

    test('edit a memory in place: the page lands on its history, both versions shown', async () => {
      await page.goto(`${ui.url}/item/memory/short-commit-subjects`);
      await page.click('summary >> text=Edit this memory');
      await page.fill('form.edit textarea[name=description]', 'The team wants commit subjects under 50 characters.');
      const nav = page.waitForURL(/\/history\/memory\/short-commit-subjects$/);
      await page.click('form.edit button[type=submit]');
      await nav;
      assert.equal(await page.locator('.change').count(), 2, 'both versions');
      const diff = (await page.textContent('.change >> nth=0'))!;
      assert.match(diff, /-description: The team wants commit subjects under 60 characters\./);
      assert.match(diff, /\+description: The team wants commit subjects under 50 characters\./);
      assert.match(diff, /memory: update Short commit subjects \(description\)/);
      assert.match(git(store.dir, ['log', '-1', '--format=%B', REF]), /Axme-Actor: human/);
    });

    test("amend a decision's wording: same ID, both versions in its history", async () => {
      await page.goto(`${ui.url}/item/decision/D-004`);
      await page.click('summary >> text=Amend the wording');
      await page.fill('form.edit input[name=title]', 'Charge amounts in cents');
      const nav = page.waitForURL(/\/history\/decision\/charge-in-cents$/);
      await page.click('form.edit button[type=submit] >> text=Save the amendment');
      await nav;
      assert.equal(await page.locator('.change').count(), 2);
      assert.match((await page.textContent('.change >> nth=0'))!, /-title: Charge in cents[\s\S]*\+title: Charge amounts in cents/);
      await page.goto(`${ui.url}/item/decision/D-004`);
      assert.equal(await page.textContent('main h1'), 'D-004 Charge amounts in cents');
      assert.match((await page.textContent('main dl.fields'))!, /enforce\s*required/);
    });

    test('archive a memory and revoke a required decision, as a person', async () => {
      await page.goto(`${ui.url}/item/memory/payment-helpers`);
      await page.click('summary >> text=Archive this memory');
      await Promise.all([page.waitForURL(/\/item\/memory\/payment-helpers$/), page.click('button >> text=Archive')]);
      assert.match((await page.textContent('main dl.fields'))!, /status\s*archived/);
      assert.equal(await page.locator('section.actions').count(), 0, 'an archived memory offers no change');
      await page.goto(`${ui.url}/item/decision/D-004`);
      await page.click('summary >> text=Revoke this decision');
      await page.fill('textarea[name=reason]', 'Amounts moved to a Money type.');
      await Promise.all([page.waitForURL(/\/item\/decision\/charge-in-cents$/), page.click('button >> text=Revoke')]);
      assert.match((await page.textContent('main dl.fields'))!, /status\s*revoked[\s\S]*Amounts moved to a Money type\./);
    });

    test("a page started by an agent follows the agent's rules: rewording is open, a required decision is not revoked", async () => {
      const agentUi = await startUi(store.dir, [], { AXME_ACTOR: 'agent' });
      try {
        const p = await browser.newPage();
        await p.goto(`${agentUi.url}/item/decision/D-003`);
        const csrf = (await p.locator('input[name=csrf]').first().getAttribute('value'))!;
        const base = (await p.locator('input[name=base]').first().getAttribute('value'))!;
        await p.close();
        const origin = new URL(agentUi.url).origin;
        const amended = await post(
          `${agentUi.url}/act/decision/D-003/amend`,
          { csrf, base, reasoning: 'Incremental backups and faster vacuum.' },
          { Origin: origin },
        );
        assert.equal(amended.status, 303, amended.body);
        const before = tip();
        // the revoke form as the page shows it after the amend (its version is the amended one)
        const again = await browser.newPage();
        await again.goto(`${agentUi.url}/item/decision/D-003`);
        const amendedBase = (await again.locator('input[name=base]').first().getAttribute('value'))!;
        await again.close();
        const refused = await post(`${agentUi.url}/act/decision/D-003/revoke`, { csrf, base: amendedBase, reason: 'in the way' }, { Origin: origin });
        assert.equal(refused.status, 403);
        assert.match(refused.body, /is a required decision: .*only a person may do/);
        assert.equal(tip(), before, 'nothing written');
      } finally {
        await agentUi.stop();
      }
    });

    test("a change needs the page's Origin and its token: anything else is refused and changes nothing", async () => {
      const csrf = (await token('/item/decision/D-003'))!;
      assert.ok(csrf && csrf.length >= 40);
      const base = (await page.locator('input[name=base]').first().getAttribute('value'))!;
      const before = tip();
      const url = `${ui.url}/act/decision/D-003/revoke`;
      const origin = new URL(ui.url).origin;
      const noOrigin = await post(url, { csrf, reason: 'x' });
      assert.equal(noOrigin.status, 403);
      assert.match(noOrigin.body, /a change must come from this page/);
      assert.equal((await post(url, { csrf, reason: 'x' }, { Origin: 'http://evil.example' })).status, 403);
      // a sandboxed frame elsewhere posts with Origin null: the browser marks it cross-site
      assert.equal((await post(url, { csrf, reason: 'x' }, { Origin: 'null', 'Sec-Fetch-Site': 'cross-site' })).status, 403);
      const badToken = await post(url, { csrf: 'x'.repeat(csrf.length), reason: 'x' }, { Origin: origin });
      assert.equal(badToken.status, 403);
      assert.match(badToken.body, /reload the page/);
      assert.equal((await post(url, { reason: 'x' }, { Origin: origin })).status, 403, 'no token');
      assert.equal((await post(`${ui.url}/act/decision/D-003/delete`, { csrf }, { Origin: origin })).status, 404, 'no such action');
      assert.equal(tip(), before, 'nothing written');
      const ok = await post(url, { csrf, base, reason: 'Orders moved to a document store.' }, { Origin: origin });
      assert.equal(ok.status, 303, ok.body);
      assert.equal(ok.location, '/item/decision/use-postgres-17-for-orders');
    });

    test('a page of the past (--at) offers no change and refuses one', async () => {
      const past = await startUi(store.dir, ['--at', `${REF}~1`]);
      try {
        const p = await browser.newPage();
        await p.goto(`${past.url}/item/memory/short-commit-subjects`);
        assert.equal(await p.locator('section.actions').count(), 0);
        await p.close();
        const r = await post(`${past.url}/act/memory/short-commit-subjects/archive`, { csrf: 'x' }, { Origin: new URL(past.url).origin });
        assert.equal(r.status, 403);
        assert.match(r.body, /shows the past/);
      } finally {
        await past.stop();
      }
    });

    test('no console errors and no page errors', () => {
      assert.deepEqual(problems, []);
    });
  });
});

test('axme ui: a port that is not one is a usage error (exit 2) naming the range, with nothing served', async () => {
  const { dir, cleanup } = tempRepo({ commit: true });
  try {
    for (const port of ['abc', '70000', '-1', '1.5']) {
      const r = await axme(dir, ['ui', '--port', port]);
      assert.equal(r.code, 2, port);
      assert.match(r.stderr, new RegExp(`--port takes a whole number from 0 to 65535, not "${port}"`), port);
      assert.equal(r.stdout, '', port);
    }
  } finally {
    cleanup();
  }
});
