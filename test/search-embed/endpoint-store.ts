import { join } from 'node:path';
import { initStore } from '../../src/knowledge/admin/init-store.ts';
import { closeKnowledgeBase, type KnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { addDecision } from '../../src/knowledge/items/decision/add-decision.ts';
import { endpointKey } from '../../src/knowledge/views/search/meaning.ts';
import { readVectors } from '../../src/knowledge/views/search/vectors.ts';
import { searchModelCheck } from '../../src/setup/doctor-models.ts';
import { openTestKb, tempRepo } from '../helpers.ts';
import { type Behaviour, configureEndpoint, endpointServer } from './endpoint-server.ts';

const T0 = Date.parse('2026-11-01T10:00:00.000Z');

/**
 * A store holding `items` (title, decision) as decisions, and a stand-in endpoint on 127.0.0.1
 * behaving as `behave` says, set as the clone's `search.embeddings` with `extra`. The knowledge
 * base's clock stands still until the test moves it (`advance`): nothing waits on the wall clock.
 */
export async function endpointStore(
  items: ReadonlyArray<readonly [string, string]>,
  behave: (n: number, texts: string[]) => Behaviour,
  extra: Parameters<typeof configureEndpoint>[2] = {},
) {
  const repo = tempRepo();
  const server = await endpointServer(behave);
  let now = T0;
  const clock = () => new Date(now);
  let kb: KnowledgeBase = await openTestKb(repo.dir, { now: clock });
  await initStore(kb);
  for (const [title, decision] of items) await addDecision(kb, { title, decision });
  configureEndpoint(kb.repo.commonDir, server.url, extra);
  return {
    server,
    /** the clone's folder (for the CLI) */
    dir: repo.dir,
    get kb() {
      return kb;
    },
    advance: (ms: number) => void (now += ms),
    /** requests the server saw from here on, counted by `sent()` */
    mark: () => {
      const from = server.seen.length;
      return { sent: () => server.seen.length - from };
    },
    vectorsSaved: () => readVectors(join(kb.repo.axmeDir, 'search'), endpointKey({ url: server.url, model: 'stand-in' })).size,
    doctor: () => searchModelCheck(kb.repo.commonDir, kb.repo.env),
    reopen: async () => {
      await closeKnowledgeBase(kb);
      kb = await openTestKb(repo.dir, { now: clock });
      return kb;
    },
    done: async () => {
      await closeKnowledgeBase(kb);
      await server.close();
      repo.cleanup();
    },
  };
}
