import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decisionAdd } from '../../src/operations/decision/add.ts';
import { importAdr } from '../../src/operations/import/adr.ts';
import { git } from '../helpers.ts';
import { cliJson } from '../store-fixture.ts';
import type { ClientWorld } from './project.ts';

/**
 * Recall (issue 32) in the real clients: a decision anchored to src/db.ts must reach the model when
 * a prompt is about its subject (UserPromptSubmit / BeforeAgent) and when the agent edits src/db.ts
 * (PreToolUse additionalContext) — once per session — and an unrelated prompt gets nothing. These
 * checks ride on sessions the client's other tests run anyway (a client's start is seconds of
 * CPU): `seedRecall` prepares a world for them before its first session.
 */

export const RECALL_TITLE = 'Use connection pooling for Postgres';
const RECALL_TEXT = 'Every query goes through the shared pg Pool in src/db.ts; never open a client per request.';
/** A prompt about the anchored decision's subject. */
export const POOL_PROMPT = 'The postgres connection pool leaks clients under load. How should the pooling work?';
/** A prompt about nothing in the store. */
export const HAIKU_PROMPT = 'Please write a haiku about autumn leaves.';
/** How many decisions the session start lists by title (CONTEXT_LIMITS.advisory): the seed adds one more before the anchored one. */
const FILLERS = 16;

export interface RecallSeed {
  /** the anchored decision's id */
  id: string;
  /** the decision's line as recall writes it */
  line: string;
  /** the id the next decision saved gets */
  nextId: string;
  /** the project's HEAD after the seed (its commits: src/db.ts, then empty ones) */
  head: string;
}

/** How many times `s` occurs in `text`. */
export const count = (text: string, s: string) => text.split(s).length - 1;

/**
 * Seeds `w` for recall: src/db.ts committed, then pushed out of the last commits the start's context
 * looks at; 16 decisions, more than the start lists by title (one commit: `axme import adr` of
 * plain records); then the decision anchored to src/db.ts, which the start therefore does not list
 * (`axme decision add`). The store is seeded in-process (the operations run, printed as they
 * print): what is under test is the client's hooks.
 */
export async function seedRecall(w: ClientWorld): Promise<RecallSeed> {
  const env = { HOME: w.home };
  mkdirSync(join(w.project, 'src'), { recursive: true });
  writeFileSync(join(w.project, 'src', 'db.ts'), 'export const pool = null;\n');
  git(w.project, ['add', 'src/db.ts']);
  git(w.project, ['commit', '-q', '-m', 'db']);
  for (let i = 0; i < 5; i++) git(w.project, ['commit', '-q', '--allow-empty', '-m', `later ${i}`]);
  // the fillers in one commit (`axme import adr` of plain Markdown records): what they fill is the start's list
  const adr = join(w.root, 'filler-adr');
  mkdirSync(adr, { recursive: true });
  for (let i = 0; i < FILLERS; i++)
    writeFileSync(
      join(adr, `filler-${String(i).padStart(2, '0')}.md`),
      `# Filler rule ${i} about the ${['billing', 'cdn', 'logging', 'flags'][i % 4]} module\n\nKeep module ${i} as it is.\n`,
    );
  const imported = await cliJson(w.project, importAdr, { dir: adr }, { env });
  rmSync(adr, { recursive: true, force: true });
  assert.equal(imported.items.filter((x: { outcome: string }) => x.outcome === 'new').length, FILLERS, JSON.stringify(imported));
  const added = await cliJson(w.project, decisionAdd, { title: RECALL_TITLE, decision: RECALL_TEXT, anchors: ['src/db.ts'] }, { env });
  const id: string = added.id ?? added.item?.id ?? added.decision?.id;
  assert.match(id, /^D-\d+$/);
  const nextId = `D-${String(Number(id.slice(2)) + 1).padStart(3, '0')}`;
  return { id, line: `decision ${id} ${RECALL_TITLE}`, nextId, head: git(w.project, ['rev-parse', 'HEAD']).trim() };
}
