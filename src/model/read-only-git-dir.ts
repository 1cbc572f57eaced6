/**
 * What a write refused by a read-only git folder says (EROFS: an agent's shell command inside the
 * kernel sandbox, which binds the repository's `.git` read-only): save through the MCP server,
 * which runs outside the sandbox — `tool` when the surface knows the operation's — or run the
 * command outside it.
 */
export function readOnlyGitDirMessage(ref: string, errno: string, tool?: string): string {
  const mcp = tool ? `use the MCP tool ${tool} instead` : "save knowledge through axme's MCP tools (axme_save_decision, axme_save_memory, …)";
  return `cannot write ${ref}: the repository's git folder is read-only to this process (${errno}). An agent's shell command runs inside axme's kernel sandbox, which keeps .git read-only: ${mcp} (the MCP server runs outside the sandbox), or run this command outside the sandbox (a terminal of your own)`;
}

/** The same refusal met by the MCP server itself: it was started inside the sandbox, which it should never be. */
export function readOnlyServerMessage(ref: string, errno: string): string {
  return `cannot write ${ref}: axme's MCP server runs where the repository's git folder is read-only (${errno}): the client started it inside the kernel sandbox. Tell the user: restart the client; if it persists, \`axme doctor\` checks the setup. Nothing was saved`;
}
