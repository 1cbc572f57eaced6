import type { Decision } from '../../../model/decision.ts';
import { AxmeError } from '../../../model/errors.ts';
import type { KnowledgeBase } from '../../core/kb.ts';

/**
 * A required decision binds every agent, so only a person may let go of it: revoke it, or replace
 * it by an advisory one. An agent or the auditor asking (on any surface: MCP, the close, the CLI
 * run by an agent) gets NOT_ALLOWED with the command a person would run — the way loosening a
 * safety rule is refused (rules/update-safety.ts). Tightening and rewording stay open to agents.
 */
export function assertPersonMayLoosen(kb: KnowledgeBase, old: Decision, what: string, how: string): void {
  if (old.enforce !== 'required' || kb.actor === 'human') return;
  throw new AxmeError(
    'NOT_ALLOWED',
    `${old.id} "${old.title}" is a required decision: ${what} lets go of a rule every agent must follow, which only a person may do. Ask the user to run \`${how}\` themselves`,
    {
      id: old.id,
      actor: kb.actor,
    },
  );
}
