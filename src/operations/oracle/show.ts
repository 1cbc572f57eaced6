import { z } from 'zod';
import type { ShowResult } from '../../knowledge/items/show-item.ts';
import type { StaleItem } from '../../knowledge/stale/types.ts';
import { backlogLine, decisionBlock, memoryBlock, questionBlock } from '../../knowledge/views/blocks.ts';
import type { DigestKind, DigestResult } from '../../knowledge/views/read-digest.ts';
import { staleLine } from '../../knowledge/views/stale-marks.ts';
import { BACKLOG_STATUSES, type BacklogItem } from '../../model/backlog.ts';
import type { Decision } from '../../model/decision.ts';
import type { Memory } from '../../model/memory.ts';
import type { Question } from '../../model/question.ts';
import { digest, printShown, Shown, shownJson } from '../digests.ts';
import { type AnyOperation, type CliPrinter, type CliSurface, defineOperation, READ } from '../operation.ts';
import { atParam, budgetParam, pageParam } from '../params.ts';

export const oracleShow = digest(
  'oracle.show',
  'oracle',
  'axme_oracle',
  'Project oracle',
  'The stack, structure, patterns and glossary of the project. Paged.',
  {
    command: ['oracle', 'show'],
    describe: 'print the oracle pages',
    json: (r) => r,
  },
);
