import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { BacklogItem } from '../../model/backlog.ts';
import type { Decision } from '../../model/decision.ts';
import { parseYaml } from '../../model/frontmatter.ts';
import type { Handoff } from '../../model/handoff.ts';
import { describeIssues } from '../../model/kind.ts';
import type { Memory } from '../../model/memory.ts';
import type { OraclePage } from '../../model/oracle.ts';
import type { Plan } from '../../model/plan.ts';
import type { Question } from '../../model/question.ts';
import { SafetyRules } from '../../model/safety-rules.ts';
import { readHandoff } from './axme-code-handoff.ts';
import { readBacklogItem, readDecision, readMemory, readOraclePage, readPlan } from './axme-code-items.ts';
import { readOpenQuestions } from './axme-code-questions.ts';
import { type AxmeCodeLinks, linkDecisions } from './axme-code-supersession.ts';
import { firstLine, IMPORT_LOG_MAX, type ImportProblem, presentInside, readInside } from './import-folder.ts';

/** What an `.axme-code/` tree holds, as axme items: the plan of an import (nothing written yet). */
export interface AxmeCodePlan {
  decisions: Decision[];
  memories: Memory[];
  backlog: BacklogItem[];
  questions: Question[];
  plans: Plan[];
  handoffs: Handoff[];
  oracle: OraclePage[];
  /** `safety/rules.yaml`, as it stands (AXME's format is axme's) */
  rules: string | null;
  /** the worklog narrative, one line per entry (it goes into the import commit's message body) */
  worklog: string[];
  /** files of the `.axme-code/` tree (paths relative to it) that were not imported, and why */
  problems: ImportProblem[];
}

/**
 * Reads an AXME Code `.axme-code/` folder into axme items. Never throws on a file: an unknown
 * or malformed one becomes a problem and the rest is read. Supersession links (AXME's D-NNN) are
 * turned into slugs, made symmetric, and dropped (with a problem) when they name no decision.
 */
export function readAxmeCode(root: string): AxmeCodePlan {
  const plan: AxmeCodePlan = {
    decisions: [],
    memories: [],
    backlog: [],
    questions: [],
    plans: [],
    handoffs: [],
    oracle: [],
    rules: null,
    worklog: [],
    problems: [],
  };
  const problem = (path: string, reason: string) => plan.problems.push({ path, reason });
  const handled = new Set<string>();
  const take = (rel: string) => handled.add(rel);
  /** A single file's text, or null with a problem recorded (it leads out of the folder, is too large, is not UTF-8). */
  const readOr = (rel: string, max?: number): string | null => {
    take(rel);
    try {
      return readInside(root, rel, max);
    } catch (err) {
      problem(rel, firstLine(err));
      return null;
    }
  };

  // decisions/D-NNN-<slug>.md
  const rawLinks = new Map<string, AxmeCodeLinks>();
  for (const rel of mdFiles(root, 'decisions')) {
    take(rel);
    tryItem(rel, () => {
      const { item, links } = readDecision(root, rel);
      rawLinks.set(item.id, links);
      plan.decisions.push(item);
    });
  }
  linkDecisions(plan.decisions, rawLinks, problem);

  // memory/feedback/<slug>.md, memory/patterns/<slug>.md
  for (const [dir, type] of [
    ['memory/feedback', 'feedback'],
    ['memory/patterns', 'pattern'],
  ] as const) {
    for (const rel of mdFiles(root, dir)) {
      take(rel);
      tryItem(rel, () => plan.memories.push(readMemory(root, rel, type)));
    }
  }

  // backlog/B-NNN-<slug>.md
  for (const rel of mdFiles(root, 'backlog')) {
    take(rel);
    tryItem(rel, () => plan.backlog.push(readBacklogItem(root, rel)));
  }

  // open-questions.md
  const questionsText = presentInside(root, 'open-questions.md') ? readOr('open-questions.md', IMPORT_LOG_MAX) : null;
  if (questionsText !== null) plan.questions.push(...readOpenQuestions(questionsText, problem));

  // plans/: handoff-<8id>.md, handoff.md (the latest handoff, a copy of one of them), <id>-<slug>.md
  const last = (r: string) => (r === 'plans/handoff.md' ? 1 : 0);
  const handoffFiles = mdFiles(root, 'plans')
    .filter((r) => /^plans\/handoff(-[^/]+)?\.md$/.test(r))
    .sort((a, b) => last(a) - last(b));
  for (const rel of handoffFiles) {
    take(rel);
    tryItem(rel, () => {
      const h = readHandoff(readInside(root, rel), rel);
      // handoff.md is AXME's copy of the latest handoff-<id>.md: one item per session
      if (!plan.handoffs.some((x) => x.slug === h.slug)) plan.handoffs.push(h);
    });
  }
  for (const rel of mdFiles(root, 'plans')) {
    if (handled.has(rel)) continue;
    take(rel);
    tryItem(rel, () => plan.plans.push(readPlan(root, rel)));
  }

  // oracle/<page>.md
  for (const rel of mdFiles(root, 'oracle')) {
    take(rel);
    tryItem(rel, () => plan.oracle.push(readOraclePage(root, rel)));
  }

  // safety/rules.yaml
  const rulesText = presentInside(root, 'safety/rules.yaml') ? readOr('safety/rules.yaml') : null;
  if (rulesText !== null) {
    const text = rulesText;
    try {
      const r = SafetyRules.safeParse(parseYaml(text) ?? {});
      if (r.success) plan.rules = text.endsWith('\n') ? text : `${text}\n`;
      else problem('safety/rules.yaml', `not AXME's rules format: ${describeIssues(r.error)}`);
    } catch (err) {
      problem('safety/rules.yaml', `not valid YAML: ${firstLine(err)}`);
    }
  }

  // worklog.jsonl -> the commit message body
  const worklogText = presentInside(root, 'worklog.jsonl') ? readOr('worklog.jsonl', IMPORT_LOG_MAX) : null;
  if (worklogText !== null) {
    worklogText.split('\n').forEach((line, i) => {
      if (!line.trim()) return;
      try {
        const e = JSON.parse(line) as { timestamp?: unknown; type?: unknown; sessionId?: unknown; data?: unknown };
        if (typeof e !== 'object' || e === null || typeof e.timestamp !== 'string' || typeof e.type !== 'string') throw new Error('needs timestamp and type');
        const data = e.data === undefined ? '' : typeof e.data === 'string' ? e.data : JSON.stringify(e.data);
        plan.worklog.push(
          `- ${e.timestamp} ${e.type}${typeof e.sessionId === 'string' ? ` [${e.sessionId.slice(0, 8)}]` : ''}${data ? `: ${data.replace(/\s+/g, ' ').slice(0, 300)}` : ''}`,
        );
      } catch (err) {
        problem(`worklog.jsonl:${i + 1}`, `not a worklog entry {timestamp, type, sessionId, data}: ${firstLine(err)}`);
      }
    });
  }

  // anything else is reported, never dropped silently
  for (const rel of allFiles(root)) {
    if (handled.has(rel)) continue;
    problem(
      rel,
      'not a file AXME Code writes that axme imports (decisions, memory, backlog, open-questions.md, plans, oracle, safety/rules.yaml, worklog.jsonl): left out',
    );
  }
  return plan;

  function tryItem(rel: string, fn: () => void): void {
    try {
      fn();
    } catch (err) {
      problem(rel, firstLine(err));
    }
  }
}

/** `.md` files directly in `dir` (relative paths, sorted). */
function mdFiles(root: string, dir: string): string[] {
  const abs = join(root, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs, { withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => `${dir}/${e.name}`)
    .sort();
}

/** Every file below `dir` (relative to `root`, `/`-separated, sorted). */
function allFiles(root: string, dir = root): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const abs = join(dir, e.name);
    if (e.isDirectory()) out.push(...allFiles(root, abs));
    else out.push(relative(root, abs).split('\\').join('/'));
  }
  return out.sort();
}
