// Builds bench/retrieval/faq/*.json, the sixth retrieval corpus: the questions and known problems
// a team writes down — FAQ pages (each entry its question and answer) and troubleshooting pages
// (each entry a symptom and its fix) of six public projects. Needs bare clones:
//
//   node --import tsx bench/retrieval/build-faq.ts --mirrors DIR && npx biome format --write bench/retrieval/faq
//
// where DIR/<owner>+<name>/repo is a bare clone of each repository in SOURCES. See README.md ("FAQ").
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { argOf } from '../args.ts';
import type { CorpusDoc, CorpusFile } from './build-corpus.ts';
import { cut, gitIn, slugPart as slugOf, unlink } from './mirror-text.ts';

/** What an entry is stored as: a FAQ entry an answered question, a troubleshooting entry a backlog item whose notes hold the fix. */
export type FaqKind = 'question' | 'backlog';

export interface FaqFile extends CorpusFile {
  kind: FaqKind;
}

interface Source {
  repo: string;
  /** the id prefix and file name */
  short: string;
  licence: string;
  path: string;
  kind: FaqKind;
  /** what the page is, in the entry's context line */
  page: string;
}

const SOURCES: Source[] = [
  { repo: 'golang/website', short: 'go-faq', licence: 'CC-BY-4.0 (text), BSD-3-Clause (code)', path: '_content/doc/faq.md', kind: 'question', page: 'Go FAQ' },
  { repo: 'Homebrew/brew', short: 'brew-faq', licence: 'BSD-2-Clause', path: 'docs/FAQ.md', kind: 'question', page: 'Homebrew FAQ' },
  { repo: 'rust-lang/cargo', short: 'cargo-faq', licence: 'MIT OR Apache-2.0', path: 'doc/book/src/faq.md', kind: 'question', page: 'Cargo FAQ' },
  { repo: 'pnpm/pnpm.io', short: 'pnpm-faq', licence: 'MIT', path: 'docs/faq.md', kind: 'question', page: 'pnpm FAQ' },
  {
    repo: 'Homebrew/brew',
    short: 'brew-issues',
    licence: 'BSD-2-Clause',
    path: 'docs/Common-Issues.md',
    kind: 'backlog',
    page: 'Homebrew common issues',
  },
  { repo: 'vitejs/vite', short: 'vite-troubleshooting', licence: 'MIT', path: 'docs/guide/troubleshooting.md', kind: 'backlog', page: 'Vite troubleshooting' },
  { repo: 'jestjs/jest', short: 'jest-troubleshooting', licence: 'MIT', path: 'docs/Troubleshooting.md', kind: 'backlog', page: 'Jest troubleshooting' },
  { repo: 'python/mypy', short: 'mypy-common-issues', licence: 'MIT', path: 'docs/source/common_issues.rst', kind: 'backlog', page: 'mypy common issues' },
];

/** An entry's text is cut here, at a line end where one is near. */
const BODY_MAX = 4000;
/** A heading with less text than this under it (a section's name over its entries) is no entry. */
const BODY_MIN = 40;

const git = gitIn;
const slugPart = (s: string) => slugOf(s, 44, 'entry');

/** Markup a person pasting the text would not keep: link targets, images, HTML tags and comments, template lines, heading anchors, admonition fences, rst roles and labels. */
function plain(text: string, rst = false): string {
  const marked = rst ? text.replace(/:[a-z]+:`~?([^`<]+?)(?:\s*<[^>]*>)?`/g, '`$1`').replace(/``([^`]+)``/g, '`$1`') : text;
  return unlink(marked.replace(/<!--[\s\S]*?-->/g, '').replace(/!\[[^\]]*\]\([^)]*\)/g, ''))
    .replace(/^\[[^\]]+\]:\s*\S+.*$/gm, '')
    .replace(/<\/?(?:a|abbr|b|br|code|details|div|em|figure|h[1-6]|i|iframe|img|kbd|li|ol|p|pre|span|strong|sub|summary|sup|table|td|th|tr|ul)\b[^>]*>/gi, '')
    .replace(/^\s*\{\{.*\}\}\s*$/gm, '')
    .replace(/^:::.*$/gm, '')
    .replace(/^\.\. _[^:]+:\s*$/gm, '')
    .replace(/^\.\. (code-block|note|warning|tip|code)::.*$/gm, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const headingText = (s: string, rst = false) => plain(s.replace(/\s*\{#[^}]*\}\s*$/, ''), rst).trim();

interface Section {
  heading: string;
  /** the headings above it, outermost first */
  parents: string[];
  lines: string[];
}

/** A Markdown page cut at its `##`–`####` headings (none inside a code fence). */
function markdownSections(md: string): Section[] {
  const out: Section[] = [];
  const stack: string[] = [];
  let fence = false;
  let cur: Section | null = null;
  for (const line of md.replace(/^---\n[\s\S]*?\n---\n/, '').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    const h = fence ? null : /^(#{2,4})\s+(.*)$/.exec(line);
    if (!h) {
      cur?.lines.push(line);
      continue;
    }
    const level = h[1]!.length - 2;
    stack.length = level;
    cur = { heading: headingText(h[2]!), parents: stack.slice(), lines: [] };
    stack[level] = cur.heading;
    out.push(cur);
  }
  return out;
}

/** An reStructuredText page cut at its headings (a line underlined by `-`, `*`, `=` or `~` as long as it). */
function rstSections(rst: string): Section[] {
  const out: Section[] = [];
  const lines = rst.split('\n');
  let cur: Section | null = null;
  const levels: string[] = [];
  const stack: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const under = lines[i + 1] ?? '';
    const m = /^([-*=~^])\1+$/.exec(under);
    if (line.trim() && m && under.length >= line.trim().length && !/^\s/.test(line)) {
      let level = levels.indexOf(m[1]!);
      if (level < 0) level = levels.push(m[1]!) - 1;
      stack.length = level;
      cur = { heading: headingText(line.trim(), true), parents: stack.slice(), lines: [] };
      stack[level] = cur.heading;
      out.push(cur);
      i++;
      continue;
    }
    cur?.lines.push(line);
  }
  return out;
}

/** One entry per section with text under it: its heading the title, its text the body, the page and the headings above it its context. */
function entries(src: Source, text: string): CorpusDoc[] {
  const sections = src.path.endsWith('.rst') ? rstSections(text) : markdownSections(text);
  const seen = new Set<string>();
  const docs: CorpusDoc[] = [];
  for (const s of sections) {
    const body = cut(plain(s.lines.join('\n'), src.path.endsWith('.rst')), BODY_MAX);
    if (body.length < BODY_MIN) continue;
    let id = `${src.short}/${slugPart(s.heading)}`;
    for (let n = 2; seen.has(id); n++) id = `${src.short}/${slugPart(s.heading)}-${n}`;
    seen.add(id);
    const where = [src.page, ...s.parents.filter(Boolean)].join(', ');
    docs.push({ id, path: `${src.path}#${slugPart(s.heading)}`, title: s.heading, decision: body, reasoning: where });
  }
  return docs;
}

const argv = process.argv.slice(2);
const mirrors = argOf(argv, 'mirrors', '/work/.mirror');
const out = argOf(argv, 'out', join(import.meta.dirname, 'faq'));
mkdirSync(out, { recursive: true });
for (const src of SOURCES) {
  const dir = join(mirrors, src.repo.replace('/', '+'), 'repo');
  const commit = git(dir, ['rev-parse', 'HEAD']).trim();
  const docs = entries(src, git(dir, ['show', `${commit}:${src.path}`]));
  const file: FaqFile = { repo: src.repo, commit, licence: src.licence, kind: src.kind, docs };
  writeFileSync(join(out, `${src.short}.json`), `${JSON.stringify(file, null, 1)}\n`);
  process.stderr.write(`${src.short}.json: ${docs.length} ${src.kind === 'question' ? 'questions' : 'backlog items'}\n`);
}
