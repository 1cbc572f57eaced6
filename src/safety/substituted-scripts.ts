import { programName, SHELLS } from './command.ts';
import type { PipeReading } from './fed-input.ts';
import type { Script, SimpleCommand, Word } from './syntax.ts';

/**
 * The scripts a command runs that a substitution of one pipeline writes, where the pipeline's text
 * is known from the command line through its filters and decoders (fed-input.ts PipeReading,
 * text-filters.ts): `sh -c "$(echo … | base64 -d)"`, `eval "$(base64 -d <<< …)"`, `bash <(… |
 * gunzip)`, `source <(…)`, a shell's here-string (`bash <<< "$(base64 -d <<< …)"`). A substitution of one `echo`/`printf` is read where the word is
 * expanded (expand.ts); this reads the ones that expansion leaves unknown.
 */
export function substitutedScripts(cmd: SimpleCommand, reading: PipeReading): string[] {
  const out: string[] = [];
  const words = cmd.words;
  for (const [i, word] of words.entries()) {
    const sub = onlySubstitution(word);
    if (!sub || !runsAsCode(words, i)) continue;
    const text = pipelineText(sub, reading);
    if (text) out.push(text);
  }
  // `bash <<< "$(base64 -d <<< …)"`: a shell reads its here-string as its script
  const program = programName(words[0]?.value ?? '');
  if (SHELLS.has(program) && !words.slice(1).some((w) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(w.value) || !w.value.startsWith('-')))
    for (const r of cmd.redirects) {
      const sub = r.op === '<<<' && r.target ? onlySubstitution(r.target) : null;
      const text = sub && pipelineText(sub, reading);
      if (text) out.push(text);
    }
  return out;
}

/** The one substitution a word is made of (`$(…)`, `"$(…)"`, `` `…` ``, `<(…)`); null for a word with more. */
function onlySubstitution(word: Word): Script | null {
  if (word.subs.length !== 1) return null;
  return /^("?)(\$\(|`)[\s\S]*(\)|`)\1$|^<\([\s\S]*\)$/.test(word.raw) ? word.subs[0]! : null;
}

/**
 * Whether the word at `i` is run as code: the script of a shell's `-c` (`bash -lc WORD`, also after
 * `sudo`, `env`…), a word `eval` runs, or a file a shell or `source` reads (`<(…)`).
 */
function runsAsCode(words: readonly Word[], i: number): boolean {
  const before = words.slice(0, i).map((w) => programName(w.value));
  const shell = before.findIndex((v) => SHELLS.has(v));
  if (shell >= 0 && /^-[a-zA-Z]*c[a-zA-Z]*$/.test(words[i - 1]?.value ?? '') && i - 1 > shell) return true;
  if (before.includes('eval')) return true;
  return words[i]!.raw.startsWith('<(') && (shell >= 0 || before.includes('source') || before.includes('.'));
}

/** The text the last stage of a substitution's one pipeline writes; null for several pipelines (or a nested substitution) or text the line does not tell. */
function pipelineText(sub: Script, reading: PipeReading): string | null {
  const first = sub.commands[0];
  if (sub.tooDeep || !first || sub.commands.some((c) => c.pipeline !== first.pipeline)) return null;
  const last = sub.commands.reduce((a, b) => (b.index > a.index ? b : a));
  return reading.writes(last);
}
