// Builds bench/retrieval/notes/*.json, the fifth retrieval corpus: a real project's short notes,
// the shape a knowledge store's memories have — ripgrep's commit messages (the subject the title,
// the body the note) and its CHANGELOG entries (one item per bullet). Needs a bare clone:
//
//   node --import tsx bench/retrieval/build-notes.ts --mirrors DIR
//
// where DIR/BurntSushi+ripgrep/repo is a bare clone of https://github.com/BurntSushi/ripgrep
// (MIT OR Unlicense). See README.md ("Notes").
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { argOf } from '../args.ts';
import type { CorpusDoc, CorpusFile } from './build-corpus.ts';
import { cut, gitIn, slugPart as slugOf, unlink } from './mirror-text.ts';

const REPO = 'BurntSushi/ripgrep';
const LICENCE = 'MIT OR Unlicense';
/** A commit is a note when its body says something (release bumps, dependency updates and CI tweaks left out). */
const BODY_MIN = 150;
const BODY_MAX = 4000;
const SKIP_SUBJECT = /^((\S+-)?\d+\.\d+\.\d+|(deps|release|changelog|ci)\b.*)$/i;

const git = gitIn;
const slugPart = (s: string) => slugOf(s, 40, 'note');

/** Every non-merge commit with a body of BODY_MIN characters or more: title its subject, the note its body. */
function commitDocs(dir: string): CorpusDoc[] {
  const log = git(dir, ['log', '--no-merges', '--format=%x00%H%x01%ad%x01%s%x01%b', '--date=short', 'HEAD']);
  const docs: CorpusDoc[] = [];
  for (const rec of log.split('\0').slice(1)) {
    const [hash, date, subject, body] = rec.split('\x01') as [string, string, string, string];
    const text = body.trim();
    if (text.length < BODY_MIN || SKIP_SUBJECT.test(subject.trim())) continue;
    docs.push({
      id: `ripgrep/${hash.slice(0, 7)}-${slugPart(subject)}`,
      path: `commit ${hash} (${date})`,
      title: subject.trim().slice(0, 200),
      decision: cut(text, BODY_MAX),
      reasoning: '',
    });
  }
  return docs;
}

/** One item per CHANGELOG bullet of a released version: its text the title (its first sentence) and the note, the version and section below. */
function changelogDocs(md: string): CorpusDoc[] {
  const docs: CorpusDoc[] = [];
  const seen = new Set<string>();
  const lines = md.split('\n');
  let version: string | null = null;
  let date = '';
  let section = '';
  let bullet: string[] | null = null;
  const flush = () => {
    if (!bullet || !version) return;
    const text = unlink(bullet.join(' ').replace(/\s+/g, ' ').trim());
    bullet = null;
    // "BUG #123: Fix ...": the tag and number stay in the note, the title is what it says
    const m = /^((?:(?:BUG|FEATURE|PERF|DOC|BUILD|PACKAGING)\s+#\d+,?\s*)+):\s*(.*)$/i.exec(text);
    const said = (m ? m[2]! : text).trim();
    if (said.length < 20) return;
    const first = /^(.{20,}?[.!?])(\s|$)/.exec(said)?.[1] ?? said;
    let id = `ripgrep/${version.replace(/\./g, '-')}-${slugPart(said)}`;
    for (let n = 2; seen.has(id); n++) id = `ripgrep/${version.replace(/\./g, '-')}-${slugPart(said)}-${n}`;
    seen.add(id);
    const where = `ripgrep ${version}${date ? ` (${date})` : ''}${section ? `, ${section.replace(/[*]/g, '').toLowerCase()}` : ''}`;
    docs.push({ id, path: `CHANGELOG.md ${version}`, title: cut(first, 200), decision: `${text}\n\n${where}`, reasoning: '' });
  };
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const v = /^(\d+\.\d+\.\d+)\s*(?:\(([\d-]+)\))?\s*$/.exec(l);
    if (v && /^=+$/.test(lines[i + 1] ?? '')) {
      flush();
      version = v[1]!;
      date = v[2] ?? '';
      section = '';
      continue;
    }
    if (/^[*-] /.test(l)) {
      flush();
      bullet = [l.slice(2)];
    } else if (/^\S.*:$/.test(l)) {
      flush();
      section = l.slice(0, -1);
    } else if (bullet && /^\s+\S/.test(l)) bullet.push(l.trim());
    else flush();
  }
  flush();
  return docs;
}

const argv = process.argv.slice(2);
const mirrors = argOf(argv, 'mirrors', '/work/.mirror');
const out = argOf(argv, 'out', join(import.meta.dirname, 'notes'));
const dir = join(mirrors, REPO.replace('/', '+'), 'repo');
const commit = git(dir, ['rev-parse', 'HEAD']).trim();
mkdirSync(out, { recursive: true });
const files: Array<[string, CorpusFile]> = [
  ['ripgrep-commits.json', { repo: REPO, commit, licence: LICENCE, docs: commitDocs(dir) }],
  ['ripgrep-changelog.json', { repo: REPO, commit, licence: LICENCE, docs: changelogDocs(git(dir, ['show', `${commit}:CHANGELOG.md`])) }],
];
for (const [name, file] of files) {
  writeFileSync(join(out, name), `${JSON.stringify(file, null, 1)}\n`);
  process.stderr.write(`${name}: ${file.docs.length} notes\n`);
}
