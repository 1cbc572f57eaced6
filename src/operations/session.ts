import { z } from 'zod';
import type { BeginCloseResult } from '../knowledge/close/begin-close.ts';
import type { FinalizeCloseResult } from '../knowledge/close/finalize-close.ts';
import { FinalizeCloseInput } from '../model/close.ts';
import { defineOperation, EDIT, READ } from './operation.ts';

/** close.begin: `axme_begin_close` (the CLI's `axme session begin-close` is its twin). */
export const beginCloseOp = defineOperation({
  id: 'close.begin',
  summary: 'Begin closing the session',
  description: 'What to extract before the session ends, with what is already stored (to avoid duplicates). Then call axme_finalize_close once.',
  input: {},
  output: z.looseObject({
    counts: z.record(z.string(), z.number()).describe('items stored, by kind'),
    newest: z.looseObject({}).describe('the newest decisions and memories, to leave out duplicates'),
    session: z.string().nullable().describe('the session being closed'),
    recorded: z.looseObject({}).nullable().describe('what the hooks recorded for the session on this machine: files, commits, start'),
  }),
  annotations: READ,
  write: false,
  cli: null,
  mcp: { tool: 'axme_begin_close' },
  async run(kb): Promise<BeginCloseResult> {
    const { beginClose } = await import('../knowledge/close/begin-close.ts');
    return beginClose(kb);
  },
  json: ({ text: _t, ...r }) => r,
  text: (r) => r.text,
});

/** close.finalize: `axme_finalize_close` (the CLI's `axme session finalize` is its twin). */
export const finalizeCloseOp = defineOperation({
  id: 'close.finalize',
  summary: 'Finalize the session',
  description: 'Store everything extracted this session (decisions, memories, safety rules), the handoff for the next session and the worklog entry: ONE commit. Returns what was stored.',
  input: FinalizeCloseInput.shape,
  output: z.looseObject({
    session: z.string().describe('the session closed'),
    commit: z.string().nullable().describe('the one commit that stored everything'),
    decisions: z.array(z.looseObject({})).describe('each decision: id, title, outcome (saved, exists, superseded)'),
    memories: z.array(z.looseObject({})).describe('each memory: slug, title, outcome (saved, exists)'),
    safety: z.array(z.looseObject({})).describe('each safety rule change and whether it changed anything'),
    handoff: z.string().describe('the handoff file'),
    summary: z.string().describe('the session summary file'),
  }),
  annotations: EDIT,
  write: true,
  cli: null,
  mcp: { tool: 'axme_finalize_close' },
  async run(kb, input, opts): Promise<FinalizeCloseResult> {
    const { finalizeClose } = await import('../knowledge/close/finalize-close.ts');
    return finalizeClose(kb, input, opts);
  },
  json: ({ text: _t, ...r }) => r,
  text: (r) => r.text,
});
