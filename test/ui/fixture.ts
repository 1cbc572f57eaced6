/**
 * A store with one of everything the page shows (used by the browser tests and by
 * scripts/ui-screenshots.ts): a supersession chain, a revoked decision, the XSS title, a stale
 * decision and memory (their anchored file changed after they were saved), backlog items in
 * each column, questions open and answered, a closed session with its handoff, oracle pages.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { finalizeClose } from '../../src/knowledge/close/finalize-close.ts';
import { scanOracle } from '../../src/knowledge/items/oracle/scan-oracle.ts';
import { coreAt, withCore } from '../core.ts';
import { CLI, cleanEnv, commitFiles, tempRepo } from '../helpers.ts';

export const XSS_TITLE = '<img src=x onerror=alert(1)>';

/** The demo store in a temp repository; `cleanup` removes it. */
export async function demoStore(): Promise<{ dir: string; cleanup: () => void }> {
  const { dir, cleanup } = tempRepo();
  const c = coreAt(dir);
  await c.init();
  commitFiles(
    dir,
    { 'package.json': '{"name":"shop","dependencies":{"pg":"^8.11.0"}}\n', 'src/pay.ts': 'export const charge = 1;\n', 'src/db.ts': 'export const db = 1;\n' },
    'code: the shop',
  );
  await c.addDecision({
    title: 'Use Postgres for orders',
    decision: 'Orders live in Postgres.',
    reasoning: 'Transactions across order lines.',
    anchors: ['src/db.ts'],
  });
  await c.supersede({ id: 'D-001', title: 'Use Postgres 16 for orders', decision: 'Orders live in Postgres 16.', reasoning: 'MERGE and faster sorts.' });
  await c.supersede({
    id: 'D-002',
    title: 'Use Postgres 17 for orders',
    decision: 'Orders live in Postgres 17.',
    reasoning: 'Incremental backups.',
    enforce: 'required',
  });
  await c.addDecision({
    title: 'Charge in cents',
    decision: 'Amounts are integers in cents.',
    reasoning: 'No float rounding.',
    enforce: 'required',
    anchors: ['src/pay.ts'],
    scope: ['all'],
  });
  await c.addDecision({ title: XSS_TITLE, decision: 'A title that must render as text.' });
  await c.addDecision({ title: 'Vendor the CSS framework', decision: 'Copy it into the repo.' });
  await c.revoke('D-006', 'We stopped using a CSS framework.');
  await c.addMemory({
    type: 'pattern',
    title: 'Payment helpers',
    description: 'Use charge() for every amount.',
    keywords: ['payments', 'cents'],
    anchors: ['src/pay.ts'],
  });
  await c.addMemory({
    type: 'feedback',
    title: 'Short commit subjects',
    description: 'The team wants commit subjects under 60 characters.',
    keywords: ['git'],
  });
  await c.addBacklog({ title: 'Refund endpoint', description: 'POST /refunds with idempotency keys.', priority: 'high', tags: ['api'] });
  await c.addBacklog({ title: 'Nightly order export', description: 'CSV to the data team.', priority: 'low' });
  await c.addBacklog({ title: 'Upgrade pg driver', description: 'Needed for Postgres 17.', priority: 'medium' });
  await c.addBacklog({ title: 'Retry failed webhooks', description: 'Blocked on the provider.', priority: 'medium' });
  await c.updateBacklog({ id: 'B-001', status: 'in-progress', notes: 'Handler written, tests next.' });
  await c.updateBacklog({ id: 'B-003', status: 'done' });
  await c.updateBacklog({ id: 'B-004', status: 'blocked' });
  await c.ask('Should refunds over 1000 EUR need a second approval?');
  await c.ask('Keep order history for 7 or 10 years?');
  await c.answer('Q-002', '10 years: the tax office asks for it.');
  await withCore(dir, (kb) => scanOracle(kb));
  await withCore(
    dir,
    (kb) =>
      finalizeClose(kb, {
        memories: [],
        decisions: [],
        safety_rules: [],
        stopped_at: 'Refund handler written; tests next',
        summary: 'Wrote the refund handler and moved orders to Postgres 17.',
        next_steps: 'Write the refund tests; then the export.',
        worklog_entry: 'Refund handler, Postgres 17 decision.',
      }),
    { session: 'demo-session-1' },
  );
  // the code moves after the decisions were learned: D-004 and the payment memory are stale
  commitFiles(dir, { 'src/pay.ts': 'export const charge = (cents: number) => cents;\n' }, 'pay: charge takes cents (D-004)\n\nAxme-Session: demo-session-1');
  return { dir, cleanup };
}

/** A running `axme ui` (the built dist/axme.cjs) on a free port. */
export interface UiProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<number | null>;
}

/** Starts `axme ui --port 0 [...args]` in `dir` and reads the URL it prints. */
export function startUi(dir: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<UiProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'ui', '--port', '0', ...args], { cwd: dir, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.stderr.setEncoding('utf8').on('data', (d) => (err += d));
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      const line = out.split('\n')[0]!;
      if (out.includes('\n')) resolve({ url: line.trim().replace(/\/$/, ''), child, stop: () => (child.kill('SIGTERM'), exited) });
    });
    child.once('exit', (code) => reject(new Error(`axme ui exited ${code} before printing its URL: ${err}`)));
  });
}

/** The system's Chromium (Debian: /usr/bin/chromium), or null. */
export function chromiumPath(): string | null {
  for (const p of [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/snap/bin/chromium'].filter(Boolean) as string[])
    if (existsSync(p)) return p;
  return null;
}
