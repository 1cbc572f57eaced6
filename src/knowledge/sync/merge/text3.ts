import { diffArrays } from 'diff';

/**
 * Line-based three-way merge (diff3) of a text field. Changes that touch different lines of the
 * base combine; the same change on both sides is taken once; two insertions at the same place
 * (two notes appended to one backlog item) are both kept, in a fixed order. Anything else is a
 * conflict: the caller keeps one version and asks a person. Symmetric: merge(b, x, y) and
 * merge(b, y, x) give the same text.
 */

export type Text3Result = { ok: true; text: string } | { ok: false };

interface Hunk {
  /** base lines [start, end) replaced by `lines` */
  start: number;
  end: number;
  lines: string[];
}

function hunks(base: string[], side: string[]): Hunk[] {
  const out: Hunk[] = [];
  let at = 0;
  let open: Hunk | null = null;
  for (const c of diffArrays(base, side)) {
    if (!c.added && !c.removed) {
      if (open) out.push(open);
      open = null;
      at += c.count ?? c.value.length;
      continue;
    }
    open ??= { start: at, end: at, lines: [] };
    if (c.removed) {
      at += c.count ?? c.value.length;
      open.end = at;
    } else open.lines.push(...c.value);
  }
  if (open) out.push(open);
  return out;
}

const same = (a: string[], b: string[]) => a.length === b.length && a.every((l, i) => l === b[i]);

export function merge3(base: string, ours: string, theirs: string): Text3Result {
  if (ours === theirs) return { ok: true, text: ours };
  if (ours === base) return { ok: true, text: theirs };
  if (theirs === base) return { ok: true, text: ours };
  const b = base.split('\n');
  const xs = hunks(b, ours.split('\n'));
  const ys = hunks(b, theirs.split('\n'));
  const out: string[] = [];
  let pos = 0;
  let i = 0;
  let j = 0;
  while (i < xs.length || j < ys.length) {
    const x = xs[i];
    const y = ys[j];
    // the next hunk by base position; a group gathers every hunk of either side that overlaps it
    const first = !y || (x && (x.start < y.start || (x.start === y.start && x.end <= y.end))) ? x! : y;
    let start = first.start;
    let end = first.end;
    const gx: Hunk[] = [];
    const gy: Hunk[] = [];
    let grew = true;
    while (grew) {
      grew = false;
      // touching counts as overlap unless both are insertions at distinct points
      while (i < xs.length && overlaps(xs[i]!, start, end)) {
        gx.push(xs[i]!);
        start = Math.min(start, xs[i]!.start);
        end = Math.max(end, xs[i]!.end);
        i++;
        grew = true;
      }
      while (j < ys.length && overlaps(ys[j]!, start, end)) {
        gy.push(ys[j]!);
        start = Math.min(start, ys[j]!.start);
        end = Math.max(end, ys[j]!.end);
        j++;
        grew = true;
      }
    }
    out.push(...b.slice(pos, start));
    const side = (g: Hunk[]) => {
      // the side's version of base [start, end)
      const lines: string[] = [];
      let p = start;
      for (const h of g) {
        lines.push(...b.slice(p, h.start), ...h.lines);
        p = h.end;
      }
      lines.push(...b.slice(p, end));
      return lines;
    };
    if (!gy.length) out.push(...side(gx));
    else if (!gx.length) out.push(...side(gy));
    else {
      const sx = side(gx);
      const sy = side(gy);
      if (same(sx, sy)) out.push(...sx);
      else if (start === end && gx.every((h) => h.start === h.end) && gy.every((h) => h.start === h.end)) {
        // both only inserted here: keep both, in an order that does not depend on the side
        const [a, c] = sx.join('\n') <= sy.join('\n') ? [sx, sy] : [sy, sx];
        out.push(...a, ...c);
      } else return { ok: false };
    }
    pos = end;
  }
  out.push(...b.slice(pos));
  return { ok: true, text: out.join('\n') };
}

function overlaps(h: Hunk, start: number, end: number): boolean {
  if (h.start === h.end && start === end) return h.start === start;
  if (h.start === h.end) return h.start >= start && h.start <= end;
  if (start === end) return start >= h.start && start <= h.end;
  return h.start <= end && h.end >= start;
}
