import type { DiskCache } from '../../store/cache.ts';

/**
 * Everything a knowledge base derives from the store to answer again faster, in one place.
 * Derived data only: dropping any of it changes no answer, only how long the answer takes.
 *
 * - `recall`/`remember`: a bounded memory by key, newest last (parsed states by commit, folder
 *   parses by tree, parsed files by blob, merged states, search indexes);
 * - `disk`: the parse cache on disk, `<git-common-dir>/axme/cache` (parse-cache.ts writes it);
 * - `perObject(slot)`: data derived from one object, kept as long as the object lives (a parsed
 *   item list's index, an item's search document).
 *
 * The hooks' compiled policy is cached in a file of its own (rules/policy-cache.ts): a hook
 * process has no knowledge base to hang it on.
 */
export interface DerivedCache {
  /** the remembered value under `key`, or undefined (does not count as a use) */
  recall<T>(key: string): T | undefined;
  /** keeps `value` under `key` as the newest entry (at most `max` are kept) and returns it */
  remember<T>(key: string, value: T): T;
  /** the parse cache on disk */
  disk: DiskCache;
  /** the map of one kind of per-object data (`slot` names the kind) */
  perObject<T>(slot: string): WeakMap<object, T>;
  /**
   * Derived work that need not delay an answer (writing a search index file): `task` runs once
   * the work in hand is done (after the event loop's pending callbacks); a newer task of the same
   * `slot` replaces one not yet run. A task that throws costs only the derived data.
   */
  later(slot: string, task: () => void): void;
  /** runs every task `later` still holds, now (closing a knowledge base calls it first) */
  settle(): void;
  /**
   * Derived work done ahead of the next reader, in the background (the search index of a tip just
   * written, in a process that answers again: the MCP server): `task` starts on the next turn of
   * the event loop, after the task of the same `slot` still running; a newer task of the slot
   * replaces one not yet started. A task that fails costs only the derived data.
   */
  ahead(slot: string, task: () => Promise<unknown>): void;
  /** resolves once no task `ahead` holds is waiting or running */
  idle(): Promise<void>;
  /**
   * Derived work no reader waits for to its end (an embeddings endpoint making the items' vectors
   * batch by batch): `stop` is aborted when the knowledge base closes, keeping what the work saved
   * so far; the process (a command line's) then ends without waiting for it.
   */
  stopOnClose(stop: AbortController): void;
  /** aborts the work `stopOnClose` was given, drops the tasks `ahead` has not started and waits for those running (closing a knowledge base calls it first) */
  drain(): Promise<void>;
}

/** Entries the memory keeps: enough for a long-running server's states and indexes, bounded. */
const MEMORY_ENTRIES = 64;

export function derivedCache(disk: DiskCache, max = MEMORY_ENTRIES): DerivedCache {
  const memory = new Map<string, unknown>();
  const slots = new Map<string, WeakMap<object, unknown>>();
  const tasks = new Map<string, () => void>();
  // ahead's tasks by slot: the one waiting to start, and the slot's chain (its running task, then the one waiting)
  const waiting = new Map<string, () => Promise<unknown>>();
  const chains = new Map<string, Promise<void>>();
  let draining = false;
  const stops = new Set<AbortController>();
  const run = (slot: string) => {
    const task = tasks.get(slot);
    tasks.delete(slot);
    try {
      task?.();
    } catch {
      // derived data: the next reader makes it again
    }
  };
  return {
    disk,
    recall: <T>(key: string) => memory.get(key) as T | undefined,
    remember<T>(key: string, value: T): T {
      memory.delete(key);
      memory.set(key, value);
      while (memory.size > max) memory.delete(memory.keys().next().value!);
      return value;
    },
    perObject<T>(slot: string): WeakMap<object, T> {
      let m = slots.get(slot);
      if (!m) slots.set(slot, (m = new WeakMap()));
      return m as WeakMap<object, T>;
    },
    later(slot, task) {
      const pending = tasks.has(slot);
      tasks.set(slot, task);
      if (!pending) setImmediate(() => run(slot));
    },
    settle() {
      for (const slot of [...tasks.keys()]) run(slot);
    },
    ahead(slot, task) {
      if (draining) return;
      const chained = waiting.has(slot);
      waiting.set(slot, task);
      if (chained) return;
      const next = async () => {
        const run = waiting.get(slot);
        waiting.delete(slot);
        if (run && !draining) await run().catch(() => {});
      };
      const after = chains.get(slot) ?? new Promise<void>((resolve) => setImmediate(resolve));
      const chain: Promise<void> = after.then(next).finally(() => {
        if (chains.get(slot) === chain) chains.delete(slot);
      });
      chains.set(slot, chain);
    },
    async idle() {
      while (chains.size) await Promise.all(chains.values());
    },
    stopOnClose(stop) {
      if (draining) stop.abort();
      else stops.add(stop);
      stop.signal.addEventListener('abort', () => stops.delete(stop), { once: true });
    },
    async drain() {
      draining = true;
      for (const stop of [...stops]) stop.abort();
      waiting.clear();
      await this.idle();
    },
  };
}
