/**
 * The promise's value, or undefined when it takes longer than `ms`. The promise is not cancelled:
 * for work a process leaves behind as it stops (or that the next start finishes), never for work
 * whose result is still wanted later.
 */
export function withDeadline<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)))]).finally(() => clearTimeout(timer));
}
