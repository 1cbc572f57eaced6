// The second retrieval corpus: real text that is not ADRs, read on this machine, never vendored
// (git's manual is GPL-2.0): git's man pages (`man` of the pages below, one item per section and
// per option) and the README of packages in node_modules (one item per heading). Queries over it
// are in docs-queries.json, written before any ranking was run on it and kept as written.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CorpusDoc, CorpusFile } from './build-corpus.ts';

/** The man pages read (section 1 unless said), as `man` names them. */
const GIT_PAGES = [
  'git-commit',
  'git-rebase',
  'git-stash',
  'git-bisect',
  'git-cherry-pick',
  'git-worktree',
  'git-reflog',
  'git-clean',
  'git-fsck',
  'git-reset',
  'git-revert',
  'git-push',
  'git-gc',
  'git-restore',
  'git-switch',
  'git-tag',
  'git-blame',
  'githooks',
  'gitignore',
];

/** The packages whose README is read, in node_modules. */
const PACKAGES = ['debug', 'semver', 'body-parser', 'cors', 'js-yaml', 'picomatch', 'qs', 'diff', 'chalk', 'cookie', 'ignore', 'gray-matter'];

/** Section bodies longer than this are cut (a few KB, as the ADR corpus's records). */
const BODY_MAX = 4000;

const slugPart = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40) || 'section';

/** One man page as plain text (MANWIDTH 80, overstrikes removed), or null when `man` cannot show it. */
function manText(page: string): string | null {
  try {
    const raw = execFileSync('man', ['-P', 'cat', page], {
      env: { ...process.env, MANWIDTH: '80', MAN_KEEP_FORMATTING: '0' },
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 1 << 24,
    }).toString();
    return raw.replace(/.\x08/g, '');
  } catch {
    return null;
  }
}

/**
 * A man page's items: one per top-level section (NAME and SYNOPSIS left out: NAME becomes each
 * title), and in OPTIONS one per option (the lines starting at 7 spaces then `-`, with the
 * indented text under them).
 */
function manDocs(page: string, text: string, prefix = 'git'): CorpusDoc[] {
  const lines = text.split('\n');
  const name = /^\s+(\S.*)$/.exec(lines[lines.findIndex((l) => l.trim() === 'NAME') + 1] ?? '')?.[1]?.trim() ?? page;
  const sections: Array<{ head: string; lines: string[] }> = [];
  for (const l of lines) {
    if (/^[A-Z][A-Z0-9 ,'-]+$/.test(l.trim()) && !/^\s/.test(l)) sections.push({ head: l.trim(), lines: [] });
    else sections.at(-1)?.lines.push(l);
  }
  const docs: CorpusDoc[] = [];
  const seen = new Set<string>();
  const add = (part: string, title: string, body: string) => {
    const b = body.replace(/\n{3,}/g, '\n\n').trim();
    if (b.length < 40) return;
    let id = `${prefix}/${page}/${slugPart(part)}`;
    for (let n = 2; seen.has(id); n++) id = `${prefix}/${page}/${slugPart(part)}-${n}`;
    seen.add(id);
    docs.push({ id, path: `man:${page}`, title: title.slice(0, 150), decision: b.slice(0, BODY_MAX), reasoning: '' });
  };
  for (const s of sections) {
    if (['NAME', 'SYNOPSIS', 'GIT', 'SEE ALSO', 'NOTES', 'AUTHOR', 'AUTHORS', 'COPYRIGHT', 'REPORTING BUGS'].includes(s.head)) continue;
    if (s.head !== 'OPTIONS') {
      add(s.head, `${name}: ${s.head.toLowerCase()}`, s.lines.join('\n'));
      continue;
    }
    let head: string | null = null;
    let body: string[] = [];
    const flush = () => head && add(`option ${head.split(',')[0]!.replace(/[[<=].*$/, '')}`, `${page.replace(/^git-/, 'git ')} ${head}`, body.join('\n'));
    for (const l of s.lines) {
      if (/^ {7}-/.test(l)) {
        if (body.some((x) => x.trim())) {
          flush();
          head = l.trim();
          body = [];
        } else head = head ? `${head}, ${l.trim()}` : l.trim();
      } else body.push(l);
    }
    flush();
  }
  return docs;
}

/** A README's items: one per heading (`#` to `####`), titled `<package>: <heading>`; code blocks kept. */
function readmeDocs(pkg: string, text: string): CorpusDoc[] {
  const docs: CorpusDoc[] = [];
  let head: string | null = null;
  let body: string[] = [];
  let fenced = false;
  const seen = new Set<string>();
  const flush = () => {
    const b = body
      .join('\n')
      .replace(/<[^>]+>/g, '')
      .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
      .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
      .replace(/\n{3,}/g, '\n\n')
      .trim();
    if (head === null || b.length < 60) return;
    let id = `npm/${pkg}/${slugPart(head)}`;
    for (let n = 2; seen.has(id); n++) id = `npm/${pkg}/${slugPart(head)}-${n}`;
    seen.add(id);
    docs.push({ id, path: `node_modules/${pkg}/README.md`, title: `${pkg}: ${head}`.slice(0, 150), decision: b.slice(0, BODY_MAX), reasoning: '' });
  };
  for (const l of text.split('\n')) {
    if (/^\s*```/.test(l)) fenced = !fenced;
    const m = fenced ? null : /^#{1,4}\s+(.+?)\s*#*$/.exec(l);
    if (m) {
      flush();
      head = m[1]!.replace(/[`*]/g, '');
      body = [];
    } else body.push(l);
  }
  flush();
  return docs;
}

/** What a docs corpus reads: man pages (section 1 unless said) and the READMEs of packages in node_modules; `prefix` starts the man pages' ids. */
export interface DocsSources {
  pages: readonly string[];
  packages: readonly string[];
  prefix: string;
  /** what the man pages are, as the corpus file names them */
  label: string;
}

/** The second corpus: git's man pages and 12 package READMEs (its queries: docs-queries.json). */
export const DOCS_SOURCES: DocsSources = { pages: GIT_PAGES, packages: PACKAGES, prefix: 'git', label: 'git (man pages)' };

/** The held-out corpus: other man pages and READMEs, its queries (heldout-queries.json) written before any engine ran on it. */
export const HELDOUT_SOURCES: DocsSources = {
  pages: ['tar', 'grep', 'git-branch', 'git-merge', 'git-fetch'],
  packages: ['commander', 'minimist', 'ms', 'json5', 'prompts', 'ini', 'which', 'cross-spawn'],
  prefix: 'man',
  label: 'man pages',
};

/**
 * The fresh corpus: text none of the three others reads — the man pages of curl, find, xargs, gzip,
 * ssh and chmod, and the READMEs of glob, lru-cache, express, yargs-parser, send, path-to-regexp,
 * minipass and raw-body. Its queries (fresh-queries.json) were committed before any engine ran on it.
 */
export const FRESH_SOURCES: DocsSources = {
  pages: ['curl', 'find', 'xargs', 'gzip', 'ssh', 'chmod'],
  packages: ['glob', 'lru-cache', 'express', 'yargs-parser', 'send', 'path-to-regexp', 'minipass', 'raw-body'],
  prefix: 'man',
  label: 'man pages',
};

/** The corpus as CorpusFiles (one for the man pages, one per package), from what this machine has; `missing` names what it lacks. */
export function loadDocsCorpus(root = join(import.meta.dirname, '../..'), sources: DocsSources = DOCS_SOURCES): { files: CorpusFile[]; missing: string[] } {
  const files: CorpusFile[] = [];
  const missing: string[] = [];
  const man: CorpusDoc[] = [];
  for (const page of sources.pages) {
    const text = manText(page);
    if (text) man.push(...manDocs(page, text, sources.prefix));
    else missing.push(`man ${page}`);
  }
  if (man.length)
    files.push({
      repo: sources.label,
      commit: execFileSync('git', ['--version']).toString().trim(),
      licence: 'as installed (read locally, not vendored)',
      docs: man,
    });
  for (const pkg of sources.packages) {
    const dir = join(root, 'node_modules', pkg);
    const readme = ['README.md', 'readme.md', 'Readme.md'].map((f) => join(dir, f)).find(existsSync);
    if (!readme) {
      missing.push(`node_modules/${pkg}/README.md`);
      continue;
    }
    const meta = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string; license?: string };
    files.push({ repo: `npm:${pkg}`, commit: meta.version, licence: meta.license ?? 'see the package', docs: readmeDocs(pkg, readFileSync(readme, 'utf8')) });
  }
  return { files, missing };
}
