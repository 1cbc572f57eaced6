/**
 * Reading a command's redirections (`2>&1`, `{fd}>f`, `< <(cmd)`, `<<<`) and the heredocs they
 * open, whose bodies follow the line (shell.ts's parser is built on it; words are read by
 * shell-words.ts).
 */

import { expandWord, staticOutput } from './expand.ts';
import { WordReader } from './shell-words.ts';
import type { Redirect } from './syntax.ts';

/** The characters a redirection can start with: a digit of a descriptor, `{` of a named one, an operator. */
const REDIRECT_START = new Set([...'0123456789{<>&']);

/** A word reader that reads redirections too, and the heredocs they open once their line ends. */
export abstract class RedirectReader extends WordReader {
  /** the heredocs opened on the line being read, whose bodies start on the next line */
  private pendingHeredocs: Array<{ delim: string; strip: boolean; quoted: boolean; redirect: Redirect }> = [];

  /** Reads a redirection at the cursor (with an optional fd number), or returns null. */
  protected redirect(): Redirect | null {
    // a redirection starts with a descriptor (`2>`, `{fd}>`) or an operator: other words are not read twice
    if (!REDIRECT_START.has(this.src[this.pos]!)) return null;
    const m = /^(?:\d+|\{[A-Za-z_][A-Za-z0-9_]*\})?(<<<|<<-|<<|&>>|&>|>>|>\||>&|<&|<>|<|>)/.exec(this.src.slice(this.pos, this.pos + 24));
    if (!m) return null;
    const op = m[1]!;
    // `<(cmd)` and `>(cmd)` are process substitutions, i.e. words
    if ((op === '<' || op === '>') && this.src[this.pos + m[0].length] === '(') return null;
    this.pos += m[0].length;
    this.skipBlanks();
    // `< <(cmd)`: a process substitution is the file redirected
    if (this.atWordEnd() && !/^[<>]\(/.test(this.src.slice(this.pos, this.pos + 2))) return { op, target: null, input: null };
    const target = expandWord(this.word(), this.home, this.tooManyWords)[0]!;
    if (op === '<<<') return { op, target, input: target.value, subs: target.subs };
    // `< <(printf '/etc\0')`: what a static substitution writes is the text read on stdin
    const fed = op === '<' && target.raw.startsWith('<(') && target.subs.length === 1 ? staticOutput(target.subs[0]!) : null;
    if (fed !== null) return { op, target, input: fed, subs: target.subs };
    if (op === '<<' || op === '<<-') {
      const r: Redirect = { op, target, input: '' };
      this.pendingHeredocs.push({ delim: target.value, strip: op === '<<-', quoted: /['"\\]/.test(target.raw), redirect: r });
      return r;
    }
    return { op, target, input: null };
  }

  /** Reads the bodies of the heredocs the line just ended opened, in order. */
  protected readHeredocs(): void {
    for (const h of this.pendingHeredocs.splice(0)) {
      const lines: string[] = [];
      while (this.pos < this.src.length) {
        const end = this.src.indexOf('\n', this.pos);
        const raw = this.src.slice(this.pos, end < 0 ? this.src.length : end);
        this.pos = end < 0 ? this.src.length : end + 1;
        const line = h.strip ? raw.replace(/^\t+/, '') : raw;
        if (line === h.delim) break;
        lines.push(line);
      }
      h.redirect.input = lines.join('\n');
      // an unquoted delimiter: `$( )` and backticks in the body run when the heredoc is read
      if (!h.quoted) h.redirect.subs = this.scanSubs(h.redirect.input);
    }
  }
}
