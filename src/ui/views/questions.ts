import { listItems } from '../../knowledge/items/list-items.ts';
import { QUESTION_STATUSES } from '../../model/question.ts';
import type { View } from '../context.ts';
import { html } from '../html.ts';
import { authorsAt, byline } from './authors.ts';
import { badge, byStatus, itemHref, table, text, when } from './common.ts';

/** Questions for the user: the open ones by default, with their context and answers. */
export const questionsView: View = async (ctx, url) => {
  const { items, commit } = await listItems(ctx.kb, { kind: 'question', at: ctx.at, all: true });
  const { chips, rows, pager, empty } = byStatus(items, url, '/questions', QUESTION_STATUSES, 'open', 'questions');
  const by = await authorsAt(ctx, commit);
  const body = html`${chips}
${table(
  ['ID', 'Question', 'Status', 'Asked by', 'Asked'],
  rows.map(
    (q) =>
      html`<tr><td><code>${q.id}</code></td><td><a href="${itemHref('question', q.slug)}">${q.question}</a>${q.context ? html`<div class="muted">${q.context}</div>` : ''}${q.answer ? html`<div><strong>Answer:</strong> ${text(q.answer)}</div>` : ''}</td><td>${badge(q.status)}</td><td>${byline(by('question', q))}</td><td class="muted">${when(q.created)}</td></tr>`,
  ),
  empty ?? 'No questions yet.',
)}
${pager}`;
  return { title: 'Questions', active: '/questions', body, commit };
};
