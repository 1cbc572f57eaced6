import { Question } from '../../model/question.ts';
import { slugify, uniqueSlug } from '../../model/slug.ts';
import { parseAs } from './axme-code-values.ts';
import { firstLine } from './import-folder.ts';

/**
 * AXME Code's `open-questions.md`: one `## Q-NNN [status] YYYY-MM-DD HH:MM:SS source=...` block
 * per question, its fields as `**Field**: value` lines. A block that is not a question, or not a
 * valid one, is a problem and the rest are read.
 */
export function readOpenQuestions(questionsText: string, problem: (path: string, reason: string) => void): Question[] {
  const questions: Question[] = [];
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
    try {
      const slug = uniqueSlug(slugify(question, id.toLowerCase()), (s) => slugs.has(s));
      const item = parseAs(Question, {
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
      questions.push(item);
    } catch (err) {
      problem(`open-questions.md (${id})`, firstLine(err));
    }
  }
  return questions;
}
