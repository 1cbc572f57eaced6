import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { KnowledgeBase } from './kb.ts';

/**
 * The files of `paths` (repository-relative, under the working tree `root`) whose content differs
 * from commit `head`'s, each with the blob of its working-tree content, written to the object
 * database so that `axme verify` can read it later: what an item learned now learned from where
 * `learned_at` alone does not say it (a manifest `npm i` changed and the user commits after).
 * Undefined when every file is as `head` has it. Two git processes, whatever the number of files.
 */
export async function learnedContentNow(
  kb: KnowledgeBase,
  root: string,
  paths: string[],
  head: string | undefined,
): Promise<Record<string, string> | undefined> {
  const present = paths.filter((p) => !/[\n\r]/.test(p) && existsSync(join(root, p)));
  if (!head || !present.length) return undefined;
  const [worked, tree] = await Promise.all([
    kb.repo.git(['hash-object', '-w', '--', ...present.map((p) => join(root, p))], { allowFail: true }),
    kb.repo.git(['ls-tree', '-z', '--full-tree', head, '--', ...present], { allowFail: true }),
  ]);
  if (worked.code !== 0) return undefined;
  const atHead = new Map<string, string>();
  for (const line of tree.stdout.toString('utf8').split('\0')) {
    const m = /^\d+ blob ([0-9a-f]+)\t([\s\S]+)$/.exec(line);
    if (m) atHead.set(m[2]!, m[1]!);
  }
  const blobs = worked.stdout.toString('utf8').trim().split('\n');
  const out: Record<string, string> = {};
  present.forEach((p, i) => {
    const blob = blobs[i];
    if (blob && blob !== atHead.get(p)) out[p] = blob;
  });
  return Object.keys(out).length ? out : undefined;
}
