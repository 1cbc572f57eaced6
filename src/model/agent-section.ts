/**
 * The lines that open and close the section axme manages in an agent-instructions file
 * (CLAUDE.md): setup writes the section between them, the oracle scan leaves it out of excerpts.
 * They count only on lines of their own.
 */
export const CLAUDE_MD_START = '<!-- axme:start -->';
export const CLAUDE_MD_END = '<!-- axme:end -->';
