/** The ref holding a repository's accepted knowledge (docs/storage.md#refs-and-local-files). */
export const MEMORY_REF = 'refs/memory/main';
/** Where an agent's writes go while `review.required` is set: `refs/memory/proposals/<session>` (docs/storage.md#refs-and-local-files). */
export const PROPOSALS_REF_PREFIX = 'refs/memory/proposals/';
