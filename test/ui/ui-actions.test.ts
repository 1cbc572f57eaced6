/**
 * A person changing knowledge from `axme ui` in a real browser (the system's Chromium through
 * playwright-core, against the built dist/axme.cjs): edit a memory, amend a decision (each then
 * shows both versions in its history), archive a memory, revoke a decision; and over plain HTTP
 * what keeps the forms the page's own: the Origin, the anti-forgery token, a page started by an
 * agent (the core's rules), a page of the past.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { git } from '../helpers.ts';
import { chromiumPath, demoStore, startUi, type UiProcess } from './fixture.ts';

const chromium = chromiumPath();
const skip =
  !chromium && !process.env.CI ? 'no chromium on this machine (apt-get install -y chromium): the browser tests of axme ui are skipped; in CI they run' : false;
const REF = 'refs/memory/main';

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

describe('axme ui: a person edits and retires knowledge', { skip }, () => {
  let store: { dir: string; cleanup: () => void };
  let ui: UiProcess;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  const tip = () => git(store.dir, ['rev-parse', REF]).trim();
  /** the token of the page's forms, read as the browser sees it */
  const token = async (path: string) => page.goto(`${ui.url}${path}`).then(() => page.locator('input[name=csrf]').first().getAttribute('value'));

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
  });
  after(async () => {
    await browser?.close();
    const code = await ui?.stop();
    store?.cleanup();
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
      await p.close();
      const origin = new URL(agentUi.url).origin;
      const amended = await post(`${agentUi.url}/act/decision/D-003/amend`, { csrf, reasoning: 'Incremental backups and faster vacuum.' }, { Origin: origin });
      assert.equal(amended.status, 303, amended.body);
      const before = tip();
      const refused = await post(`${agentUi.url}/act/decision/D-003/revoke`, { csrf, reason: 'in the way' }, { Origin: origin });
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
    const ok = await post(url, { csrf, reason: 'Orders moved to a document store.' }, { Origin: origin });
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
