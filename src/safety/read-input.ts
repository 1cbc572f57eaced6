import type { Script, SimpleCommand } from './syntax.ts';

/**
 * What a `read` (`mapfile`, `readarray`) of a command line reads, as the commands that print it:
 * the stage before it in its pipeline (`ls ~ | while read f`), or what its redirections give
 * (`read f < <(ls ~)`, `<<< "$(ls ~)"`, a loop's `done < list`). shell-vars.ts carries them into
 * each word that uses the variables it sets.
 */

/**
 * The scripts that print what a command reads on its stdin by its redirections: `< <(ls ~)` (the
 * parser reads a `<` without a file, then the word `<(ls ~)`), `<<< "$(ls ~)"`, an unquoted
 * heredoc's substitutions, and `< list` as `cat list` (a command of no words reading the file).
 */
export function inputScripts(cmd: SimpleCommand): Script[] {
  const out: Script[] = cmd.words.filter((w) => w.raw.startsWith('<(')).flatMap((w) => w.subs);
  for (const r of cmd.redirects) {
    if (!r.op.startsWith('<')) continue;
    out.push(...(r.target?.subs ?? []), ...(r.op.startsWith('<<') ? (r.subs ?? []) : []));
    if (r.op === '<' && r.target && !r.target.subs.length)
      out.push({ commands: [{ words: [], redirects: [r], comment: null, pipeline: cmd.pipeline, index: cmd.index, after: cmd.after }], tooDeep: false });
  }
  return [...new Set(out)];
}

/** How far back among the commands read the stage before a `read` is looked for. */
const STAGE_LOOKBACK = 16;

/** The stage before `cmd` in its pipeline among the commands read so far (`ls ~` for `ls ~ | while read f`), if any. */
export function stageBefore(cmd: SimpleCommand, before: readonly SimpleCommand[]): SimpleCommand | undefined {
  if (cmd.index === 0) return undefined;
  // it was read just before, but for the commands of substitutions in its own words: a few steps back at most
  for (let i = before.length - 1; i >= Math.max(0, before.length - STAGE_LOOKBACK); i--)
    if (before[i]!.pipeline === cmd.pipeline && before[i]!.index === cmd.index - 1) return before[i];
  return undefined;
}
