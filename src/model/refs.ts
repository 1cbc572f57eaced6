/** The ref holding a repository's accepted knowledge (docs/storage.md#refs-and-local-files). */
export const MEMORY_REF = 'refs/memory/main';
/** Where an agent's writes go while `review.required` is set: `refs/memory/proposals/<session>` (docs/storage.md#refs-and-local-files). */
export const PROPOSALS_REF_PREFIX = 'refs/memory/proposals/';
/** The remote branch a proposal is pushed to for its pull request: `axme/proposals/<name>` (docs/review.md). */
export const PROPOSAL_BRANCH_PREFIX = 'axme/proposals/';
