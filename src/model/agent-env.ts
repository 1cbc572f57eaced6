/**
 * Whether an environment is a coding agent's: Claude Code sets CLAUDECODE=1 for the commands it
 * runs; AXME_AGENT=1 for others. Its own module, free of zod: the git hooks' fast path asks it.
 */
export function isAgentEnv(env: NodeJS.ProcessEnv): boolean {
  return env.CLAUDECODE === '1' || env.AXME_AGENT === '1';
}
