// Screenshots of `axme ui`'s main views for docs/ui.md, so they stay current: builds the demo
// store of the browser tests (test/ui/fixture.ts), starts the built ui (run `npm run build` first),
// and saves 1200x800 PNGs to docs/ui/ with the system's Chromium (playwright-core, no download).
//
//   node --import tsx scripts/ui-screenshots.ts
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromiumPath, demoStore, startUi } from '../test/ui/fixture.ts';

const out = join(import.meta.dirname, '../docs/ui');
const executablePath = chromiumPath();
if (!executablePath) {
  process.stderr.write('ui-screenshots: no chromium found (apt-get install -y chromium, or set CHROMIUM_PATH)\n');
  process.exit(2);
}
mkdirSync(out, { recursive: true });
const store = await demoStore();
const ui = await startUi(store.dir);
const { chromium } = await import('playwright-core');
const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  const shots: Array<[string, () => Promise<unknown>]> = [
    ['decisions', () => page.goto(`${ui.url}/decisions`)],
    ['decision', () => page.goto(`${ui.url}/item/decision/D-002`)],
    ['backlog', () => page.goto(`${ui.url}/backlog`)],
    ['timeline', () => page.goto(`${ui.url}/timeline`)],
    [
      'commit',
      async () => {
        await page.goto(`${ui.url}/timeline`);
        await page.locator('a.commit', { hasText: 'supersede D-002' }).click();
      },
    ],
    [
      'search',
      async () => {
        await page.goto(`${ui.url}/decisions`);
        await page.keyboard.press('/');
        await page.keyboard.type('postgres');
        await page.waitForSelector('ol.hits li');
      },
    ],
    ['code', () => page.goto(`${ui.url}/code`)],
    ['sessions', () => page.goto(`${ui.url}/sessions`)],
  ];
  for (const [name, go] of shots) {
    await go();
    await page.screenshot({ path: join(out, `${name}.png`) });
    process.stderr.write(`docs/ui/${name}.png\n`);
  }
} finally {
  await browser.close();
  await ui.stop();
  store.cleanup();
}
