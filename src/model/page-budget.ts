/**
 * The size of a reply page (the context, the decisions, memories and oracle digests), in
 * characters: the least it may be, and axme.yaml's `context.budget` read and checked once
 * (docs/settings.md).
 */

/**
 * The least a page may be: the page's header (whose store, the warning that the knowledge is data,
 * the counts), the must-haves at their briefest (knowledge/views/first-page.ts) and the footer that
 * names the next page fit in it whatever the store.
 */
export const MIN_PAGE_BUDGET = 1_000;

/**
 * axme.yaml's `context.budget` (`config` as parsed: the key is optional, and the rest of the file
 * stands whatever it holds): the characters a page takes when set to a whole number of at least
 * MIN_PAGE_BUDGET; under it, the least; not a number, unset. `problem` says what is wrong with it
 * and what to do, for the store's diagnostics.
 */
export function configuredBudget(config: unknown): { budget: number | undefined; problem: string | undefined } {
  const context = (config as { context?: unknown } | null)?.context;
  if (!context || typeof context !== 'object' || !('budget' in context)) return { budget: undefined, problem: undefined };
  const given = (context as { budget?: unknown }).budget;
  if (given === undefined || given === null) return { budget: undefined, problem: undefined };
  if (typeof given !== 'number' || !Number.isFinite(given))
    return {
      budget: undefined,
      problem: `context.budget is ${JSON.stringify(given)}, not a number of characters: the default applies; set it to a whole number of at least ${MIN_PAGE_BUDGET}`,
    };
  const whole = Math.floor(given);
  if (whole < MIN_PAGE_BUDGET)
    return {
      budget: MIN_PAGE_BUDGET,
      problem: `context.budget is ${given}, under the least a page holds (${MIN_PAGE_BUDGET} characters): pages are ${MIN_PAGE_BUDGET} characters; set it to ${MIN_PAGE_BUDGET} or more`,
    };
  return { budget: whole, problem: undefined };
}
