import { expandWord, L_OPEN, type LoopPins, loopRunPins, loopsIn, pinLoop } from './expand.ts';
import type { SimpleCommand, Word } from './syntax.ts';

/**
 * A command that uses a loop variable (`for d in a /; do bash -c "rm -rf $d"; done`) as the
 * commands the loop runs: one per combination of the values of the loops it uses (nested loops
 * crossed: `$a$b` takes every pair), each use of a variable taking its value of that run
 * (expand.ts pinLoop); the words marked `unexpanded` are expanded once pinned. Any other command
 * is itself. Past MAX_LOOP_COMBINATIONS combinations the loops are read side by side, run i taking each
 * loop's i-th value, which shows every value of a word holding one loop; null when a word
 * holds two (its combinations cannot all be read), or a run's word expands to too many words.
 */
export function loopRunsOf(cmd: SimpleCommand, unexpanded: ReadonlySet<Word>, home: string): SimpleCommand[] | null {
  const values = [...cmd.words.map((w) => w.value), ...cmd.redirects.flatMap((r) => [r.target?.value ?? '', r.input ?? ''])];
  const loops = new Map<string, number>();
  for (const v of values) loopsIn(v, loops);
  if (!loops.size) return [cmd];
  let runs: ReadonlyArray<LoopPins | number> | null = loopRunPins(loops);
  if (!runs) {
    if (values.some((v) => loopsIn(v).size > 1)) return null;
    runs = Array.from({ length: Math.max(...loops.values()) }, (_, run) => run);
  }
  const looped = (v: string | null | undefined) => v?.includes(L_OPEN) === true;
  let tooMany = false;
  const commands = runs.map((pins) => ({
    ...cmd,
    words: cmd.words.flatMap((w) => {
      if (!looped(w.value)) return [w];
      const pinned = { ...w, value: pinLoop(w.value, pins) };
      return unexpanded.has(w) ? expandWord(pinned, home, () => (tooMany = true)) : [pinned];
    }),
    redirects: cmd.redirects.map((r) => ({
      ...r,
      target: r.target && looped(r.target.value) ? { ...r.target, value: pinLoop(r.target.value, pins) } : r.target,
      input: r.input !== null && looped(r.input) ? pinLoop(r.input, pins) : r.input,
    })),
  }));
  return tooMany ? null : commands;
}
