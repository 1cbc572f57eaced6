import type { Word } from './syntax.ts';

/** The most alias text (characters, over every expansion) one command line is read with: past it the command is too large to check. */
const MAX_ALIAS_TEXT = 65536;

/**
 * The aliases one command line defines (`alias nuke='rm -rf ~'`), each its text, which the parser
 * (shell.ts) reads in place of a command word naming it; those being expanded are not again. Part
 * of the variables a subshell saves and gives back (shell-vars.ts).
 */
export class ShellAliases {
  /** the aliases defined so far, each its text */
  private readonly texts = new Map<string, string>();
  /** those being expanded now */
  private readonly expanding = new Set<string>();
  /** how many characters of alias text the command line's expansions have read */
  private read = 0;

  /** `alias NAME=TEXT…` defines them; `unalias NAME…` (`-a`: all) removes them. */
  record(builtin: 'alias' | 'unalias', args: Word[]): void {
    for (const a of args) {
      if (builtin === 'unalias') {
        if (a.value === '-a') this.texts.clear();
        else this.texts.delete(a.value);
        continue;
      }
      const m = /^([^\s=/$`'"\\]+)=(.*)$/s.exec(a.value);
      if (m) this.texts.set(m[1]!, m[2]!);
    }
  }

  /**
   * The text the alias `name` stands for, to read in its place (shell.ts), or null: no alias, or
   * one being expanded already (`alias ls='ls --color'`). Bash expands aliases in a script only
   * after `shopt -s expand_aliases`, which an injected line would set too: they are always expanded.
   */
  text(name: string): string | null {
    const text = this.texts.get(name);
    return text === undefined || this.expanding.has(name) ? null : text;
  }

  /** How many aliases the command line has defined so far. */
  get count(): number {
    return this.texts.size;
  }

  /**
   * Runs `read` with the alias `name` marked as being expanded; false, not running it, once the
   * command line's expansions have read MAX_ALIAS_TEXT characters (`alias a='b;b;b'; alias b='c;c;c'
   * …` grows as a power).
   */
  expand(name: string, read: () => void): boolean {
    this.read += (this.texts.get(name)?.length ?? 0) + 1;
    if (this.read > MAX_ALIAS_TEXT) return false;
    this.expanding.add(name);
    try {
      read();
    } finally {
      this.expanding.delete(name);
    }
    return true;
  }

  /** A copy of the definitions, for a subshell to give back when it ends (`restore`). */
  saved(): Map<string, string> {
    return new Map(this.texts);
  }

  /** The definitions are again those `saved` returned. */
  restore(saved: ReadonlyMap<string, string>): void {
    this.texts.clear();
    for (const [k, v] of saved) this.texts.set(k, v);
  }
}
