import { AxmeError } from './errors.ts';
import { formatSize, LIMITS } from './limits.ts';

/** The note line of a backlog item: `- <date>: <text>`, continuation lines indented by two spaces. */
export function noteEntry(date: string, text: string): string {
  return `- ${date}: ${text.trim().replace(/\n/g, '\n  ')}`;
}

/**
 * A backlog item's notes with `entry` appended (newest last). Notes are capped at LIMITS.text
 * characters (and at `maxBytes` UTF-8 bytes, what the item file has room for); when the new entry
 * would go past the cap, the oldest entries leave the file for a first line saying where they
 * are: `archivedIn` (`<commit>:<path>`, the version of the file that still holds them), so
 * nothing is lost and the item can always take another note. An entry too long to fit even
 * alone is refused (INVALID_INPUT) before anything is written.
 */
export function appendNote(notes: string, entry: string, archivedIn: string, maxBytes = Infinity): string {
  const entries = [...splitEntries(notes), entry];
  const chars = entries.map((e) => e.length + 1); // with the newline that joins it
  const bytes = entries.map((e) => Buffer.byteLength(e) + 1);
  const sum = (a: number[]) => a.reduce((x, y) => x + y, 0) - 1;
  let [c, b] = [sum(chars), sum(bytes)];
  if (c <= LIMITS.text && b <= maxBytes) return entries.join('\n');
  const marker = `- Earlier notes are in git history: git show ${archivedIn}`;
  [c, b] = [c + marker.length + 1, b + Buffer.byteLength(marker) + 1];
  // drop the oldest entries (never the new one) until the rest fits behind the marker
  for (let drop = 0; drop < entries.length - 1; drop++) {
    c -= chars[drop]!;
    b -= bytes[drop]!;
    if (c <= LIMITS.text && b <= maxBytes) return [marker, ...entries.slice(drop + 1)].join('\n');
  }
  const why =
    entry.length + marker.length + 1 > LIMITS.text
      ? `the note is ${entry.length.toLocaleString('en-US')} characters with its date line, over the limit of ${LIMITS.text.toLocaleString('en-US')} characters (${formatSize(LIMITS.text)}) for a backlog item's notes`
      : `the note is ${formatSize(Buffer.byteLength(entry))} with its date line, and the item's file has room for ${formatSize(Math.max(0, maxBytes - Buffer.byteLength(marker) - 1))} of notes beside the rest of the item (a file is at most ${formatSize(LIMITS.fileBytes)})`;
  throw new AxmeError('INVALID_INPUT', `${why}: shorten it, or put long material in a file in the repository and note its path`, {
    limit: LIMITS.text,
    length: entry.length,
  });
}

/** Note entries: each starts with a `- ` line; text before the first one is an entry of its own. */
function splitEntries(notes: string): string[] {
  const out: string[] = [];
  for (const line of notes.trim() ? notes.trim().split('\n') : []) {
    if (line.startsWith('- ') || out.length === 0) out.push(line);
    else out[out.length - 1] += `\n${line}`;
  }
  return out;
}
