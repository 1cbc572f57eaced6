import { z } from 'zod';
import type { ItemsByKind } from '../../knowledge/core/state.ts';
import type { ListResult } from '../../knowledge/items/list-items.ts';
import type { ShowResult } from '../../knowledge/items/show-item.ts';
import { BACKLOG_STATUSES, type BacklogItem } from '../../model/backlog.ts';
import { DECISION_STATUSES } from '../../model/decision.ts';
import { formatId } from '../../model/ids.ts';
import type { KindName } from '../../model/kind.ts';
import { type IdKind, KINDS } from '../../model/kinds.ts';
import { MEMORY_STATUSES, MEMORY_TYPES } from '../../model/memory.ts';
import { SPECS } from '../../model/paths.ts';
import { QUESTION_STATUSES, type Question } from '../../model/question.ts';
import { Shown, shownJson } from '../digests.ts';
import { listOp, showOp } from '../items.ts';
import { backlogLine, decisionLine, diagnosticNotes, memoryLine, questionLine } from '../lines.ts';
import { type AnyOperation, defineOperation, READ } from '../operation.ts';
import { atParam } from '../params.ts';

export const memoryList = listOp('memory', MEMORY_STATUSES, memoryLine, { type: z.enum(MEMORY_TYPES).optional().describe('only this type') });
