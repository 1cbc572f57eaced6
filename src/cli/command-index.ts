// Generated from the operation declarations by scripts/command-index.ts (npm run docs); npm run
// docs:check fails when it is stale. Do not edit: an operation's `cli.command` says where it goes.
import type { AnyOperation } from '../operations/operation.ts';

/**
 * The operations under each first word of the command line, in the order of OPERATIONS. A word
 * loads its operations' modules only when a command line needs them: `axme decision list` imports
 * the decision operations, not every operation (src/cli/operation-tree.ts builds their commands).
 */
export const OPERATION_WORDS: Readonly<Record<string, () => Promise<AnyOperation[]>>> = {
  'decision': async () => {
    const [m0, m1, m2, m3, m4] = await Promise.all([import('../operations/decision/add.ts'), import('../operations/decision/amend.ts'), import('../operations/decision/revoke.ts'), import('../operations/decision/reads.ts'), import('../operations/decision/list.ts')]);
    return [m0.decisionAdd, m0.decisionSupersede, m1.decisionAmend, m2.decisionRevoke, m3.decisionShow, m4.decisionList];
  },
  'memory': async () => {
    const [m0, m1, m2, m3, m4] = await Promise.all([import('../operations/memory/add.ts'), import('../operations/memory/update.ts'), import('../operations/memory/remove.ts'), import('../operations/memory/reads.ts'), import('../operations/memory/list.ts')]);
    return [m0.memoryAdd, m0.memorySupersede, m1.memoryUpdate, m2.memoryRemove, m3.memoryShow, m4.memoryList];
  },
  'backlog': async () => {
    const [m0, m1] = await Promise.all([import('../operations/backlog/writes.ts'), import('../operations/backlog/list.ts')]);
    return [m0.backlogAdd, m0.backlogUpdate, m1.backlogList, m1.backlogShow];
  },
  'question': async () => {
    const [m0, m1] = await Promise.all([import('../operations/question/writes.ts'), import('../operations/question/list.ts')]);
    return [m0.questionAsk, m0.questionAnswer, m0.questionStatus, m1.questionList, m1.questionShow];
  },
  'oracle': async () => {
    const [m0, m1] = await Promise.all([import('../operations/oracle/show.ts'), import('../operations/oracle/scan.ts')]);
    return [m0.oracleShow, m1.oracleScan];
  },
  'safety': async () => {
    const [m0, m1] = await Promise.all([import('../operations/safety/reads.ts'), import('../operations/safety/edits.ts')]);
    return [m0.safetyShow, m1.safetyAdd, m1.safetyRemove, m1.safetySet, m1.safetyReset];
  },
  'status': async () => {
    const [m0] = await Promise.all([import('../operations/status.ts')]);
    return [m0.status];
  },
  'search': async () => {
    const [m0] = await Promise.all([import('../operations/search.ts')]);
    return [m0.search];
  },
  'history': async () => {
    const [m0] = await Promise.all([import('../operations/history.ts')]);
    return [m0.history];
  },
  'log': async () => {
    const [m0] = await Promise.all([import('../operations/history.ts')]);
    return [m0.log];
  },
  'diff': async () => {
    const [m0] = await Promise.all([import('../operations/review.ts')]);
    return [m0.diff];
  },
  'check': async () => {
    const [m0] = await Promise.all([import('../operations/review.ts')]);
    return [m0.check];
  },
  'propose': async () => {
    const [m0] = await Promise.all([import('../operations/review.ts')]);
    return [m0.propose];
  },
  'session': async () => {
    const [m0] = await Promise.all([import('../operations/session/session.ts')]);
    return [m0.sessionBeginClose, m0.sessionFinalize, m0.sessionList, m0.sessionShow, m0.sessionRecover];
  },
  'fsck': async () => {
    const [m0] = await Promise.all([import('../operations/fsck.ts')]);
    return [m0.fsck];
  },
  'verify': async () => {
    const [m0] = await Promise.all([import('../operations/verify.ts')]);
    return [m0.verify];
  },
  'reconfirm': async () => {
    const [m0] = await Promise.all([import('../operations/reconfirm.ts')]);
    return [m0.reconfirm];
  },
  'context': async () => {
    const [m0] = await Promise.all([import('../operations/context.ts')]);
    return [m0.context];
  },
  'workspace': async () => {
    const [m0] = await Promise.all([import('../operations/workspace.ts')]);
    return [m0.workspace];
  },
  'show-commit': async () => {
    const [m0] = await Promise.all([import('../operations/code.ts')]);
    return [m0.showCommit];
  },
  'blame': async () => {
    const [m0] = await Promise.all([import('../operations/code.ts')]);
    return [m0.blame];
  },
  'audit': async () => {
    const [m0] = await Promise.all([import('../operations/audit/audit.ts')]);
    return [m0.audit, m0.auditLog];
  },
  'models': async () => {
    const [m0] = await Promise.all([import('../operations/models/models.ts')]);
    return [m0.modelsPull, m0.modelsList, m0.modelsEval];
  },
  'import': async () => {
    const [m0, m1, m2] = await Promise.all([import('../operations/import/axme-code.ts'), import('../operations/import/adr.ts'), import('../operations/import/auto-memory.ts')]);
    return [m0.importAxmeCode, m1.importAdr, m2.importAutoMemory];
  },
  'export': async () => {
    const [m0, m1] = await Promise.all([import('../operations/export/adr.ts'), import('../operations/export/auto-memory.ts')]);
    return [m0.exportAdr, m1.exportAutoMemory];
  },
  'revert': async () => {
    const [m0] = await Promise.all([import('../operations/revert.ts')]);
    return [m0.revert];
  },
};
