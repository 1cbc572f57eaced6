import { AxmeError, isAxmeError } from '../model/errors.ts';

/**
 * A ref that should name a memory commit and does not, said one way wherever it is met: the ref,
 * what it holds instead, that nothing was read or written, and the way back (its reflog lists
 * the tips it had; `git update-ref` puts one back). CORRUPT (exit 1).
 */
export function refDamage(ref: string, holds: string): AxmeError {
  return new AxmeError(
    'CORRUPT',
    `${ref} is damaged: it ${holds}, not a memory commit: nothing was written. \`git reflog show ${ref}\` lists the tips it had: put the last good one back with \`git update-ref ${ref} <commit>\`, or delete the ref and run \`axme init\` to start a new store`,
    { ref },
  );
}

/**
 * A ref whose loose file holds no object name (`file` in the git dir, `text` its content): git
 * itself then ignores the ref as broken, so neither its reflog command nor `git update-ref` works
 * on it until the file is gone; the reflog's own file still lists the tips it had.
 */
export function refFileDamage(ref: string, text: string): AxmeError {
  return new AxmeError(
    'CORRUPT',
    `${ref} is damaged: its file holds ${JSON.stringify(text.slice(0, 40))}, which names no object, not a memory commit: nothing was written. Git ignores such a ref (\`git reflog show ${ref}\` cannot read it): remove the file .git/${ref}, then put the last good tip back with \`git update-ref ${ref} <commit>\` (the second column of the last line of .git/logs/${ref} is the tip it had), or run \`axme init\` to start a new store`,
    { ref },
  );
}

/**
 * A failed read of `ref`'s tip said as the ref's damage when the tip is no commit (a blob, a
 * tree, a tag, an object this repository lacks), asked of git on this error path only; any other
 * error is returned as it came.
 */
export async function tipReadError(
  git: (args: string[], opts: { allowFail: true }) => Promise<{ code: number | null; stdout: Buffer }>,
  ref: string,
  tip: string,
  err: unknown,
): Promise<unknown> {
  if (!isAxmeError(err) || err.code !== 'CORRUPT' || (err.data as { oid?: unknown } | undefined)?.oid !== tip) return err;
  const r = await git(['cat-file', '-t', tip], { allowFail: true });
  const type = r.code === 0 ? r.stdout.toString('utf8').trim() : '';
  if (type === 'commit') return err;
  return refDamage(ref, type ? `points at ${tip.slice(0, 12)}, a ${type}` : `points at ${tip.slice(0, 12)}, an object this repository does not have`);
}
