import { statSync } from 'node:fs';
import { join } from 'node:path';
import { BacklogItem } from '../../model/backlog.ts';
import { Decision } from '../../model/decision.ts';
import { parseMarkdown } from '../../model/frontmatter.ts';
import { Memory } from '../../model/memory.ts';
import { OraclePage } from '../../model/oracle.ts';
import { Plan } from '../../model/plan.ts';
import type { AxmeCodeLinks } from './axme-code-supersession.ts';
import { AXME_CODE_SOURCE, entriesOf, parseAs, slugOf, splitBody, stripTitle, textOf } from './axme-code-values.ts';
import { readInside } from './import-folder.ts';

/**
 * AXME Code's item files as axme items, one reader per kind: each reads `rel` inside the folder
 * `root` and throws when the file cannot be read or is not a valid item (the caller reports it).
 */

/** `decisions/D-NNN-<slug>.md`: the decision, and its links still as IDs. */
export function readDecision(root: string, rel: string): { item: Decision; links: AxmeCodeLinks } {
  const { data, body } = parseMarkdown(readInside(root, rel));
  const file = rel.split('/').pop()!.replace(/\.md$/, '');
  const id = textOf(data.id) || (/^(D-\d+)/.exec(file)?.[1] ?? '');
  const title = textOf(data.title);
  const { lead, sections } = splitBody(body, title, ['Reasoning']);
  const status = textOf(data.status) || 'active';
  const date = textOf(data.date);
  const revokedAt = textOf(data.revokedAt) || undefined;
  const item = parseAs(Decision, {
    slug: slugOf(data.slug, file.replace(/^D-\d+-/, ''), title),
    id,
    title,
    decision: lead,
    reasoning: sections.Reasoning ?? '',
    enforce: textOf(data.enforce) || undefined,
    status: status === 'deprecated' ? 'revoked' : status,
    scope: data.scope ?? undefined,
    revoked_at: status === 'revoked' || status === 'deprecated' ? (revokedAt ?? date) : undefined,
    revoked_reason: textOf(data.revokedReason) || (status === 'deprecated' ? 'deprecated in AXME Code' : undefined),
    source: textOf(data.source) || AXME_CODE_SOURCE,
    session: textOf(data.sessionId) || undefined,
    created: date,
    updated: revokedAt ?? date,
  });
  return { item, links: { supersededBy: textOf(data.supersededBy) || undefined, supersedes: entriesOf(data.supersedes) } };
}

/** `memory/feedback/<slug>.md` or `memory/patterns/<slug>.md`: a memory of `type`. */
export function readMemory(root: string, rel: string, type: 'feedback' | 'pattern'): Memory {
  const { data, body } = parseMarkdown(readInside(root, rel));
  const title = textOf(data.title);
  const { lead, sections } = splitBody(body, title, ['Details']);
  return parseAs(Memory, {
    slug: slugOf(data.slug, rel.split('/').pop()!.replace(/\.md$/, ''), title),
    type,
    title,
    description: lead || title,
    body: sections.Details ?? '',
    keywords: entriesOf(data.keywords),
    scope: data.scope ?? undefined,
    source: textOf(data.source) || AXME_CODE_SOURCE,
    session: textOf(data.sessionId) || undefined,
    created: textOf(data.date),
    updated: textOf(data.date),
  });
}

/** `backlog/B-NNN-<slug>.md`: a backlog item. */
export function readBacklogItem(root: string, rel: string): BacklogItem {
  const { data, body } = parseMarkdown(readInside(root, rel));
  const file = rel.split('/').pop()!.replace(/\.md$/, '');
  const title = textOf(data.title);
  const { lead, sections } = splitBody(body, title, ['Notes']);
  return parseAs(BacklogItem, {
    slug: slugOf(data.slug, file.replace(/^B-\d+-/, ''), title),
    id: textOf(data.id) || (/^(B-\d+)/.exec(file)?.[1] ?? ''),
    title,
    description: lead,
    notes: sections.Notes ?? '',
    status: textOf(data.status) || undefined,
    priority: textOf(data.priority) || undefined,
    tags: entriesOf(data.tags),
    scope: data.scope ?? undefined,
    source: AXME_CODE_SOURCE,
    created: textOf(data.created),
    updated: textOf(data.updated) || textOf(data.created),
  });
}

/** `plans/<id>-<slug>.md` (not a handoff): a plan; one without dates is dated by its file, as oracle pages are. */
export function readPlan(root: string, rel: string): Plan {
  const { data, body } = parseMarkdown(readInside(root, rel));
  const title = textOf(data.title);
  const status = textOf(data.status);
  return parseAs(Plan, {
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
    source: AXME_CODE_SOURCE,
    created: textOf(data.created) || statSync(join(root, rel)).mtime.toISOString(),
    updated: textOf(data.updated) || textOf(data.created) || statSync(join(root, rel)).mtime.toISOString(),
    extra: textOf(data.id) ? { axme_code_id: textOf(data.id) } : {},
  });
}

/** `oracle/<page>.md` (no front matter in AXME: the date is the file's): an oracle page. */
export function readOraclePage(root: string, rel: string): OraclePage {
  const text = readInside(root, rel).replace(/\r\n?/g, '\n').trim();
  const title = /^# (.+)$/m.exec(text.split('\n')[0] ?? '')?.[1]?.trim();
  const date = statSync(join(root, rel)).mtime.toISOString();
  return parseAs(OraclePage, {
    slug: slugOf(undefined, rel.split('/').pop()!.replace(/\.md$/, ''), title ?? ''),
    title,
    body: title ? stripTitle(text, title) : text,
    source: AXME_CODE_SOURCE,
    created: date,
    updated: date,
  });
}
