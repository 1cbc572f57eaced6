import type { KnowledgeBase } from '../knowledge/core/kb.ts';
import type { IndexWorkerLaunch } from '../knowledge/views/search/index-worker.ts';
import type { AxmeSelf } from '../model/axme-self.ts';
import type { AnyOperation } from './operation.ts';
import { search } from './search.ts';

/** The process an operation ran in, as far as what follows it goes. */
export type OperationProcess =
  /** one that answers again (the MCP server, the page): what follows is done in it, ahead of the next call */
  | { answersAgain: true }
  /** one that ends after the answer (the command line): what follows is a detached worker's, started with `self` (none without) */
  | ({ answersAgain: false; self?: AxmeSelf | null } & Omit<IndexWorkerLaunch, 'self'>);

/**
 * What follows an operation on a store once its answer is out, the one decision every surface
 * calls: after a write, the new tip's search index made ahead of the next query — in the process
 * when it answers again (search.ts searchAhead: the write laid over its index), else by a detached
 * worker (index-worker.ts startIndexAhead: the next `axme search` reads it at the tip); after a
 * search in such a worker, the index of each tip written while it worked (indexAheadAgain); after a
 * search that answered by words while an embeddings endpoint was still making the items' vectors,
 * a worker that goes on making them (vectors-worker.ts), or in that worker the rest made. Never
 * throws: the index and the vectors are a speed-up.
 */
export async function afterOperation(op: AnyOperation, kb: KnowledgeBase, at: OperationProcess): Promise<void> {
  try {
    if (at.answersAgain) {
      if (op.write) (await import('../knowledge/views/search.ts')).searchAhead(kb);
      return;
    }
    // loaded only here: a write that starts a worker never loads the search itself
    const worker = () => import('../knowledge/views/search/index-worker.ts');
    if (op.write && at.self) await (await worker()).startIndexAhead(kb, { self: at.self, cwd: at.cwd, env: at.env });
    else if (op.id === search.id) {
      await (await worker()).indexAheadAgain(kb, at.env);
      // the items' vectors an endpoint is still making: a worker goes on (this process stops its run as it closes), or this is the worker
      const vectors = await import('../knowledge/views/search/vectors-worker.ts');
      if (!(await vectors.vectorsAheadAgain(kb, at.env)) && at.self) vectors.startVectorsAhead(kb, { self: at.self, cwd: at.cwd, env: at.env });
    }
  } catch {
    // the next query makes the index itself
  }
}
