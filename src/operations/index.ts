import { audit, auditLog } from './audit/audit.ts';
// reads of items, the safety rules and the oracle
import { backlogList, backlogShow } from './backlog/list.ts';
import { backlogRead } from './backlog/reads.ts';
import { backlogAdd, backlogUpdate } from './backlog/writes.ts';
import { blame, showCommit } from './code.ts';
import { context } from './context.ts';
import { decisionAdd, decisionSupersede } from './decision/add.ts';
import { decisionAmend } from './decision/amend.ts';
import { decisionList } from './decision/list.ts';
import { decisionCurrent, decisionShow } from './decision/reads.ts';
import { decisionRevoke } from './decision/revoke.ts';
import { exportAdr } from './export/adr.ts';
import { exportAutoMemory } from './export/auto-memory.ts';
// (end of item reads imports)
// reads of the store as a whole, review, sessions, context, workspace
import { fsck } from './fsck.ts';
import { history, log, worklog } from './history.ts';
import { importAdr } from './import/adr.ts';
import { importAutoMemory } from './import/auto-memory.ts';
// (end of store reads imports)
import { importAxmeCode } from './import/axme-code.ts';
import { memoryAdd, memorySupersede } from './memory/add.ts';
import { memoryList } from './memory/list.ts';
import { memoryCurrent, memoryShow } from './memory/reads.ts';
import { memoryRemove } from './memory/remove.ts';
import { memoryUpdate } from './memory/update.ts';
import { modelsEval, modelsList, modelsPull } from './models/models.ts';
import type { AnyOperation } from './operation.ts';
import { oracleScan } from './oracle/scan.ts';
import { oracleShow } from './oracle/show.ts';
import { questionList, questionShow } from './question/list.ts';
import { questionOpen } from './question/reads.ts';
import { questionAnswer, questionAsk, questionStatus } from './question/writes.ts';
import { reconfirm } from './reconfirm.ts';
import { revert } from './revert.ts';
import { check, diff, propose } from './review.ts';
import { safetyAdd, safetyRemove, safetyReset, safetySet } from './safety/edits.ts';
import { safetyShow, safetyUpdate } from './safety/reads.ts';
import { search } from './search.ts';
import { sessionBeginClose, sessionFinalize, sessionList, sessionRecover, sessionShow } from './session/session.ts';
import { status } from './status.ts';
import { verify } from './verify.ts';
import { workspace } from './workspace.ts';

/** Every declared operation: what the reference docs are generated from (scripts/reference.ts). */
export const OPERATIONS: AnyOperation[] = [
  // writes of items
  decisionAdd,
  decisionSupersede,
  decisionAmend,
  decisionRevoke,
  memoryAdd,
  memorySupersede,
  memoryUpdate,
  memoryRemove,
  backlogAdd,
  backlogUpdate,
  questionAsk,
  questionAnswer,
  questionStatus,
  // reads of items, the safety rules and the oracle
  oracleShow,
  decisionCurrent,
  memoryCurrent,
  decisionShow,
  memoryShow,
  backlogRead,
  questionOpen,
  safetyShow,
  safetyUpdate,
  oracleScan,
  decisionList,
  memoryList,
  backlogList,
  backlogShow,
  questionList,
  questionShow,
  safetyAdd,
  safetyRemove,
  safetySet,
  safetyReset,
  // (end of item reads)
  // the store as a whole, review, sessions, context, workspace
  status,
  search,
  history,
  worklog,
  log,
  diff,
  check,
  propose,
  sessionBeginClose,
  sessionFinalize,
  fsck,
  verify,
  reconfirm,
  context,
  workspace,
  sessionList,
  sessionShow,
  sessionRecover,
  showCommit,
  blame,
  audit,
  auditLog,
  modelsPull,
  modelsList,
  modelsEval,
  importAxmeCode,
  importAdr,
  exportAdr,
  importAutoMemory,
  exportAutoMemory,
  revert,
  // (end of store reads)
];
