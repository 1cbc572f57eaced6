/**
 * What the shell parser (shell.ts) produces: words, redirects, simple commands, scripts. Types
 * (and the one way to make a plain word), so that the parser and the expansions it applies
 * (expand.ts) both build on them.
 */

export interface Word {
  /** the word after quote removal; `~` and `$HOME` expanded; unknown expansions are UNKNOWN */
  value: string;
  /** the word as written */
  raw: string;
  /** has an unquoted glob or brace character (`*`, `?`, `[`, `{`) */
  glob: boolean;
  /** names of the unknown variables the word starts with, when it starts with one (`$DIR/x` -> DIR) */
  leadingVar: string | null;
  /** `${VAR:?}`-style expansions that abort when empty: the word can never collapse to its suffix */
  guarded: boolean;
  /** the leading variable holds a path mktemp has just made, or nothing (`tmp=$(mktemp -d)`) */
  fresh?: boolean;
  /** how many of the word's unknowns are a path mktemp has just made (or nothing), wherever they stand (`"rm -rf $tmp"`) */
  freshUnknowns?: number;
  /** an array assignment's elements (`a=(-rf /etc)`): the word's value is `a=` and them joined by spaces */
  array?: string[];
  /** scripts run to produce this word: `$(...)`, backticks, `<(...)` */
  subs: Script[];
}

/** A variable assignment as written before a program (`FOO=bar`, `PATH+=:bin`), or alone. */
export const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;

/** Where the program stands among a command's words: the first that is not an assignment (-1: none). */
export const programIndex = (words: readonly Word[]): number => words.findIndex((w) => !ASSIGNMENT.test(w.raw));

/** A word of one known value, made by a rule rather than read (`-maxdepth`, `-rf`, a program's name): no quotes, nothing only the shell knows. */
export const plainWord = (value: string): Word => ({ value, raw: value, glob: false, leadingVar: null, guarded: false, subs: [] });

export interface Redirect {
  op: string;
  target: Word | null;
  /** heredoc or here-string text (what the program reads on stdin) */
  input: string | null;
  /** substitutions run to produce it (an unquoted heredoc's `$( )`, a here-string's) */
  subs?: Script[];
}

export interface SimpleCommand {
  words: Word[];
  redirects: Redirect[];
  /** the comment ending this command's line, if this is the line's last command (`# ...` without `#`) */
  comment: string | null;
  /** commands of one pipeline share an id; `index` is the position in it */
  pipeline: number;
  index: number;
  /** the list operator before this command's pipeline: `&&` means it runs only if the one before succeeded */
  after: '&&' | 'other';
  /**
   * the `NAME=value` assignments it makes past its words, as the shell's reading tells them
   * (shell-vars.ts): a builtin's (`read v <<< …`, `printf -v v …`), and a nameref's as its variable's
   */
  assigns?: string[];
  /** the `( )` subshells it runs in, outermost first, by id: a `cd` in one moves no command after it */
  subshells?: number[];
}

export interface Script {
  commands: SimpleCommand[];
  /** nesting too deep to follow: the caller must not trust the result */
  tooDeep: boolean;
}
