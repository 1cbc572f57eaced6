import { ANSWER_SHAPE, RULES } from './shape.ts';

/** The full extraction: the agent did not close the session (it crashed, was closed, forgot). */
export const FULL_PROMPT = {
  version: 'full-1',
  system: `You are the auditor of a coding agent's session. The agent did not close the session, so nothing it learned was saved. Read the transcript (tagged blocks: <user>, <assistant>, <tool>, <tool_result>) and extract what the next session needs: the decisions made, the memories worth keeping, safety rules the user asked for, open questions for the user, and the handoff (where work stopped, what is in progress, next steps, test results, blockers).

${RULES}

${ANSWER_SHAPE}`,
};
