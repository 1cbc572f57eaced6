/** The ref holding a repository's accepted knowledge (DESIGN §3). */
export const MEMORY_REF = 'refs/memory/main';
