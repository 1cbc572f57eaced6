/**
 * Typed errors. Every error axme raises carries a `code` that callers branch on and a message
 * that says what to do next. Only surfaces map codes to exit codes or tool errors.
 */
/** Every error code, each with what it means: the one list the docs' exit-code table is checked against. */
export const ERROR_CODES = [
  'NOT_A_REPO', // no git repository at or above the folder
  'NOT_INITIALIZED', // the repository has no refs/memory/main yet
  'INVALID_INPUT', // input failed validation (slug, size, binary data, schema)
  'SECRET_DETECTED', // content looks like a credential
  'NOT_FOUND', // no item by that id, slug or alias
  'AMBIGUOUS', // a reference matches several items
  'BAD_REVISION', // --at names no memory commit
  'NOT_ALLOWED', // the caller may not do this, however it is asked (an agent loosening its own safety rules): the message says who can
  'WRONG_STATE', // the item, session or store is in a state that does not allow this (a question not answered yet, a superseded decision, a session still running, nothing fetched yet): the message says what to do first
  'CONFLICT', // a lost race: the ref moved under us (compare-and-swap budget spent, a remote that kept moving, a push refused because the ref moved), or another process holds the claim; running again usually works
  'CORRUPT', // the store holds something axme cannot read
  'CONFIG', // a configuration file axme must edit is broken (e.g. .claude/settings.json)
  'UNAVAILABLE', // the process is stopping and will not start the work
  'GIT_FAILED', // the git CLI failed for a reason axme cannot fix
  'FILE_SYSTEM', // the file system refused a read or write (permission denied, read-only, no space, a path through a file): the message names the path and what to do
  'DOWNLOAD_FAILED', // a download (a search model's files) could not be made: the network, or the server's answer
  'GITHUB_FAILED', // GitHub's API refused or could not be reached
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * Codes that mean "the caller must change the input or set-up" (CLI exit 2). WRONG_STATE is not
 * one: the command was well formed and may work once the item or session changes (exit 1, a failure).
 */
export const USAGE_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'NOT_A_REPO',
  'NOT_INITIALIZED',
  'INVALID_INPUT',
  'SECRET_DETECTED',
  'BAD_REVISION',
  'CONFIG',
]);

export class AxmeError extends Error {
  override readonly name = 'AxmeError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export function isAxmeError(err: unknown, code?: ErrorCode): err is AxmeError {
  return err instanceof AxmeError && (code === undefined || err.code === code);
}
