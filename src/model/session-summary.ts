import { z } from 'zod';
import { baseFields, Timestamp } from './common.ts';
import type { KindSpec } from './kind.ts';
import { sessionKind } from './kinds/session.ts';
import { Slug } from './slug.ts';
import { listEntry, longText } from './text.ts';

/** The narrative worklog of one session: `sessions/<yyyy-mm>/<session>.md`. */
export const SessionSummary = z.object({
  slug: Slug,
  actor: listEntry.optional().describe('agent, auditor or human'),
  started: Timestamp.optional().describe('when the session started'),
  closed: Timestamp.optional().describe('when the session closed'),
  files_changed: z.array(z.string().max(1000)).default([]).describe('files the session changed'),
  commits: z.array(z.string().max(100)).default([]).describe('code commits the session made'),
  worklog: longText('what happened, as a short narrative').default(''),
  ...baseFields,
});
export type SessionSummary = z.infer<typeof SessionSummary>;

export const sessionSpec: KindSpec<SessionSummary> = {
  ...sessionKind,
  schema: SessionSummary,
  fields: ['session', 'actor', 'started', 'closed', 'files_changed', 'commits', 'source', 'created', 'updated'],
  lead: 'worklog',
  sections: [],
};

/** Folder of a session summary: sessions/<yyyy-mm>. */
export function sessionDir(created: string): string {
  return `sessions/${created.slice(0, 7)}`;
}
