// Builds bench/retrieval/corpus/*.json from public architecture decision records (see README.md
// for the sources and their licences). Needs bare clones of the source repositories:
//
//   node --import tsx bench/retrieval/build-corpus.ts --mirrors DIR
//
// where DIR/<owner>+<name>/repo is a bare clone (`git clone --bare https://github.com/<owner>/<name> DIR/<owner>+<name>/repo`).
// Each record is trimmed: front matter, code blocks, links' targets, images, HTML and status/date
// lines are dropped; the "Decision"/"Outcome" sections become the decision, the rest the reasoning.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { argOf } from '../lib.ts';

export interface CorpusDoc {
  /** `<short repo>/<file stem>`: what queries.json names */
  id: string;
  path: string;
  title: string;
  decision: string;
  reasoning: string;
}

export interface CorpusFile {
  repo: string;
  commit: string;
  licence: string;
  docs: CorpusDoc[];
}

interface Source {
  repo: string;
  short: string;
  licence: string;
  /** which files are records */
  include: RegExp;
}

const SOURCES: Source[] = [
  { repo: 'alphagov/govuk-aws', short: 'govuk-aws', licence: 'MIT', include: /^docs\/architecture\/decisions\/\d+-.*\.md$/ },
  { repo: 'alphagov/govuk-infrastructure', short: 'govuk-infra', licence: 'MIT', include: /^docs\/architecture\/decisions\/\d+-.*\.md$/ },
  { repo: 'alphagov/forms', short: 'govuk-forms', licence: 'MIT', include: /^ADR\/ADR\d+-.*\.md$/ },
  { repo: 'adr/madr', short: 'madr', licence: 'MIT OR CC0-1.0', include: /^docs\/decisions\/\d+-.*\.md$/ },
  { repo: 'arachne-framework/architecture', short: 'arachne', licence: 'Apache-2.0', include: /^adr-\d+-.*\.md$/ },
  { repo: 'thomvaill/log4brains', short: 'log4brains', licence: 'Apache-2.0', include: /^(docs|packages\/core\/docs|packages\/web\/docs)\/adr\/\d{8}-.*\.md$/ },
];

/** Records every ADR folder starts with: nearly the same text in each repository, so left out. */
const SKIP = /record-architecture-decisions|template/i;

const git = (dir: string, args: string[]) => execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const at = text.lastIndexOf('\n', max);
  const end = at > max * 0.6 ? at : text.lastIndexOf('. ', max) + 1 || max;
  return text.slice(0, end).trim();
}

/** Markdown to plain-ish text: what a person would paste into a decision. */
function clean(md: string): string {
  return md
    .replace(/^---\n[\s\S]*?\n---\n/, '')
    .replace(/```[\s\S]*?```/g, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1')
    .replace(/^\[[^\]]+\]:\s*\S+.*$/gm, '')
    .replace(/<[^>]+>/g, '')
    .replace(/https?:\/\/\S+/g, '')
    .replace(/^\s*[-*]?\s*\**(status|date|deciders|decision-makers|consulted|informed|technical story|last updated)\**\s*:.*$/gim, '')
    .replace(/[*_`]{1,2}([^*_`\n]+)[*_`]{1,2}/g, '$1')
    .replace(/\n{3,}/g, '\n\n');
}

function titleOf(text: string, file: string): string {
  const h =
    /^#\s+(.+)$/m.exec(text)?.[1] ??
    basename(file, '.md')
      .replace(/^[\dA-Z]+-/, '')
      .replace(/-/g, ' ');
  return h
    .replace(/^(architecture decision record|adr)\s*[-\d]*\s*[:.-]?\s*/i, '')
    .replace(/^\d+\.\s*/, '')
    .replace(/[*_`]/g, '')
    .trim();
}

function docOf(short: string, path: string, md: string): CorpusDoc {
  const text = clean(md);
  const title = titleOf(text, path);
  const decision: string[] = [];
  const reasoning: string[] = [];
  let into = reasoning;
  // a section goes to the decision when its heading says so; its subsections follow it
  let level = 0;
  for (const block of text.replace(/^#\s+.+$/m, '').split(/^(?=#{2,6}\s)/m)) {
    const m = /^(#{2,6})\s+(.+)$/m.exec(block);
    const heading = m?.[2]?.trim() ?? '';
    if (m && (level === 0 || m[1]!.length <= level)) {
      if (/^status\b/i.test(heading)) {
        level = m[1]!.length;
        into = [];
        continue;
      }
      level = m[1]!.length;
      into = /^(decision|outcome|chosen|proposal|solution)/i.test(heading) ? decision : reasoning;
    }
    // the section's own heading ("Decision", "Context") says nothing; a subsection's does
    const body = (
      m && m[1]!.length === level && /^(decision|decision outcome|context|context and problem statement|consequences)$/i.test(heading)
        ? block.replace(/^#{2,6}\s+.+$/m, '')
        : block.replace(/^#{2,6}\s+(.+)$/m, '$1')
    ).trim();
    if (body) into.push(body);
  }
  const stem = basename(path, '.md');
  const d = decision.join('\n\n').trim();
  const r = reasoning.join('\n\n').trim();
  return { id: `${short}/${stem}`, path, title, decision: cut(d || r, 1500), reasoning: cut(d ? r : r.slice(cut(r, 1500).length).trim(), 2500) };
}

const mirrors = argOf(process.argv.slice(2), 'mirrors', '/work/.mirror');
const out = argOf(process.argv.slice(2), 'out', join(import.meta.dirname, 'corpus'));
mkdirSync(out, { recursive: true });
let total = 0;
for (const s of SOURCES) {
  const dir = join(mirrors, s.repo.replace('/', '+'), 'repo');
  const commit = git(dir, ['rev-parse', 'HEAD']).trim();
  const paths = git(dir, ['ls-tree', '-r', '--name-only', 'HEAD'])
    .split('\n')
    .filter((p) => s.include.test(p) && !SKIP.test(p));
  const docs = paths.map((p) => docOf(s.short, p, git(dir, ['show', `HEAD:${p}`]))).filter((d) => d.decision.length + d.reasoning.length > 60);
  const file: CorpusFile = { repo: s.repo, commit, licence: s.licence, docs };
  writeFileSync(join(out, `${s.short}.json`), `${JSON.stringify(file, null, 1)}\n`);
  process.stderr.write(`${s.repo}: ${docs.length} records\n`);
  total += docs.length;
}
process.stderr.write(`${total} records in ${out}\n`);
