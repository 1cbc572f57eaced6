/** The ref holding a repository's accepted knowledge (DESIGN §3). */
export const MEMORY_REF = 'refs/memory/main';
/** Where an agent's writes go while `review.required` is set: `refs/memory/proposals/<session>` (DESIGN §3). */
export const PROPOSALS_REF_PREFIX = 'refs/memory/proposals/';
