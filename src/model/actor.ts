import { isAgentEnv } from './agent-env.ts';
import { AxmeError } from './errors.ts';

/** Who writes: a coding agent, the auditor, a person, or a sync. */
export type Actor = 'agent' | 'auditor' | 'human' | 'sync';
export const ACTORS: readonly Actor[] = ['agent', 'auditor', 'human', 'sync'];

/**
 * Who is acting, from the environment — the one rule every surface and setup step applies:
 * AXME_ACTOR when set (INVALID_INPUT for a value that is not an actor), else "agent" inside a
 * coding agent (CLAUDECODE=1, AXME_AGENT=1: agent-env.ts), else "human".
 */
export function actorFrom(env: NodeJS.ProcessEnv): Actor {
  const a = env.AXME_ACTOR;
  if (a) {
    if (!(ACTORS as readonly string[]).includes(a)) throw new AxmeError('INVALID_INPUT', `AXME_ACTOR=${a} is not an actor: use ${ACTORS.join(', ')}`);
    return a as Actor;
  }
  return isAgentEnv(env) ? 'agent' : 'human';
}

/**
 * NOT_ALLOWED unless a person acts (actorFrom): for what lets go of what binds an agent — its git
 * hooks, its client's hooks. `what` says what is removed; `command` is what the person runs.
 */
export function assertPersonActs(env: NodeJS.ProcessEnv, what: string, command: string): void {
  const actor = actorFrom(env);
  if (actor === 'human') return;
  throw new AxmeError('NOT_ALLOWED', `${what} lets go of what binds an agent, which only a person may do: ask the user to run \`${command}\` themselves`, {
    actor,
  });
}
