/**
 * An axme session id: one token, so it can never smuggle a line (or a trailer) into a commit, nor
 * a folder part into a session's files. The one definition: the session records, the knowledge
 * base, the git hooks' trailers and notes (its own file: the hooks read it without loading zod).
 */
export const SESSION_ID_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** What SESSION_ID_RE accepts, for a message. */
export const SESSION_ID_FORM = 'a letter or digit, then at most 127 letters, digits, ".", "_" or "-"';
