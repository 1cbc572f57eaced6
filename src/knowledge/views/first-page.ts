import { counted } from '../../model/counted.ts';
import { toolCall } from '../../model/tool-args.ts';
import { cut, fitted, fittedText } from './page-fit.ts';

/** How many lines each section of the overview lists before it gives a count and how to see the rest. */
export const CONTEXT_LIMITS = { required: 25, advisory: 15, relevant: 5, questions: 8, backlog: 5, stale: 8, problems: 8 } as const;

/** The most each of page 1's texts takes, when there is room: the safety rules, the startup text, the handoff. */
const TEXT_CAPS = { safety: 2_000, startup: 1_200, handoff: 2_500 } as const;
/** Open questions kept in reserve while the required decisions are fitted: they are the user's to answer. */
const QUESTIONS_KEPT = 3;
/** Blocks on a page are joined by a blank line (paging.ts). */
const GAP = 2;

const REQUIRED_TITLE = `## Required decisions (follow them; each in full: ${toolCall('axme_get_decision', '<id>')})`;
const requiredMore = (n: number) => `- and ${n} more required decisions: run axme_decisions (\`axme decision list\`) for them all`;
const QUESTIONS_TITLE = '## Open questions for the user (ask them)';
const TEAMMATE_TITLE = "## A teammate's newer handoff (another clone's session)";
const questionsMore = (n: number) => `- and ${n} more: axme_list_open_questions`;

export interface FirstPageInput {
  /** characters page 1 has for these blocks and what follows them (the budget less the header and the footer) */
  room: number;
  safety: string;
  /** the required decisions' lines, each variant shorter than the one before (with what each says, by title alone) */
  required: string[][];
  /** the open questions' lines, likewise */
  questions: string[][];
  handoff: { text: string; rest: string } | undefined;
  startupText: string | undefined;
  /** a teammate's newer handoff, in one line, and where to read it whole */
  teammate: { text: string; rest: string } | undefined;
  /** the handoff's session (and author) when another clone ran it, else null */
  elsewhere: string | null;
}

/**
 * Page 1's opening blocks, in reading order: what to tell the user, the latest handoff, a
 * teammate's newer one, the open questions, the safety rules, the required decisions. The room is
 * shared out must-haves first — the safety rules, the required decisions (with what each says, by
 * title, fewer, or a count and how to list them), the open questions likewise — and the startup
 * text and the handoff get what is left, cut with a pointer to the whole: a long handoff never
 * pushes what the agent must follow to a page 2 it is not given (docs/hooks.md, "Recall per
 * prompt and before an edit").
 */
export function firstPageBlocks(input: FirstPageInput): string[] {
  if (input.room < leastOfSections(input)) return [mustHavesInBrief(input), ...later(input, { startup: null, handoff: null, teammate: null })];
  const latest = latestTitle(input);
  // the handoff's title and where to read it stay on page 1 whatever else: kept out of the must-haves' room
  const handoffLeast = input.handoff ? `${latest}\n… (${input.handoff.rest})`.length + GAP : 0;
  const room = input.room - handoffLeast;
  const used = (...blocks: Array<string | null>) => blocks.reduce((n, b) => n + (b ? b.length + GAP : 0), 0);
  const requiredSection = (space: number) =>
    input.required[0]?.length ? fitted(REQUIRED_TITLE, input.required, CONTEXT_LIMITS.required, space, requiredMore) : null;
  const questionsSection = (space: number, limit: number = CONTEXT_LIMITS.questions) =>
    input.questions[0]?.length ? fitted(QUESTIONS_TITLE, input.questions, limit, space, questionsMore) : null;
  // the least each must-have takes (a title and a count), so that the safety rules leave room for it
  const least = used(requiredSection(0), questionsSection(0));
  const safety =
    fittedText(
      '## Safety rules (enforced by hooks: a denied command never runs)',
      input.safety,
      room - least - GAP,
      TEXT_CAPS.safety,
      'all of them: axme_safety',
    ) ?? '## Safety rules: axme_safety';
  const questionsKept = used(questionsSection(Math.min(room, 600), QUESTIONS_KEPT));
  const required = requiredSection(room - used(safety) - questionsKept - GAP);
  const questions = questionsSection(room - used(safety, required) - GAP);
  // what is left goes to what to tell the user and the handoff, the startup text a share of it first
  let left = room - used(safety, required, questions) + handoffLeast;
  const startup =
    input.startupText && input.handoff
      ? fittedText(
          startupTitle(input),
          input.startupText,
          Math.max(Math.floor(left * 0.4), Math.min(left - handoffLeast, 200)) - GAP,
          TEXT_CAPS.startup,
          `the rest: ${input.handoff.rest.replace(/^the whole handoff: /, '')}`,
        )
      : null;
  left -= used(startup);
  const teammateBlock = input.teammate ? `${TEAMMATE_TITLE}\n${input.teammate.text} (${input.teammate.rest})` : null;
  const teammate = teammateBlock && teammateBlock.length + GAP <= left - Math.max(handoffLeast, 300) ? teammateBlock : null;
  left -= used(teammate);
  const handoff = input.handoff ? fittedText(latest, input.handoff.text, left - GAP, TEXT_CAPS.handoff, input.handoff.rest) : null;
  return [startup, handoff, teammate, questions, safety, required, ...later(input, { startup, handoff, teammate })].filter((b): b is string => b !== null);
}

/** The title of the handoff's section. */
function latestTitle(input: FirstPageInput): string {
  return input.elsewhere ? `## Latest handoff, of a session another clone ran (${input.elsewhere})` : '## Latest handoff';
}

/** The title of the startup text's section. */
function startupTitle(input: FirstPageInput): string {
  return input.elsewhere
    ? `## What a session another clone ran left for its user (${input.elsewhere}): tell the user it is that session's, in its words`
    : '## Say this to the user first';
}

/**
 * Where the rest found no room on page 1 at all, it follows the must-haves, to the next page: each
 * cut to a page's room (`input.room`: the budget less the header and the footer, on any page).
 */
function later(input: FirstPageInput, placed: { startup: string | null; handoff: string | null; teammate: string | null }): string[] {
  const onAPage = (title: string, text: string, cap: number, rest: string) => fittedText(title, text, input.room, cap, rest) ?? `${title}\n… (${rest})`;
  return [
    input.startupText && input.handoff && !placed.startup
      ? onAPage(startupTitle(input), input.startupText, TEXT_CAPS.startup, 'the rest: the handoff itself')
      : null,
    input.handoff && !placed.handoff ? onAPage(latestTitle(input), input.handoff.text, TEXT_CAPS.handoff, input.handoff.rest) : null,
    input.teammate && !placed.teammate
      ? onAPage(TEAMMATE_TITLE, `${input.teammate.text} (${input.teammate.rest})`, TEXT_CAPS.handoff, input.teammate.rest)
      : null,
  ].filter((b): b is string => b !== null);
}

/**
 * The fewest characters page 1's must-haves take as sections: the safety rules' title and where
 * they are, the required decisions' and the open questions' titles with a count, the handoff's
 * title and where to read it.
 */
function leastOfSections(input: FirstPageInput): number {
  const blocks = [
    '## Safety rules: axme_safety',
    input.required[0]?.length ? fitted(REQUIRED_TITLE, input.required, CONTEXT_LIMITS.required, 0, requiredMore) : null,
    input.questions[0]?.length ? fitted(QUESTIONS_TITLE, input.questions, CONTEXT_LIMITS.questions, 0, questionsMore) : null,
    input.handoff ? `${latestTitle(input)}\n… (${input.handoff.rest})` : null,
  ];
  return blocks.reduce((n, b) => n + (b ? b.length + GAP : 0), 0);
}

/**
 * Page 1's must-haves where the budget has no room for their sections: one line each, what there
 * is and the tool that gives it — the safety rules, the required decisions and the open questions
 * by their count, the handoff by where to read it. The fewest characters any page 1 takes for
 * them (MIN_PAGE_BUDGET, model/page-budget.ts, leaves room for it and the page's header).
 */
export function mustHavesInBrief(input: Omit<FirstPageInput, 'room'>): string {
  const required = input.required[0]?.length ?? 0;
  const questions = input.questions[0]?.length ?? 0;
  return [
    "## Must-haves in brief (this page's budget has no room for them in full)",
    '- the safety rules: axme_safety',
    required ? `- ${counted(required, 'required decision')}: axme_decisions` : null,
    questions ? `- ${counted(questions, 'open question')} for the user: axme_list_open_questions` : null,
    input.handoff
      ? `- the latest handoff${input.elsewhere ? " (another clone's session)" : ''}: ${input.handoff.rest.replace(/^the whole handoff: /, '')}`
      : null,
  ]
    .filter((l): l is string => l !== null)
    .join('\n');
}
