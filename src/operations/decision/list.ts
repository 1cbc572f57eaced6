import { DECISION_STATUSES } from '../../model/decision.ts';
import { listOp } from '../items.ts';
import { decisionLine } from '../lines.ts';

export const decisionList = listOp('decision', DECISION_STATUSES, decisionLine);
