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
