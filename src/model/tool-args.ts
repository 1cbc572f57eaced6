/**
 * The argument each tool that the session context, the server's instructions and the recall
 * headers tell a model to call takes: the operations declare their input under these names and
 * the texts name them from here, so a model that does what the text says sends what the schema
 * takes (the context said `axme_get_decision <id>` while the tool took `id_or_slug`). Pure: the
 * pre-tool-use hook's recall header reads it.
 */
export const TOOL_ARGS = {
  axme_get_decision: 'id_or_slug',
  axme_get_memory: 'slug',
  axme_search_kb: 'query',
} as const;

/** How a text shows one call of `tool`: `axme_get_decision {"id_or_slug": "D-001"}`. */
export function toolCall(tool: keyof typeof TOOL_ARGS, value: string): string {
  return `${tool} {"${TOOL_ARGS[tool]}": "${value}"}`;
}
