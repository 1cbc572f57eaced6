import type { z } from 'zod';
import type { CloseDecision, CloseMemory } from '../../model/close.ts';
import { AxmeError } from '../../model/errors.ts';
import { assertNoSecrets } from '../../model/secrets.ts';
import type { WriteOptions } from '../core/results.ts';
import { type CheckedDecision, checkDecision } from '../items/decision/add-decision.ts';
import { type CheckedMemory, checkMemory } from '../items/memory/add-memory.ts';

/** A decision entry of a close, checked for its action. */
export type CheckedCloseDecision =
  | { action: 'add'; checked: CheckedDecision }
  | { action: 'supersede'; checked: CheckedDecision; supersedes: string }
  | { action: 'remove'; id: string; reason: string };

/** A memory entry of a close, checked for its action. */
export type CheckedCloseMemory =
  | { action: 'add'; checked: CheckedMemory }
  | { action: 'supersede'; checked: CheckedMemory; supersedes: string }
  | { action: 'remove'; slug: string };

/** Checks one decision of axme_finalize_close by its action; errors name the entry (`decisions.2: ...`). */
export function checkCloseDecision(d: z.output<typeof CloseDecision>, at: string, opts: WriteOptions): CheckedCloseDecision {
  if (d.action === 'remove') {
    if (!d.id?.trim()) throw new AxmeError('INVALID_INPUT', `${at}: action remove needs \`id\`: the ID or slug of the decision to revoke`);
    if (!d.reason?.trim()) throw new AxmeError('INVALID_INPUT', `${at}: action remove needs \`reason\`: why the decision no longer holds`);
    assertNoSecrets({ reason: d.reason }, !!opts.allowSecret);
    return { action: 'remove', id: d.id, reason: d.reason };
  }
  if (d.action === 'supersede' && !d.supersedes?.trim())
    throw new AxmeError('INVALID_INPUT', `${at}: action supersede needs \`supersedes\`: the ID or slug of the decision it replaces`);
  const { action: _a, supersedes, id: _i, reason: _r, ...content } = d;
  const checked = named(at, () => checkDecision(content, opts));
  return d.action === 'supersede' ? { action: 'supersede', checked, supersedes: supersedes! } : { action: 'add', checked };
}

/** Checks one memory of axme_finalize_close by its action; errors name the entry (`memories.0: ...`). */
export function checkCloseMemory(m: z.output<typeof CloseMemory>, at: string, opts: WriteOptions): CheckedCloseMemory {
  if (m.action === 'remove') {
    if (!m.slug?.trim()) throw new AxmeError('INVALID_INPUT', `${at}: action remove needs \`slug\`: the memory to archive`);
    return { action: 'remove', slug: m.slug };
  }
  if (m.action === 'supersede' && !m.supersedes?.trim())
    throw new AxmeError('INVALID_INPUT', `${at}: action supersede needs \`supersedes\`: the slug of the memory it replaces`);
  const { action: _a, supersedes, slug: _s, ...content } = m;
  const checked = named(at, () => checkMemory(content, opts));
  return m.action === 'supersede' ? { action: 'supersede', checked, supersedes: supersedes! } : { action: 'add', checked };
}

/** Runs a check; an INVALID_INPUT it throws names the entry it was about. */
function named<T>(at: string, check: () => T): T {
  try {
    return check();
  } catch (err) {
    if (err instanceof AxmeError && err.code === 'INVALID_INPUT') throw new AxmeError('INVALID_INPUT', `${at}: ${err.message}`, err.data);
    throw err;
  }
}
