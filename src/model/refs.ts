/** The ref holding a repository's accepted knowledge (docs/storage.md#refs-and-local-files). */
export const MEMORY_REF = 'refs/memory/main';
/** Where an agent's writes go while `review.required` is set: `refs/memory/proposals/<session>` (docs/storage.md#refs-and-local-files). */
export const PROPOSALS_REF_PREFIX = 'refs/memory/proposals/';
/** The remote branch a proposal is pushed to for its pull request: `axme/proposals/<name>` (docs/review.md). */
export const PROPOSAL_BRANCH_PREFIX = 'axme/proposals/';
/**
 * Whether `name` is a proposal's name as axme makes one (`axme propose --name`, a session's id, a
 * title's slug): letters, digits, dots, dashes and slashes, at most 100. A remote's branch under
 * axme/proposals/ named otherwise (`x;touch${IFS}f`, which git accepts) is no proposal of axme's:
 * never mirrored, listed or put in a command axme suggests.
 */
export function isProposalName(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._/-]{0,99}$/.test(name) && !name.includes('..') && !name.endsWith('.lock') && !name.endsWith('/') && !name.includes('//');
}
