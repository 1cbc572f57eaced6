import { createInterface } from 'node:readline';
import { closeKnowledgeBase, openKnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { readState } from '../../src/knowledge/core/state.ts';
import { addDecision } from '../../src/knowledge/items/decision/add-decision.ts';

/**
 * One writer of the concurrent-writers pair (bench/pairs/concurrent.ts), standing in for one
 * agent's long-lived MCP server: it opens the knowledge base and reads the state (a server has
 * served the session-start context before any agent saves), prints "ready", waits for "go" on
 * stdin, adds `count` decisions through the in-process API, prints "done <ms>" and exits 0.
 *
 *   node --import tsx bench/pairs/concurrent-writer.ts <repo> <writerIndex> <count>
 *
 * Exits 1 when an add fails or comes back as a duplicate (every title is unique: a duplicate
 * would mean another writer's item was taken for ours), 2 on bad arguments or no "go".
 */
const [repo, writerArg, countArg] = process.argv.slice(2);
const writer = Number(writerArg);
const count = Number(countArg);
if (!repo || !Number.isInteger(writer) || !Number.isInteger(count) || count < 0) {
  process.stderr.write('usage: concurrent-writer.ts <repo> <writerIndex> <count>\n');
  process.exit(2);
}

const kb = await openKnowledgeBase({ cwd: repo, env: process.env, actor: 'agent' });
try {
  await readState(kb);
  process.stdout.write('ready\n');

  // the first line on stdin is the start signal; stdin closing first means the parent gave up
  const go = await new Promise<boolean>((resolve) => {
    const rl = createInterface({ input: process.stdin });
    rl.once('line', (line) => {
      resolve(line.trim() === 'go'); // before close(): it emits 'close' at once
      rl.close();
    });
    rl.once('close', () => resolve(false));
  });
  if (!go) {
    process.stderr.write(`writer ${writer}: no "go" on stdin\n`);
    process.exitCode = 2;
  } else {
    const t0 = performance.now();
    for (let i = 0; i < count; i++) {
      const r = await addDecision(kb, { title: `Concurrent writer ${writer} decision ${i}`, decision: `Added by writer ${writer}, number ${i}.` });
      if (r.duplicate) throw new Error(`writer ${writer}: add ${i} came back as a duplicate of ${r.item.id} (${r.item.title})`);
    }
    process.stdout.write(`done ${(performance.now() - t0).toFixed(1)}\n`);
  }
} catch (err) {
  process.stderr.write(`writer ${writer}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
} finally {
  await closeKnowledgeBase(kb);
}
