import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { removeOrphanTemps, tempBeside } from './temp-files.ts';

/**
 * Derived data on disk under <commonDir>/axme/cache/, keyed by content (tree OIDs): never stale,
 * safe to delete at any time. Writes are atomic (temp + rename), reads of a damaged entry miss.
 */
export interface DiskCache {
  get<T>(key: string): Promise<T | undefined>;
  put(key: string, value: unknown): Promise<void>;
  /** resolves once every write begun so far has finished (callers need not await a put; closing waits here) */
  settle(): Promise<void>;
}

const KEY_RE = /^[a-z0-9-]+$/;
const KEEP = 64;
/** Prune only when this many entries over KEEP: a readdir per write, a prune every few writes. */
const SLACK = 16;

export function diskCache(axmeDir: string, version: number): DiskCache {
  const dir = join(axmeDir, 'cache');
  const file = (key: string) => {
    if (!KEY_RE.test(key)) throw new Error(`internal: bad cache key ${key}`);
    return join(dir, `${key}.json`);
  };
  const pending = new Set<Promise<void>>();
  const write = async (key: string, value: unknown) => {
    try {
      await mkdir(dir, { recursive: true });
      const tmp = tempBeside(file(key));
      await writeFile(tmp, JSON.stringify({ v: version, data: value }));
      await rename(tmp, file(key));
      await prune(dir);
    } catch {
      // a cache that cannot be written only costs time
    }
  };
  return {
    async settle() {
      while (pending.size) await Promise.all([...pending]);
    },
    async get<T>(key: string) {
      try {
        const v = JSON.parse(await readFile(file(key), 'utf8')) as { v: number; data: T };
        return v.v === version ? v.data : undefined;
      } catch {
        return undefined;
      }
    },
    put(key, value) {
      const p = write(key, value);
      pending.add(p);
      void p.then(() => pending.delete(p));
      return p;
    },
  };
}

/** Keeps the newest KEEP entries, and always the `<folder>-base` pointers and the entries they name
 * (deleting a base would make the next miss re-parse the whole folder). */
async function prune(dir: string): Promise<void> {
  const entries = await readdir(dir);
  removeOrphanTemps(dir, entries);
  const all = entries.filter((n) => n.endsWith('.json'));
  if (all.length <= KEEP + SLACK) return;
  const keep = new Set<string>();
  for (const n of all.filter((n) => n.endsWith('-base.json'))) {
    keep.add(n);
    const oid = await readFile(join(dir, n), 'utf8').then(
      (t) => (JSON.parse(t) as { data?: unknown }).data,
      () => undefined,
    );
    if (typeof oid === 'string') keep.add(`${n.slice(0, -'-base.json'.length)}-${oid}.json`);
  }
  const names = all.filter((n) => !keep.has(n));
  const withTimes = await Promise.all(names.map(async (n) => ({ n, t: (await stat(join(dir, n)).catch(() => null))?.mtimeMs ?? 0 })));
  withTimes.sort((a, b) => a.t - b.t);
  await Promise.all(withTimes.slice(0, Math.max(0, withTimes.length - KEEP)).map(({ n }) => rm(join(dir, n), { force: true })));
}
