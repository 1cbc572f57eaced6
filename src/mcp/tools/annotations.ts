/** Tool annotation presets (the SDK's defaults assume destructive and open-world, so say it). */
export const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
/** Saves that return the existing item when it is already stored. */
export const SAVE = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
/** Edits of existing items (kept in history, so never destructive). */
export const EDIT = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as const;
/** Pushes to the git remote and calls GitHub: the outside world changes. */
export const PUBLISH = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true } as const;
