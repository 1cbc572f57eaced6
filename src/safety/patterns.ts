/**
 * Command patterns of `bash.deniedPrefixes`, `deniedCommands` and `allowedPrefixes`, matched on
 * words, not characters: `npm publish` denies `npm publish --tag x` but not `npm publisher-tool`,
 * and `chmod 777` also denies `chmod -R 0777 dir`. A pattern with `|` (`curl | sh`) is a pipeline.
 */

export interface CommandPattern {
  text: string;
  /** one word list per pipeline stage */
  stages: string[][];
}

const cache = new Map<string, CommandPattern>();

/** Splits a pattern into pipeline stages of words (cached: policies repeat). */
export function compilePattern(text: string): CommandPattern {
  let p = cache.get(text);
  if (!p) {
    const stages = text.split('|').map((s) => s.trim().split(/\s+/).filter(Boolean));
    p = { text, stages: stages.some((s) => !s.length) ? [] : stages };
    if (cache.size < 10_000) cache.set(text, p);
  }
  return p;
}

/**
 * Whether `argv` (program base name first) starts with `words`. Options the pattern does not
 * name may come in between (`chmod -R 777`); option clusters match by letters (`-f` matches
 * `-fd`); a word ending in `=` matches as a prefix (`dd if=`); `*` is a wildcard; numeric modes
 * compare by value (`777` matches `0777`). `asCommand` also lets `mkfs` match `mkfs.ext4`.
 */
export function matchesPrefix(words: readonly string[], argv: readonly string[], asCommand = false): boolean {
  if (!words.length || !argv.length) return false;
  const program = words[0]!.slice(words[0]!.lastIndexOf('/') + 1);
  if (!(wordMatches(program, argv[0]!) || (asCommand && argv[0]!.startsWith(`${program}.`)))) return false;
  let j = 1;
  for (let k = 1; k < words.length; k++) {
    const pw = words[k]!;
    for (;;) {
      const arg = argv[j];
      if (arg === undefined) return false;
      j++;
      if (wordMatches(pw, arg)) break;
      // an option the pattern does not mention may stand in between; anything else breaks the match
      if (!arg.startsWith('-') || arg === '-' || arg === '--') return false;
    }
  }
  return true;
}

function wordMatches(pw: string, arg: string): boolean {
  if (pw === arg) return true;
  if (pw.endsWith('=') && arg.startsWith(pw)) return true;
  if (/^-[A-Za-z]+$/.test(pw) && /^-[A-Za-z0-9]+$/.test(arg)) return [...pw.slice(1)].every((c) => arg.includes(c));
  if (/^[0-7]{3,4}$/.test(pw)) {
    if (/^[0-7]{3,4}$/.test(arg)) return parseInt(pw, 8) === parseInt(arg, 8);
    if (pw.replace(/^0/, '') === '777') return /^(a|ugo|uog|oug|ogu|gou|guo)?[+=]rwx$/.test(arg);
    return false;
  }
  if (pw.includes('*')) {
    const re = new RegExp(`^${pw.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
    return re.test(arg);
  }
  return false;
}

/** Whether `name` is one of `globs` (protected branch patterns such as `main` or `release/*`). */
export function matchesName(name: string, globs: readonly string[]): string | null {
  for (const g of globs) {
    if (g === name) return g;
    if (g.includes('*') && new RegExp(`^${g.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*')}$`).test(name)) return g;
  }
  return null;
}
