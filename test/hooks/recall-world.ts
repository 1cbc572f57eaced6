import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decisionAdd } from '../../src/operations/decision/add.ts';
import { initCore } from '../core.ts';
import { tempRepo } from '../helpers.ts';
import { cliJson, cliText } from '../store-fixture.ts';

/** The decision the recall tests look for: anchored to src/db.ts. */
export const DB_TITLE = 'Use connection pooling for Postgres';
export const DB_TEXT = 'Every query goes through the shared pg Pool in src/db.ts; never open a client per request.';

export interface RecallWorld {
  dir: string;
  home: string;
  env: NodeJS.ProcessEnv;
  /** the anchored decision's ID */
  dbId: string;
  cleanup: () => void;
}

/**
 * A repository with axme initialised (no client connected), `src/db.ts`, the unrelated decisions
 * `fillers` (so the store has a score distribution to clear), then the decision anchored to
 * src/db.ts and the `extra` decisions (each as `axme decision add` takes it, in-process).
 */
export async function recallWorld(
  fillers: ReadonlyArray<readonly [string, string]>,
  extra: ReadonlyArray<{ title: string; decision: string; anchors?: string[] }> = [],
): Promise<RecallWorld> {
  const { dir, cleanup: removeRepo } = tempRepo({ commit: true });
  const home = mkdtempSync(join(tmpdir(), 'axme-home-'));
  const env = { HOME: home };
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'db.ts'), 'export const pool = 1;\n');
  await initCore(dir, { gitHooks: true, scan: 'if-new' }, { env });
  for (const [title, text] of fillers) await cliText(dir, decisionAdd, { title: title, decision: text }, { env });
  const out = await cliJson(dir, decisionAdd, { title: DB_TITLE, decision: DB_TEXT, anchors: ['src/db.ts'] }, { env });
  for (const input of extra) await cliText(dir, decisionAdd, input, { env });
  const dbId = (out.id ?? out.item?.id ?? out.decision?.id) as string;
  return {
    dir,
    home,
    env,
    dbId,
    cleanup: () => {
      removeRepo();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
