import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { z } from 'zod';
import { BacklogItem } from '../../model/backlog.ts';
import { Decision } from '../../model/decision.ts';
import { parseMarkdown, parseYaml, splitSections } from '../../model/frontmatter.ts';
import { Handoff } from '../../model/handoff.ts';
import { describeIssues } from '../../model/kind.ts';
import { Memory } from '../../model/memory.ts';
import { OraclePage } from '../../model/oracle.ts';
import { Plan } from '../../model/plan.ts';
import { Question } from '../../model/question.ts';
import { SafetyRules } from '../../model/safety-rules.ts';
import { isSlug, slugify, uniqueSlug } from '../../model/slug.ts';
import { firstLine, IMPORT_LOG_MAX, presentInside, readInside } from './import-folder.ts';

/** A file of the `.axme-code/` tree that was not imported, and why. */
export interface ImportProblem {
  /** the file, relative to the `.axme-code/` folder */
  path: string;
  reason: string;
}

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
  problems: ImportProblem[];
}

const SOURCE = 'axme-code';

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
  const rawLinks = new Map<string, { supersededBy?: string; supersedes: string[] }>();
  for (const rel of mdFiles(root, 'decisions')) {
    take(rel);
    tryItem(rel, () => {
      const { data, body } = parseMarkdown(readInside(root, rel));
      const file = rel.split('/').pop()!.replace(/\.md$/, '');
      const id = str(data.id) || (/^(D-\d+)/.exec(file)?.[1] ?? '');
      const title = str(data.title);
      const { lead, sections } = splitBody(body, title, ['Reasoning']);
      const status = str(data.status) || 'active';
      const date = str(data.date);
      const revokedAt = str(data.revokedAt) || undefined;
      const item = parse(Decision, {
        slug: slugOf(data.slug, file.replace(/^D-\d+-/, ''), title),
        id,
        title,
        decision: lead,
        reasoning: sections.Reasoning ?? '',
        enforce: str(data.enforce) || undefined,
        status: status === 'deprecated' ? 'revoked' : status,
        scope: data.scope ?? undefined,
        revoked_at: status === 'revoked' || status === 'deprecated' ? (revokedAt ?? date) : undefined,
        revoked_reason: str(data.revokedReason) || (status === 'deprecated' ? 'deprecated in AXME Code' : undefined),
        source: str(data.source) || SOURCE,
        session: str(data.sessionId) || undefined,
        created: date,
        updated: revokedAt ?? date,
      });
      rawLinks.set(item.id, { supersededBy: str(data.supersededBy) || undefined, supersedes: list(data.supersedes) });
      plan.decisions.push(item);
    });
  }
  linkDecisions(plan, rawLinks, problem);

  // memory/feedback/<slug>.md, memory/patterns/<slug>.md
  for (const [dir, type] of [
    ['memory/feedback', 'feedback'],
    ['memory/patterns', 'pattern'],
  ] as const) {
    for (const rel of mdFiles(root, dir)) {
      take(rel);
      tryItem(rel, () => {
        const { data, body } = parseMarkdown(readInside(root, rel));
        const title = str(data.title);
        const { lead, sections } = splitBody(body, title, ['Details']);
        plan.memories.push(
          parse(Memory, {
            slug: slugOf(data.slug, rel.split('/').pop()!.replace(/\.md$/, ''), title),
            type,
            title,
            description: lead || title,
            body: sections.Details ?? '',
            keywords: list(data.keywords),
            scope: data.scope ?? undefined,
            source: str(data.source) || SOURCE,
            session: str(data.sessionId) || undefined,
            created: str(data.date),
            updated: str(data.date),
          }),
        );
      });
    }
  }

  // backlog/B-NNN-<slug>.md
  for (const rel of mdFiles(root, 'backlog')) {
    take(rel);
    tryItem(rel, () => {
      const { data, body } = parseMarkdown(readInside(root, rel));
      const file = rel.split('/').pop()!.replace(/\.md$/, '');
      const title = str(data.title);
      const { lead, sections } = splitBody(body, title, ['Notes']);
      plan.backlog.push(
        parse(BacklogItem, {
          slug: slugOf(data.slug, file.replace(/^B-\d+-/, ''), title),
          id: str(data.id) || (/^(B-\d+)/.exec(file)?.[1] ?? ''),
          title,
          description: lead,
          notes: sections.Notes ?? '',
          status: str(data.status) || undefined,
          priority: str(data.priority) || undefined,
          tags: list(data.tags),
          scope: data.scope ?? undefined,
          source: SOURCE,
          created: str(data.created),
          updated: str(data.updated) || str(data.created),
        }),
      );
    });
  }

  // open-questions.md
  const questionsText = presentInside(root, 'open-questions.md') ? readOr('open-questions.md', IMPORT_LOG_MAX) : null;
  if (questionsText !== null) {
    const text = questionsText.replace(/\r\n?/g, '\n');
    const slugs = new Set<string>();
    for (const block of text.split(/^## /m).filter((b) => b.trim())) {
      const head = /^(Q-\d+)\s+\[(\w+)\]\s+(\S+(?:\s+\d{2}:\d{2}(?::\d{2})?)?)\s+source=(\S+)/.exec(block);
      const label = `open-questions.md (${block.split('\n')[0]!.slice(0, 60)})`;
      if (!head) {
        problem(label, 'not a question block: expected "## Q-NNN [status] YYYY-MM-DD HH:MM:SS source=..."');
        continue;
      }
      const [, id, status, at, source] = head as unknown as [string, string, string, string, string];
      const field = (l: string) => new RegExp(`^\\*\\*${l}\\*\\*:\\s*(.*)$`, 'm').exec(block)?.[1]?.trim() ?? '';
      const question = field('Question');
      const answer = field('Answer');
      const answeredAt = field('AnsweredAt');
      const appliedAt = field('AppliedAt');
      const applied = field('Applied');
      tryItem(`open-questions.md (${id})`, () => {
        const slug = uniqueSlug(slugify(question, id.toLowerCase()), (s) => slugs.has(s));
        const item = parse(Question, {
          slug,
          id,
          question,
          context: field('Context'),
          answer: [answer === '_(empty)_' ? '' : answer, applied ? `Applied: ${applied}` : ''].filter(Boolean).join('\n\n'),
          status,
          answered_at: answeredAt || undefined,
          applied_at: appliedAt || undefined,
          source,
          created: at,
          updated: appliedAt || answeredAt || at,
        });
        slugs.add(slug);
        plan.questions.push(item);
      });
    }
  }

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
    tryItem(rel, () => {
      const { data, body } = parseMarkdown(readInside(root, rel));
      const title = str(data.title);
      const status = str(data.status);
      plan.plans.push(
        parse(Plan, {
          slug: slugOf(
            data.slug,
            rel
              .split('/')
              .pop()!
              .replace(/\.md$/, '')
              .replace(/^[0-9a-f]{8}-/, ''),
            title,
          ),
          title,
          status: status === 'completed' ? 'done' : ((['draft', 'active', 'done', 'abandoned'] as const).find((s) => s === status) ?? 'active'),
          body: stripTitle(body, title),
          source: SOURCE,
          // a plan without dates is dated by its file, as oracle pages are
          created: str(data.created) || statSync(join(root, rel)).mtime.toISOString(),
          updated: str(data.updated) || str(data.created) || statSync(join(root, rel)).mtime.toISOString(),
          extra: str(data.id) ? { axme_code_id: str(data.id) } : {},
        }),
      );
    });
  }

  // oracle/<page>.md (no frontmatter in AXME: the date is the file's)
  for (const rel of mdFiles(root, 'oracle')) {
    take(rel);
    tryItem(rel, () => {
      const text = readInside(root, rel).replace(/\r\n?/g, '\n').trim();
      const title = /^# (.+)$/m.exec(text.split('\n')[0] ?? '')?.[1]?.trim();
      const date = statSync(join(root, rel)).mtime.toISOString();
      plan.oracle.push(
        parse(OraclePage, {
          slug: slugOf(undefined, rel.split('/').pop()!.replace(/\.md$/, ''), title ?? ''),
          title,
          body: title ? stripTitle(text, title) : text,
          source: SOURCE,
          created: date,
          updated: date,
        }),
      );
    });
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

/** Supersession: AXME's IDs to slugs, both directions set; links to decisions not in the tree are dropped and reported. */
function linkDecisions(plan: AxmeCodePlan, raw: Map<string, { supersededBy?: string; supersedes: string[] }>, problem: (p: string, r: string) => void): void {
  const byId = new Map(plan.decisions.map((d) => [d.id.toUpperCase(), d]));
  const at = (d: Decision) => `decisions/${d.id}-${d.slug}.md`;
  for (const d of plan.decisions) {
    const r = raw.get(d.id)!;
    if (r.supersededBy) {
      const next = byId.get(r.supersededBy.toUpperCase());
      if (next) d.superseded_by = next.slug;
      else problem(at(d), `supersededBy ${r.supersededBy}, which is not in the tree: the link is left out`);
    }
    for (const s of r.supersedes) {
      const old = byId.get(s.toUpperCase());
      if (old) d.supersedes = [...new Set([...d.supersedes, old.slug])];
      else problem(at(d), `supersedes ${s}, which is not in the tree: the link is left out`);
    }
  }
  // symmetric, as fsck wants them
  const bySlug = new Map(plan.decisions.map((d) => [d.slug, d]));
  for (const d of plan.decisions) {
    if (d.superseded_by) {
      const next = bySlug.get(d.superseded_by)!;
      if (!next.supersedes.includes(d.slug)) next.supersedes = [...next.supersedes, d.slug];
      if (d.status === 'active') d.status = 'superseded';
    }
  }
  for (const d of plan.decisions) {
    for (const s of d.supersedes) {
      const old = bySlug.get(s)!;
      if (!old.superseded_by) {
        old.superseded_by = d.slug;
        if (old.status === 'active') old.status = 'superseded';
      }
    }
  }
}

/** AXME's handoff: `Date: … | Session: … | Source: …`, `Stopped at: …`, then `## ` sections. */
function readHandoff(text: string, rel: string): Handoff {
  const t = text.replace(/\r\n?/g, '\n');
  if (!/^# Session Handoff\b/m.test(t)) throw new Error('not a session handoff: expected "# Session Handoff"');
  const sec = (h: string) => {
    const v = new RegExp(`^## ${h}\\n([\\s\\S]*?)(?=\\n## |$)`, 'm').exec(t)?.[1]?.trim() ?? '';
    return v === 'None' ? '' : v;
  };
  const date = /Date: (\S+)/.exec(t)?.[1] ?? '';
  const session = /Session: (\S+)/.exec(t)?.[1] ?? /^plans\/handoff-([^/]+)\.md$/.exec(rel)?.[1] ?? '';
  const source = /Source: (\S+)/.exec(t)?.[1];
  const prs = sec('PRs')
    .split('\n')
    .map((l) => /^- \[(\w+)\] (.+?) - (.+)$/.exec(l.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ status: m[1]!, title: m[2]!, url: m[3]! }));
  const dirty = sec('Dirty Branches')
    .split('\n')
    .map((l) => l.replace(/^[-*]\s*/, '').trim())
    .filter(Boolean);
  if (!session) throw new Error('handoff without a session id (no "Session:" line, not named handoff-<id>.md)');
  return parse(Handoff, {
    slug: slugify(session, 'handoff'),
    session,
    source: source === 'auditor' ? 'auditor' : 'agent',
    stopped_at: /^Stopped at: (.*)$/m.exec(t)?.[1]?.trim() ?? '',
    prs,
    dirty_branches: dirty,
    summary: sec('Summary'),
    in_progress: sec('In Progress'),
    next_steps: sec('Next Steps'),
    test_results: sec('Test Results'),
    blockers: sec('Blockers'),
    created: date,
    updated: date,
  });
}

/** The body without AXME's `# <title>` line, split at the given `## ` headings. */
function splitBody(body: string, title: string, headings: string[]): { lead: string; sections: Record<string, string> } {
  return splitSections(stripTitle(body, title), headings);
}

function stripTitle(body: string, title: string): string {
  const t = body.replace(/\r\n?/g, '\n').trim();
  const first = t.split('\n')[0] ?? '';
  return /^# /.test(first) && (!title || first.slice(2).trim() === title.trim()) ? t.slice(first.length).trim() : t;
}

function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw new Error(describeIssues(r.error));
  return r.data;
}

/** AXME's slug when it is a valid axme slug, else the file name's, else one made from the title. */
function slugOf(given: unknown, file: string, title: string): string {
  const s = str(given);
  if (s && isSlug(s)) return s;
  if (isSlug(file)) return file;
  return slugify(title || file);
}

function str(v: unknown): string {
  return typeof v === 'string' ? v.trim() : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';
}

/** `a, b` or a YAML list. */
function list(v: unknown): string[] {
  const raw = Array.isArray(v) ? v.map(str) : str(v).split(',');
  return raw.map((s) => s.trim()).filter(Boolean);
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

function allFiles(root: string, dir = root): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const abs = join(dir, e.name);
    if (e.isDirectory()) out.push(...allFiles(root, abs));
    else out.push(relative(root, abs).split('\\').join('/'));
  }
  return out.sort();
}
