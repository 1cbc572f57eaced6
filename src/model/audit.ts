import { z } from 'zod';
import { SessionExtractions } from './close.ts';
import { QuestionInput } from './question.ts';

/** full: the agent did not close the session, extract everything; verify: it did, find only what it missed. */
export const AUDIT_MODES = ['full', 'verify'] as const;
export type AuditMode = (typeof AUDIT_MODES)[number];

/**
 * What the auditor's model answers: a session's extractions, the shape axme_finalize_close's
 * arguments build on (one schema for one concept; the auditor never retires an item), plus questions for the user (axme_ask_question's arguments) and whether the
 * oracle should be scanned again.
 */
export const AuditAnswer = SessionExtractions.extend({
  questions: z.array(QuestionInput).max(20).default([]).describe('questions for the user: contradictions with stored decisions, things left unclear'),
  oracle_rescan: z.boolean().default(false).describe('true when the session changed the stack or structure (new dependency, new top-level folder)'),
});
export type AuditAnswer = z.output<typeof AuditAnswer>;

/** One audit run, as the machine-local audit log keeps it (`axme audit log`). */
export interface AuditLogEntry {
  at: string;
  session: string;
  transcript: string;
  /** whose transcript it was read as (claude-code, gemini, codex); absent when that could not be told */
  client?: string;
  mode: AuditMode;
  provider: string;
  model: string;
  ok: boolean;
  dry_run: boolean;
  /** why it failed, when it did */
  error?: string;
  /** the model's raw answer, kept when it could not be used */
  raw?: string;
  duration_ms: number;
  tokens_in: number;
  tokens_out: number;
  cost_usd: number | null;
  /** the transcript bytes read: [from, to) */
  from_offset: number;
  to_offset: number;
  chunks: number;
  extracted: number;
  deduplicated: number;
  written: number;
  redacted: number;
  commit: string | null;
}
