import { MADR_STATUS, REVOKED_WORDS } from './adr-format.ts';

/** A supersession link named in an ADR: to a file of the folder (`0002-x.md`) or to an ADR number. */
export interface AdrLink {
  rel: 'supersedes' | 'superseded_by';
  file?: string;
  number?: number;
  /** the words as written, for a report when the link leads nowhere */
  text: string;
}

/** What an ADR's status lines say, in axme's terms. */
export interface AdrStatus {
  status: 'active' | 'superseded' | 'revoked';
  /** the ADR's status word when axme's status does not say it by itself (proposed, draft, rejected, ...); null otherwise */
  word: string | null;
  /** the status line that made it revoked (for the reason) */
  line: string | null;
  links: AdrLink[];
  /** lines kept as text (Amends, Amended by, anything after the status word) */
  notes: string[];
}

/**
 * Reads status lines (front matter `status:`, MADR 2's `* Status:` bullets, a `## Status`
 * section): "Superseded by [2. ...](0002-....md)" or "superseded by ADR-0002" -> superseded with a
 * link, "Supersedes ..." -> a link, the first other word -> the status (accepted, proposed, draft ->
 * active; deprecated, rejected -> revoked); "Amends"/"Amended by" and other lines are kept as notes.
 * No status at all is active (a plain ADR).
 */
export function readStatus(lines: string[]): AdrStatus {
  let superseded = false;
  let word: string | null = null;
  let line: string | null = null;
  const links: AdrLink[] = [];
  const notes: string[] = [];
  // "Accepted. Supersedes [1](...)": one line, two statements
  for (const raw of lines.flatMap((l) => l.split(/(?<=[.;,])\s+(?=supersede)/i))) {
    const text = raw
      .replace(/^\s*(?:[-*+]\s+)?(?:\*\*)?status(?:\*\*)?\s*:\s*/i, '')
      .replace(/^\s*[-*+]\s+/, '')
      .trim();
    if (!text) continue;
    const by = /^superseded(?:\s+by)?\b[\s:]*(.*)$/i.exec(text);
    const of = /^supersedes\b[\s:]*(.*)$/i.exec(text);
    if (by) {
      superseded = true;
      links.push(...targets('superseded_by', by[1]!, text));
    } else if (of) links.push(...targets('supersedes', of[1]!, text));
    else if (word === null && !/^amend/i.test(text)) {
      word = (/^[A-Za-z][A-Za-z-]*/.exec(text)?.[0] ?? text).toLowerCase();
      line = text;
    } else notes.push(text);
  }
  const status = superseded ? 'superseded' : word !== null && REVOKED_WORDS.has(word) ? 'revoked' : 'active';
  // more than the word ("Accepted on 2020-05-01 by the board") is kept as a note; a revoked one's is its reason
  if (line !== null && line.toLowerCase().replace(/[\s.;,]+$/, '') !== word && status !== 'revoked') notes.unshift(line);
  const said = status === 'superseded' || word === null || word === MADR_STATUS[status];
  return { status, word: said ? null : word, line, links, notes };
}

/** The links of one status line: its Markdown links' files, else the first number it names. */
function targets(rel: AdrLink['rel'], rest: string, text: string): AdrLink[] {
  const out: AdrLink[] = [];
  for (const m of rest.matchAll(/\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const href = m[1]!.split('#')[0]!;
    if (!href) continue;
    let file = href.split('/').pop()!;
    try {
      file = decodeURIComponent(file);
    } catch {
      // kept as written
    }
    out.push({ rel, file, text });
  }
  if (out.length) return out;
  const n = /(?:^|[^\w])(?:adr[-_ ]?)?#?0*(\d+)\b/i.exec(rest);
  const file = /([^\s/()[\]]+\.md)\b/i.exec(rest)?.[1];
  if (file) return [{ rel, file, text }];
  return n ? [{ rel, number: Number(n[1]), text }] : [{ rel, text }];
}
