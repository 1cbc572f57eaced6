import { trimBlankLines } from '../../../model/frontmatter.ts';
import { GENERATED_MARKER, headingKey, KNOWN_HEADINGS, OUTCOME_REASONING, type SectionKey } from './adr-format.ts';

/** One `## ` section of an ADR: its heading as written, what it holds, its text. */
export interface AdrSection {
  heading: string;
  key: SectionKey;
  text: string;
}

/** An ADR's body taken apart: the `# ` title, the text between it and the first known section, the sections. */
export interface AdrBody {
  title: string | null;
  lead: string;
  sections: AdrSection[];
}

/**
 * Splits an ADR's Markdown (front matter already removed) at its first `# ` line (the title) and
 * at the `## ` headings of KNOWN_HEADINGS; other `## ` lines, and anything inside a code fence,
 * stay in the text of the section above them. The export's marker line is dropped.
 */
export function splitAdr(body: string): AdrBody {
  let title: string | null = null;
  let lead: string[] = [];
  const sections: Array<{ heading: string; key: SectionKey; lines: string[] }> = [];
  const before: string[] = [];
  for (const { line, fenced } of scanLines(body)) {
    if (!fenced && line.trim() === GENERATED_MARKER) continue;
    if (!fenced && title === null) {
      const h1 = /^#\s+(.+?)(?:\s+#+)?\s*$/.exec(line);
      if (h1) {
        title = h1[1]!.trim();
        lead = [];
        continue;
      }
    }
    const h2 = fenced ? null : /^##\s+(.+?)\s*$/.exec(line);
    const key = h2 ? KNOWN_HEADINGS.get(headingKey(h2[1]!)) : undefined;
    if (h2 && key) {
      sections.push({
        heading: h2[1]!
          .replace(/<!--.*?-->/g, '')
          .replace(/\s+#+\s*$/, '')
          .trim(),
        key,
        lines: [],
      });
      continue;
    }
    if (sections.length) sections.at(-1)!.lines.push(line);
    else (title === null ? before : lead).push(line);
  }
  // without a title, everything before the first known heading is the lead
  const leadLines = title === null ? before : lead;
  return {
    title,
    lead: trimBlankLines(leadLines.join('\n')),
    sections: sections.map((s) => ({ heading: s.heading, key: s.key, text: trimBlankLines(s.lines.join('\n')) })),
  };
}

/**
 * MADR's Decision Outcome: the decision, then `### Consequences` (and MADR 2's Positive/Negative
 * Consequences, MADR 4's Confirmation), which are reasoning. Returns both parts.
 */
export function splitOutcome(text: string): { decision: string; rest: string } {
  const lines = text.split('\n');
  for (const { line, fenced, index } of scanLines(text)) {
    if (!fenced && OUTCOME_REASONING.test(line)) {
      return { decision: trimBlankLines(lines.slice(0, index).join('\n')), rest: trimBlankLines(lines.slice(index).join('\n')) };
    }
  }
  return { decision: text, rest: '' };
}

/** Each line with whether it is inside a fenced code block (``` or ~~~); a fence line itself counts as fenced. */
function* scanLines(text: string): Generator<{ line: string; fenced: boolean; index: number }> {
  let fence: string | null = null;
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const m = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (m) {
      if (fence === null) fence = m[1]!;
      else if (m[1]!.startsWith(fence[0]!) && m[1]!.length >= fence.length) {
        fence = null;
        yield { line, fenced: true, index };
        continue;
      }
    }
    yield { line, fenced: fence !== null, index };
  }
}
