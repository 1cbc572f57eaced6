import { backlogAdd, backlogUpdate } from './backlog.ts';
import { decisionAdd, decisionSupersede } from './decision-add.ts';
import { decisionRevoke } from './decision-revoke.ts';
import { memoryAdd, memorySupersede } from './memory-add.ts';
import { memoryUpdate } from './memory-update.ts';
import { decisionAmend } from './decision-amend.ts';
import { memoryArchive } from './memory-archive.ts';
import { questionAnswer, questionAsk, questionStatus } from './question.ts';
import { history, log, worklogOp } from './history.ts';
import { search } from './search.ts';
import { status } from './status.ts';
import { backlogRead, decisionDigest, decisionGet, memoryDigest, memoryGet, openQuestions, oracleDigest } from './digests.ts';
import { check, diff, propose } from './review.ts';
import { oracleScan, safetyShow, safetyUpdate } from './safety.ts';
import { beginCloseOp, finalizeCloseOp } from './session.ts';

// reads of items, the safety rules and the oracle
import { backlogList, backlogShow, decisionList, memoryList, questionList, questionShow } from './items.ts';
import { safetyAdd, safetyRemove, safetyReset, safetySet } from './safety-cli.ts';
// (end of item reads imports)
// reads of the store as a whole, review, sessions, context, workspace
import { fsck } from './fsck.ts';
import { verify } from './verify.ts';
import { reconfirm } from './reconfirm.ts';
import { auditLogOp, auditRun } from './audit.ts';
import { context } from './context.ts';
import { workspaceStatusOp } from './workspace.ts';
import { sessionList, sessionRecover, sessionShow } from './session.ts';
import { blameOp, showCommitOp } from './code.ts';
import { modelsEval, modelsList, modelsPull } from './models.ts';
// (end of store reads imports)
import { importAxmeCode } from './import-axme-code.ts';
import { importAdrOp } from './import-adr.ts';
import { exportAdrOp } from './export-adr.ts';
import { exportAutoMemoryOp, importAutoMemoryOp } from './auto-memory.ts';
import { revert } from './revert.ts';
import type { AnyOperation } from './operation.ts';

/** Every declared operation: what the reference docs are generated from (scripts/reference.ts). */
export const OPERATIONS: AnyOperation[] = [
  // writes of items
  decisionAdd, decisionSupersede, decisionAmend, decisionRevoke, memoryAdd, memorySupersede, memoryUpdate, memoryArchive, backlogAdd, backlogUpdate, questionAsk, questionAnswer, questionStatus,
  // reads of items, the safety rules and the oracle
  oracleDigest, decisionDigest, memoryDigest, decisionGet, memoryGet, backlogRead, openQuestions, safetyShow, safetyUpdate, oracleScan,
  decisionList, memoryList, backlogList, backlogShow, questionList, questionShow,
  safetyAdd, safetyRemove, safetySet, safetyReset,
  // (end of item reads)
  // the store as a whole, review, sessions, context, workspace
  status, search, history, worklogOp, log, diff, check, propose, beginCloseOp, finalizeCloseOp,
  fsck, verify, reconfirm, context, workspaceStatusOp, sessionList, sessionShow, sessionRecover, showCommitOp, blameOp,
  auditRun, auditLogOp, modelsPull, modelsList, modelsEval,
  importAxmeCode, importAdrOp, exportAdrOp, importAutoMemoryOp, exportAutoMemoryOp,
  revert,
  // (end of store reads)
];
