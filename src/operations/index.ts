import { backlogAdd, backlogUpdate } from './backlog.ts';
import { decisionAdd, decisionSupersede } from './decision-add.ts';
import { decisionRevoke } from './decision-revoke.ts';
import { memoryAdd, memorySupersede } from './memory-add.ts';
import { memoryUpdate } from './memory-update.ts';
import { decisionAmend } from './decision-amend.ts';
import { memoryRemove } from './memory-archive.ts';
import { questionAnswer, questionAsk, questionStatus } from './question.ts';
import { history, log, worklog } from './history.ts';
import { search } from './search.ts';
import { status } from './status.ts';
import { backlogRead, decisionCurrent, decisionShow, memoryCurrent, memoryShow, questionOpen, oracleShow } from './digests.ts';
import { check, diff, propose } from './review.ts';
import { oracleScan, safetyShow, safetyUpdate } from './safety.ts';
import { sessionBeginClose, sessionFinalize } from './session.ts';

// reads of items, the safety rules and the oracle
import { backlogList, backlogShow, decisionList, memoryList, questionList, questionShow } from './items.ts';
import { safetyAdd, safetyRemove, safetyReset, safetySet } from './safety-cli.ts';
// (end of item reads imports)
// reads of the store as a whole, review, sessions, context, workspace
import { fsck } from './fsck.ts';
import { verify } from './verify.ts';
import { reconfirm } from './reconfirm.ts';
import { auditLog, audit } from './audit.ts';
import { context } from './context.ts';
import { workspace } from './workspace.ts';
import { sessionList, sessionRecover, sessionShow } from './session.ts';
import { blame, showCommit } from './code.ts';
import { modelsEval, modelsList, modelsPull } from './models.ts';
// (end of store reads imports)
import { importAxmeCode } from './import-axme-code.ts';
import { importAdr } from './import-adr.ts';
import { exportAdr } from './export-adr.ts';
import { exportAutoMemory, importAutoMemory } from './auto-memory.ts';
import { revert } from './revert.ts';
import type { AnyOperation } from './operation.ts';

/** Every declared operation: what the reference docs are generated from (scripts/reference.ts). */
export const OPERATIONS: AnyOperation[] = [
  // writes of items
  decisionAdd, decisionSupersede, decisionAmend, decisionRevoke, memoryAdd, memorySupersede, memoryUpdate, memoryRemove, backlogAdd, backlogUpdate, questionAsk, questionAnswer, questionStatus,
  // reads of items, the safety rules and the oracle
  oracleShow, decisionCurrent, memoryCurrent, decisionShow, memoryShow, backlogRead, questionOpen, safetyShow, safetyUpdate, oracleScan,
  decisionList, memoryList, backlogList, backlogShow, questionList, questionShow,
  safetyAdd, safetyRemove, safetySet, safetyReset,
  // (end of item reads)
  // the store as a whole, review, sessions, context, workspace
  status, search, history, worklog, log, diff, check, propose, sessionBeginClose, sessionFinalize,
  fsck, verify, reconfirm, context, workspace, sessionList, sessionShow, sessionRecover, showCommit, blame,
  audit, auditLog, modelsPull, modelsList, modelsEval,
  importAxmeCode, importAdr, exportAdr, importAutoMemory, exportAutoMemory,
  revert,
  // (end of store reads)
];
