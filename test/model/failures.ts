// What a call threw or a schema refused: the failures the model's tests look at.

import assert from 'node:assert/strict';

/** Runs `fn` and returns what it threw; fails when it does not throw. */
export function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  assert.fail('expected a throw');
}

/** Error messages of a failed safeParse (empty when it succeeded). */
export function issues(r: { success: boolean; error?: { issues: Array<{ message: string }> } }): string[] {
  return r.success ? [] : (r.error?.issues ?? []).map((i) => i.message);
}
