/** Size limits for user-supplied content. Knowledge is for short, dense text; large material
 * belongs in the repository itself, referenced by path. */
export const LIMITS = {
  /** characters in a title (one line) */
  title: 200,
  /** characters in one text field (decision, reasoning, description, body, notes, ...) */
  text: 64 * 1024,
  /** entries in one list field (tags, keywords, scope, anchors, ...) */
  listItems: 100,
  /** characters in one list entry */
  listItem: 200,
  /** bytes of one encoded item file */
  fileBytes: 256 * 1024,
} as const;

/** Human-readable size: 10485760 -> "10.0 MB". */
export function formatSize(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}
