import { Timestamp } from '../../../model/common.ts';
import { parseMarkdown, trimBlankLines } from '../../../model/frontmatter.ts';
import { headingKey, MADR_HEADINGS, numberOfFile, TITLE_NUMBER, titleOfHeading } from './adr-format.ts';
import { splitAdr, splitOutcome } from './adr-sections.ts';
import { type AdrLink, readStatus } from './adr-status.ts';
import { exportedTexts } from './exported-texts.ts';

export type AdrStyle = 'madr' | 'nygard' | 'plain';

/** One ADR file read into what an axme decision needs (not yet checked against its schema). */
export interface ParsedAdr {
  style: AdrStyle;
  /** from the file name (`0007-...`), else the title (`# 7. ...`); null when neither has one */
  number: number | null;
  title: string;
  status: 'active' | 'superseded' | 'revoked';
  revokedReason?: string;
  /** the ADR's date (YYYY-MM-DD or ISO); null when it has none that reads as a date */
  date: string | null;
  decision: string;
  reasoning: string;
  links: AdrLink[];
  enforce?: 'required' | 'advisory';
  /** fields axme keeps as they are: adr_status (a status word axme's status does not say), adr_decision_makers, adr_consulted, adr_informed, adr_tags */
  extra: Record<string, unknown>;
}

// MADR 2's `* Status: accepted` bullets, Nygard's `Date: 2020-01-01`, a plain ADR's `Status: ...` lines
const SUPERSESSION_LINE = /^\s*(?:[-*+]\s+)?(?:supersedes|superseded by)\b/i;
const META_LINE = /^\s*(?:[-*+]\s+)?(?:\*\*)?(status|date|deciders|decision[- ]makers|consulted|informed|tags)(?:\*\*)?\s*:\s*(.*)$/i;

/**
 * Reads one ADR: MADR (front matter of any version, or MADR 2's bullets; its headings), Nygard /
 * adr-tools (`# 1. Title`, `Date:`, `## Status`, `## Context`, `## Decision`, `## Consequences`)
 * or a plain `# Title` and text. The decision is the Decision Outcome (MADR, without its
 * consequences) or the Decision section, else the text under the title; context, drivers,
 * options, consequences and the rest are the reasoning (the context first, the others under
 * their `### ` heading); a file `axme export adr` wrote is cut by its layout (exportedTexts). Throws an Error saying what is missing when the file is not an ADR.
 */
export function parseAdr(text: string, file: string): ParsedAdr {
  const { data, body } = parseMarkdown(text);
  const doc = splitAdr(body);
  const fmTitle = typeof data.title === 'string' ? data.title.trim() : '';
  const rawTitle = doc.title ?? fmTitle;
  if (!rawTitle) throw new Error('no title: expected a "# Title" line (MADR, plain) or "# 1. Title" (adr-tools)');
  const numbered = TITLE_NUMBER.exec(rawTitle);
  const unnumbered = numbered ? numbered[2]!.trim() : rawTitle;
  // a `# ` line's escapes (the export's, or Markdown written by hand) are Markdown's; front matter is YAML
  const title = doc.title === null ? unnumbered : titleOfHeading(unnumbered);

  // metadata lines at the top (MADR 2 bullets, Nygard's Date, a plain ADR's Status) come out of the lead
  const meta: Record<string, string> = {};
  const statusLines: string[] = [];
  const leadLines: string[] = [];
  let bullets = false;
  let top = true; // only the lines right under the title: later ones are text
  for (const line of doc.lead.split('\n')) {
    if (top && SUPERSESSION_LINE.test(line)) {
      statusLines.push(line);
      continue;
    }
    const m = top ? META_LINE.exec(line) : null;
    if (!m) {
      if (line.trim()) top = false;
      leadLines.push(line);
      continue;
    }
    bullets ||= /^\s*[-*+]\s/.test(line);
    const key = m[1]!.toLowerCase().replace(/[- ]/g, '_');
    if (key === 'status') statusLines.push(m[2]!);
    else meta[key === 'deciders' ? 'decision_makers' : key] = m[2]!.trim();
  }
  const lead = trimBlankLines(leadLines.join('\n'));
  if (typeof data.status === 'string') statusLines.unshift(data.status);
  for (const s of doc.sections) if (s.key === 'status') statusLines.push(...s.text.split('\n'));
  const st = readStatus(statusLines);

  // a file the export wrote: its texts as they were, whatever headings they hold
  const exported = exportedTexts(data, body);
  const outcome = doc.sections.find((s) => s.key === 'decision');
  const { decision, rest } = outcome ? splitOutcome(outcome.text) : { decision: lead, rest: '' };
  if (!decision && !exported)
    throw new Error(`no decision text: expected a "## Decision Outcome" (MADR) or "## Decision" (Nygard) section with text, or text under the title`);

  const parts: string[] = [];
  if (outcome && lead) parts.push(lead);
  for (const s of doc.sections) {
    if (s.key === 'status' || !s.text) continue;
    if (s === outcome) {
      if (rest) parts.push(rest);
    } else if (s.key === 'context' && !parts.length) parts.push(s.text);
    else parts.push(`### ${s.heading}\n\n${s.text}`);
  }
  if (st.notes.length) parts.push(`### Status\n\n${st.notes.join('\n\n')}`);

  const extra: Record<string, unknown> = {};
  if (st.word) extra.adr_status = st.word;
  const people = {
    decision_makers: data['decision-makers'] ?? data.deciders ?? meta.decision_makers,
    consulted: data.consulted ?? meta.consulted,
    informed: data.informed ?? meta.informed,
    // log4brains' MADR 2 bullets and front matter
    tags: data.tags ?? meta.tags,
  };
  for (const [k, v] of Object.entries(people)) {
    const value = Array.isArray(v) ? v.map(String).filter(Boolean) : typeof v === 'string' || typeof v === 'number' ? String(v).trim() : '';
    if (value.length) extra[`adr_${k}`] = value;
  }
  const revokedReason = typeof data['revoked-reason'] === 'string' ? data['revoked-reason'].trim() : '';
  const enforce = data.enforce === 'required' || data.enforce === 'advisory' ? data.enforce : undefined;
  return {
    style: styleOf(
      data,
      doc.sections.map((s) => headingKey(s.heading)),
      bullets,
    ),
    number: numberOfFile(file) ?? (numbered ? Number(numbered[1]) : null),
    title,
    status: st.status,
    ...(st.status === 'revoked' ? { revokedReason: revokedReason || `ADR status: ${st.line}` } : {}),
    date: dateOf(data.date) ?? dateOf(meta.date),
    decision: exported?.decision ?? decision,
    reasoning: exported?.reasoning ?? parts.join('\n\n'),
    links: st.links,
    ...(enforce ? { enforce } : {}),
    extra,
  };
}

function styleOf(data: Record<string, unknown>, headings: string[], bullets: boolean): AdrStyle {
  if (['status', 'date', 'deciders', 'decision-makers'].some((k) => k in data) || bullets || headings.some((h) => MADR_HEADINGS.has(h))) return 'madr';
  if (headings.some((h) => h === 'status' || h === 'decision' || h === 'context')) return 'nygard';
  return 'plain';
}

/** A date the store accepts (`2020-01-01`, ISO date-time), else null (MADR's template placeholder, free text). */
function dateOf(v: unknown): string | null {
  const s = typeof v === 'string' ? v.trim() : '';
  return s && Timestamp.safeParse(s).success ? s : null;
}
