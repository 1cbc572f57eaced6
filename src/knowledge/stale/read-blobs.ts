import type { KnowledgeBase } from '../core/kb.ts';

/**
 * The text of files at revisions, `<commit>:<path>` each, from one `git cat-file --batch`: null for
 * a path the revision does not have, '' for a folder.
 */
export async function readBlobs(kb: KnowledgeBase, specs: Iterable<string>): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  const asked = [...new Set(specs)].filter((s) => {
    if (!/[\n\r]/.test(s)) return true;
    out.set(s, null); // a path git's line-based input cannot name
    return false;
  });
  if (!asked.length) return out;
  const r = await kb.repo.git(['cat-file', '--batch'], { input: asked.map((s) => `${s}\n`).join('') });
  const buf = r.stdout;
  let pos = 0;
  for (const spec of asked) {
    const eol = buf.indexOf(10, pos);
    if (eol < 0) break;
    const header = buf.subarray(pos, eol).toString('utf8');
    pos = eol + 1;
    const m = /^[0-9a-f]+ (\w+) (\d+)$/.exec(header);
    if (!m) {
      out.set(spec, null); // "<spec> missing", "ambiguous"
      continue;
    }
    const size = Number(m[2]);
    // a folder (a tree) is there, with no text of its own: ''
    out.set(spec, m[1] === 'blob' ? buf.subarray(pos, pos + size).toString('utf8') : '');
    pos += size + 1;
  }
  return out;
}
