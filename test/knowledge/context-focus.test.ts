import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { context } from '../../src/operations/context.ts';
import { decisionAdd } from '../../src/operations/decision/add.ts';
import { initCore, runOpText } from '../core.ts';
import { git, tempRepo } from '../helpers.ts';
import { cliJson } from '../store-fixture.ts';

/**
 * The session start names the decisions anchored to the files being changed now: a file with
 * uncommitted changes outranks the files the last commits touched (one commit that touched every
 * module would otherwise tie them all, and the list fell back to id order).
 */
const MODULES = ['billing', 'auth', 'search', 'checkout', 'inventory', 'shipping', 'cache', 'reports'];

describe('the start context: the files changed now come first', () => {
  let dir: string;
  let home: string;
  let cleanup: () => void;
  const anchored = new Map<string, string[]>();
  before(async () => {
    ({ dir, cleanup } = tempRepo({ commit: true }));
    home = mkdtempSync(join(tmpdir(), 'axme-home-'));
    mkdirSync(join(dir, 'src'));
    for (const m of MODULES) writeFileSync(join(dir, 'src', `${m}.ts`), `export const ${m} = 1;\n`);
    git(dir, ['add', 'src']);
    git(dir, ['commit', '-q', '-m', 'every module at once']);
    await initCore(dir, { scan: 'if-new' }, { env: { HOME: home } });
    for (const m of MODULES) {
      const ids: string[] = [];
      for (const t of [`The ${m} entry point is one function`, `The ${m} module validates its input`]) {
        const r = await cliJson(dir, decisionAdd, { title: t, decision: `${t}.`, anchors: [`src/${m}.ts`] }, { env: { HOME: home } });
        ids.push(r.id);
      }
      anchored.set(m, ids);
    }
  });
  after(() => {
    cleanup();
    rmSync(home, { recursive: true, force: true });
  });

  /** The ids the "Relevant to the work at hand" section lists, in order. */
  const relevantIds = (text: string): string[] => {
    const section = text.split('\n## ').find((s) => s.startsWith('Relevant to the work at hand')) ?? '';
    return [...section.matchAll(/^- \w+ (D-\d+) /gm)].map((m) => m[1]!);
  };

  for (const changing of ['checkout', 'shipping', 'reports']) {
    test(`an uncommitted change to src/${changing}.ts lists its decisions first`, async () => {
      const file = join(dir, 'src', `${changing}.ts`);
      appendFileSync(file, '// work in progress\n');
      try {
        const text = await runOpText(dir, context, {}, { env: { HOME: home } });
        const ids = relevantIds(text);
        const own = anchored.get(changing)!;
        assert.deepEqual(ids.slice(0, own.length).sort(), [...own].sort(), `the relevant section lists ${ids.join(', ')}\n${text}`);
      } finally {
        git(dir, ['checkout', '--', `src/${changing}.ts`]);
      }
    });
  }
});
