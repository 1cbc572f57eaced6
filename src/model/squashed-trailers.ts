/**
 * The trailers of the commits a squash merge folded into one message. Git writes every squashed
 * commit into SQUASH_MSG (`git merge --squash`): "commit <id>", its Author and Date lines, then its
 * message indented by four spaces. GitHub's squash merge lists them as "* <subject>" entries, each
 * followed by the body, and may end with a `---------` line before its co-author trailers. Either
 * way each commit's trailers end up inside the message, where git no longer reads them as
 * trailers. Pure: a message in, the named values out (docs/staleness.md#the-sessions-own-commits).
 */

/** One value of the trailer asked, with the author date of the squashed commit when the message says it (git's Date line). */
export interface SquashedTrailer {
  value: string;
  /** ms since the epoch; absent when the message gives no date (GitHub's entries) */
  authored?: number;
}

const GIT_ENTRY = /^commit [0-9a-f]{40,64}$/;
const GITHUB_ENTRY = /^\* \S/;
const RULE = /^-{3,}$/;
const TRAILER = /^([A-Za-z0-9][A-Za-z0-9-]*):[ \t]*(\S.*)$/;
const INDENT = '    ';

/**
 * The values of trailer `key` (any case, as git reads keys) in the trailer blocks of the commits
 * squashed into `message`: a paragraph every line of which is shaped `Key: value` (as written, or
 * all indented by four spaces as git's SQUASH_MSG has them), at the end of one commit's entry (just
 * before the next "commit <id>" or "* <subject>" line, a `---` rule, or the end of the message).
 * A line of prose never counts, nor a `Key: value` line in a paragraph that has other lines.
 */
export function squashedTrailers(message: string, key: string): SquashedTrailer[] {
  const lines = message.replace(/\r\n?/g, '\n').split('\n');
  const want = key.toLowerCase();
  const out: SquashedTrailer[] = [];
  let date: number | undefined;
  // trailers before the first entry are the message's own (git reads them), or its title
  let inEntry = false;
  let para: string[] = [];
  const close = (atBoundary: boolean) => {
    if (atBoundary && inEntry && para.length) {
      const indented = para.every((l) => l.startsWith(INDENT));
      const fields = para.map((l) => TRAILER.exec(indented ? l.slice(INDENT.length) : l));
      if (fields.every((m) => m !== null))
        for (const m of fields) if (m![1]!.toLowerCase() === want) out.push({ value: m![2]!.trim(), ...(date !== undefined ? { authored: date } : {}) });
    }
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') {
      // a paragraph ends: it is a block of trailers when the next one starts an entry, a rule, or nothing
      let j = i + 1;
      while (j < lines.length && lines[j]!.trim() === '') j++;
      const next = lines[j];
      const boundary = next === undefined || GIT_ENTRY.test(next) || GITHUB_ENTRY.test(next) || RULE.test(next.trim());
      close(boundary);
      if (next !== undefined && GIT_ENTRY.test(next)) date = undefined;
      continue;
    }
    if (para.length === 0 && (GIT_ENTRY.test(line) || GITHUB_ENTRY.test(line))) inEntry = true;
    if (GIT_ENTRY.test(line)) date = undefined;
    const d = /^Date:\s+(\S.*)$/.exec(line);
    if (d && para.length >= 1 && para.some((l) => GIT_ENTRY.test(l))) {
      const t = Date.parse(d[1]!);
      date = Number.isNaN(t) ? undefined : t;
    }
    para.push(line);
  }
  close(true);
  return out;
}
