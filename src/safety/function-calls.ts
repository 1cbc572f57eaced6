/**
 * A call of a function the command line defined runs its body with the call's words as the
 * positional parameters: a body command that uses `"$@"`, `$*`, `"$1"`, `"${@:2}"`… is read again
 * with the call's words in their place (`run(){ "$@"; }; run rm -rf ~` runs `rm -rf ~`;
 * `f(){ eval "$@"; }; f 'rm -rf ~'` evals it), at the call's place in its pipeline.
 */

import type { SimpleCommand, Word } from './syntax.ts';

/** `"$@"`, `$*`, `${@}`: every positional parameter. */
const ALL = /^"?\$(?:[@*]|\{[@*]\})"?$/;
/** `"$1"`, `${2}`: one positional parameter. */
const ONE = /^"?\$(?:([1-9])|\{([1-9][0-9]*)\})"?$/;
/** `"${@:2}"`: the positional parameters from the second on. */
const FROM = /^"?\$\{[@*]:([0-9]+)\}"?$/;

/** The call's words in place of the positional parameters `w` stands for, or null when it stands for none. */
function argumentsFor(w: Word, args: readonly Word[]): Word[] | null {
  if (ALL.test(w.raw)) return [...args];
  const one = ONE.exec(w.raw);
  if (one) {
    const arg = args[Number(one[1] ?? one[2]) - 1];
    return arg ? [arg] : [];
  }
  const from = FROM.exec(w.raw);
  return from ? args.slice(Math.max(0, Number(from[1]) - 1)) : null;
}

/** The commands of a function's `body` that use its positional parameters (`"$@"`, `$1`…): those a call reads again. */
export function positionalUsers(body: readonly SimpleCommand[]): SimpleCommand[] {
  return body.filter((c) => c.words.some((w) => !w.subs.length && argumentsFor(w, []) !== null));
}

/**
 * The commands of a function's `body` that use its positional parameters, with the words of
 * `call` from `first` on (`f a b`: after the function's name) in their place, placed where the call stands.
 */
export function argumentRuns(body: readonly SimpleCommand[], call: SimpleCommand, first: number): SimpleCommand[] {
  const args = call.words.slice(first);
  const runs: SimpleCommand[] = [];
  for (const c of body) {
    let used = false;
    const words = c.words.flatMap((w) => {
      const put = w.subs.length ? null : argumentsFor(w, args);
      if (put) used = true;
      return put ?? [w];
    });
    if (used) runs.push({ ...c, words, pipeline: call.pipeline, index: call.index, after: call.after });
  }
  return runs;
}
