import { shellQuote } from '../model/shell-quote.ts';

/**
 * The command lines a Rust program spells as `std::process::Command` chains — `Command::new("rm")
 * .args(["-rf", "/x"])`, `.arg("-rf").arg("/x")`, other calls between them (`.current_dir(…)`,
 * `.env(…)`) passed over — each as the line the program runs, its words from literal strings
 * only. tool-loaded-files.ts reads cargo's `build.rs` with them, beside its string literals.
 */
export function rustCommandLines(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(RUST_COMMAND)) {
    const words = [unescape(m[1]!)];
    for (const call of m[2]!.matchAll(CHAINED_CALL)) {
      if (call[1] !== 'arg' && call[1] !== 'args') continue;
      for (const lit of call[2]!.matchAll(LITERAL)) words.push(unescape(lit[1]!));
    }
    out.push(words.map(shellQuote).join(' '));
  }
  return out;
}

const STRING = String.raw`"(?:[^"\\]|\\.)*"`;
/** a chained call: `.name(…)` whose argument holds no call of its own (a literal, a list of them, a variable) */
const CALL = String.raw`\s*\.\s*\w+\s*\(\s*(?:&|vec!\s*)?(?:\[[^\]()]*\]|[^()]*)\)`;
const RUST_COMMAND = new RegExp(String.raw`Command::new\(\s*"((?:[^"\\]|\\.)*)"\s*\)((?:${CALL})*)`, 'g');
const CHAINED_CALL = new RegExp(String.raw`\.\s*(\w+)\s*\(\s*((?:&|vec!\s*)?(?:\[[^\]()]*\]|[^()]*))\)`, 'g');
const LITERAL = new RegExp(STRING.replace('(?:', '((?:').replace(')*"', ')*)"'), 'g');

/** A Rust string literal's text: its escapes of quote and backslash undone. */
const unescape = (s: string) => s.replace(/\\(["\\])/g, '$1');
