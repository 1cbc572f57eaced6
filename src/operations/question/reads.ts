import { z } from 'zod';
import { questionBlock } from '../../knowledge/views/blocks.ts';
import type { Question } from '../../model/question.ts';
import { defineOperation, READ } from '../operation.ts';
import { atParam } from '../params.ts';

/** question.open: `axme_list_open_questions` (the CLI's `axme question list` is its twin). */
export const questionOpen = defineOperation({
  id: 'question.open',
  summary: 'Open questions',
  description: 'Questions waiting for the user.',
  input: { at: atParam },
  output: z.looseObject({ items: z.array(z.looseObject({})).describe('the open questions') }),
  annotations: READ,
  write: false,
  cli: null,
  mcp: { tool: 'axme_list_open_questions' },
  async run(kb, input): Promise<Question[]> {
    const { listItems } = await import('../../knowledge/items/list-items.ts');
    return (await listItems(kb, { kind: 'question', at: input.at })).items as Question[];
  },
  json: (items) => ({ items }),
  text: (items) => (items.length ? `# Open questions (${items.length})\n${items.map(questionBlock).join('\n')}` : 'No open questions.'),
});
