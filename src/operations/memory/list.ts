import { z } from 'zod';
import { MEMORY_STATUSES, MEMORY_TYPES } from '../../model/memory.ts';
import { listOp } from '../items.ts';
import { memoryLine } from '../lines.ts';

export const memoryList = listOp('memory', MEMORY_STATUSES, memoryLine, { type: z.enum(MEMORY_TYPES).optional().describe('only this type') });
