import type { Decision } from '../../model/decision.ts';
import type { Handoff } from '../../model/handoff.ts';
import type { Memory } from '../../model/memory.ts';
import type { SafetyRules } from '../../model/safety-rules.ts';
import { decisionBlock, memoryBlock, safetyBlock } from '../views/blocks.ts';
import { MAX_LINES } from './memory-md.ts';

/** The topic files axme writes next to MEMORY.md; their first line marks them as axme's (import skips them). */
export const DECISIONS_FILE = 'axme-decisions.md';
export const MEMORIES_FILE = 'axme-memories.md';
export const GENERATED_MARKER =
  '<!-- axme:generated (written by `axme export auto-memory`; replaced on every export: change the knowledge with axme, not here) -->';

/** What the export shows: current items, in the order they are listed. */
export interface ExportItems {
  /** active decisions, required first, then by ID */
  decisions: Decision[];
  /** active memories, feedback first, newest first within a type */
  memories: Memory[];
  handoff: Handoff | undefined;
  rules: SafetyRules;
}

/** What one rendering of the section holds. */
export interface SectionCounts {
  required_shown: number;
  required_total: number;
  memories_shown: number;
  memories_total: number;
  safety: boolean;
  handoff: boolean;
}

/** Longest line of a list in the section (characters); the topic files have the full text. */
const LINE_MAX = 240;
/** Memories the section lists at most before it points to the topic file. */
const MEMORIES_MAX = 40;

interface Caps {
  required: number;
  memories: number;
  handoff: boolean;
  safety: boolean;
}

/**
 * axme's section of MEMORY.md (its lines between the markers), as much as `fits` accepts (the whole
 * file within Claude Code's 200 lines and 25 KB): the lists shrink first (memories, then required decisions, each ending
 * with "… N more in <topic file>"), then the handoff and the safety rules go. Null when not even
 * the heading fits.
 */
export function renderSection(items: ExportItems, fits: (body: string[]) => boolean): { body: string[]; counts: SectionCounts } | null {
  const required = items.decisions.filter((d) => d.enforce === 'required');
  // more lines than Claude Code loads can never fit
  const caps: Caps = { required: Math.min(required.length, MAX_LINES), memories: Math.min(items.memories.length, MEMORIES_MAX), handoff: true, safety: true };
  for (;;) {
    const body = sectionLines(items, required, caps);
    if (fits(body)) {
      return {
        body,
        counts: {
          required_shown: caps.required,
          required_total: required.length,
          memories_shown: caps.memories,
          memories_total: items.memories.length,
          safety: caps.safety,
          handoff: caps.handoff && !!items.handoff,
        },
      };
    }
    if (caps.memories > 0 && caps.memories >= caps.required) caps.memories--;
    else if (caps.required > 0) caps.required--;
    else if (caps.handoff && items.handoff) caps.handoff = false;
    else if (caps.safety) caps.safety = false;
    else return null;
  }
}

function sectionLines(items: ExportItems, required: Decision[], caps: Caps): string[] {
  const advisory = items.decisions.length - required.length;
  const lines = [
    '## Project knowledge from axme',
    `Kept in git (refs/memory/main), shared by the team. Full lists: [${DECISIONS_FILE}](${DECISIONS_FILE}), [${MEMORIES_FILE}](${MEMORIES_FILE}). Save new knowledge with axme (axme_save_decision, axme_save_memory).`,
  ];
  if (required.length) {
    lines.push('', '### Required decisions (follow them)');
    for (const d of required.slice(0, caps.required)) lines.push(cut(`- ${d.id} ${d.title}: ${firstLine(d.decision)}`));
    const more = required.length - caps.required;
    if (more || advisory) lines.push(`… ${more ? `${more} more${advisory ? ` and ${advisory} advisory` : ''}` : `${advisory} advisory`} in ${DECISIONS_FILE}`);
  } else if (advisory) lines.push('', `No required decisions; ${advisory} advisory in ${DECISIONS_FILE}.`);
  if (caps.safety) {
    lines.push('', '### Safety rules (enforced by axme hooks: a denied command never runs; all of them: `axme safety show`)');
    for (const l of safetyBlock(items.rules).split('\n')) lines.push(cut(l));
  }
  if (caps.handoff && items.handoff) lines.push('', '### Latest handoff', ...handoffLines(items.handoff));
  if (items.memories.length) {
    lines.push('', '### Memories (feedback first)');
    for (const m of items.memories.slice(0, caps.memories)) lines.push(cut(`- [${m.type}] ${m.title}: ${firstLine(m.description)}`));
    const more = items.memories.length - caps.memories;
    if (more) lines.push(`… ${more} more in ${MEMORIES_FILE}`);
  }
  return lines;
}

/** The handoff in at most three lines: where work stopped, what is next, blockers. No dates: a second export changes nothing. */
function handoffLines(h: Handoff): string[] {
  const out: string[] = [];
  const stopped = h.stopped_at || h.summary;
  if (stopped) out.push(cut(`- Stopped at: ${firstLine(stopped)}`));
  if (h.next_steps) out.push(cut(`- Next: ${firstLine(h.next_steps)}`));
  if (h.blockers) out.push(cut(`- Blockers: ${firstLine(h.blockers)}`));
  return out.length ? out : [`- Session ${h.slug}`];
}

/** axme-decisions.md: every active decision in full, required first. */
export function renderDecisionsFile(decisions: Decision[]): string {
  const required = decisions.filter((d) => d.enforce === 'required');
  const advisory = decisions.filter((d) => d.enforce !== 'required');
  const parts = [
    GENERATED_MARKER,
    '# Project decisions (axme)',
    '',
    `${decisions.length} active decisions: ${required.length} required, ${advisory.length} advisory. Newer decisions win over older ones they conflict with.`,
  ];
  if (required.length) parts.push('', '## Required', '', required.map((d) => decisionBlock(d)).join('\n\n'));
  if (advisory.length) parts.push('', '## Advisory', '', advisory.map((d) => decisionBlock(d)).join('\n\n'));
  return `${parts.join('\n')}\n`;
}

/** axme-memories.md: every active memory in full, feedback first. */
export function renderMemoriesFile(memories: Memory[]): string {
  const parts = [
    GENERATED_MARKER,
    '# Project memories (axme)',
    '',
    `${memories.length} active memories: feedback (how to work here) first, then patterns (how this code does things).`,
  ];
  if (memories.length) parts.push('', memories.map((m) => memoryBlock(m)).join('\n\n'));
  return `${parts.join('\n')}\n`;
}

function firstLine(s: string): string {
  return (s.split('\n').find((l) => l.trim() !== '') ?? '').trim();
}

function cut(line: string): string {
  return line.length > LINE_MAX ? `${line.slice(0, LINE_MAX - 1)}…` : line;
}
