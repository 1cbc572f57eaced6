/** Lines a throttled log of `axme serve --http` writes in a burst, then one a second: a flood of requests cannot fill a disk. */
export const LOG_BURST = 20;
export const LOG_PER_SECOND = 1;

/** A line budget: whether a line may be written now, and how many were left out since the last one written. */
export interface LogRate {
  /** the count of lines left out since the last one written, when this one may be written; null when it must be left out (counted) */
  take(): number | null;
}

/**
 * The rate of a log that a client's requests write to (the refusal log, the failure log): a token
 * bucket on `now` holding `burst` lines, refilled `perSecond`; the lines it leaves out are counted
 * so that the next line written can say how many.
 */
export function logRate(opts: { now(): number; burst?: number; perSecond?: number }): LogRate {
  const burst = opts.burst ?? LOG_BURST;
  const perSecond = opts.perSecond ?? LOG_PER_SECOND;
  let tokens = burst;
  let last = opts.now();
  let dropped = 0;
  return {
    take() {
      const now = opts.now();
      tokens = Math.min(burst, tokens + (Math.max(0, now - last) / 1000) * perSecond);
      last = now;
      if (tokens < 1) {
        dropped++;
        return null;
      }
      tokens--;
      const left = dropped;
      dropped = 0;
      return left;
    },
  };
}
