import { type RenumberedLine, renumberedKey, renumberedSince } from '../session/renumbered.ts';
import type { SessionMeta } from '../session/sessions.ts';
import type { HookIO } from './io.ts';

/** The notice's first line: what happened and what the agent should do about it. */
export const RENUMBERED_HEADER =
  'Display IDs changed since this session began (a sync merged items that had used one ID): an old ID now names another item, so cite these by their new ID.';

/**
 * What a prompt tells the session of the display IDs this clone's merges changed since it began
 * (session/renumbered.ts), each once: those whose key it was not given yet. `null` when there is
 * nothing to tell or the record cannot be read (the recall goes on without it).
 */
export function renumberedNotice(io: HookIO, commonDir: string, session: SessionMeta, given: ReadonlySet<string>): { text: string; keys: string[] } | null {
  let news: RenumberedLine[];
  try {
    news = renumberedSince(commonDir, session.startedAt).filter((r) => !given.has(renumberedKey(r)));
  } catch (err) {
    io.stderr(`axme: could not read the renumbered display IDs (${(err as Error).message})\n`);
    return null;
  }
  if (!news.length) return null;
  const lines = news.map((r) => `- ${r.from} is now ${r.to}: ${r.title ? `${r.title} ` : ''}(${r.path})`);
  return { text: [RENUMBERED_HEADER, ...lines].join('\n'), keys: news.map(renumberedKey) };
}
