import { tokenize, words } from './analyze.ts';
import { RELATED_WORDS } from './related-words.ts';

/**
 * Software abbreviations and what they stand for. Each line is one group; a query that says one
 * member also looks for the others (at a lower weight than the words it says).
 */
export const SOFTWARE_SYNONYMS: readonly (readonly string[])[] = [
  ['db', 'database'],
  ['k8s', 'kubernetes'],
  ['auth', 'authentication', 'authn'],
  ['authz', 'authorization'],
  ['pg', 'postgres', 'postgresql'],
  ['mongo', 'mongodb'],
  ['js', 'javascript'],
  ['ts', 'typescript'],
  ['ci', 'continuous integration'],
  ['cd', 'continuous delivery', 'continuous deployment'],
  ['repo', 'repository'],
  ['config', 'configuration'],
  ['env', 'environment'],
  ['infra', 'infrastructure'],
  ['deps', 'dependencies'],
  ['prod', 'production'],
  ['dev', 'development'],
  ['aws', 'amazon web services'],
  ['gcp', 'google cloud platform'],
  ['iac', 'infrastructure as code'],
  ['sso', 'single sign-on'],
  ['idp', 'identity provider'],
  ['tls', 'ssl'],
  ['cert', 'certificate'],
  ['e2e', 'end-to-end'],
  ['ui', 'user interface'],
  ['cli', 'command line interface'],
  ['ddos', 'distributed denial of service'],
  ['vm', 'virtual machine'],
  ['lb', 'load balancer'],
  ['cdn', 'content delivery network'],
  ['ttl', 'time to live'],
  ['es', 'elasticsearch'],
  ['pr', 'pull request'],
  ['mr', 'merge request'],
  ['gh', 'github'],
  ['a11y', 'accessibility'],
  ['i18n', 'internationalization'],
  ['l10n', 'localization'],
  ['mq', 'message queue'],
  ['llm', 'large language model'],
  ['os', 'operating system'],
  ['perf', 'performance'],
  ['dns', 'domain name system'],
  ['pkg', 'package'],
  ['msg', 'message'],
  ['docs', 'documentation'],
  ['img', 'image'],
  ['api', 'application programming interface'],
  ['acl', 'access control list'],
  ['rbac', 'role-based access control'],
  ['orm', 'object relational mapping'],
  ['sdk', 'software development kit'],
  ['ssr', 'server-side rendering'],
  ['ssg', 'static site generation'],
  ['spa', 'single page application'],
  ['toc', 'table of contents'],
  ['faq', 'frequently asked questions'],
];

/** How much a related word (`RELATED_WORDS`) counts next to the word the query says. */
export const RELATED_WEIGHT = 0.5;

let related: SynonymTable | undefined;
/**
 * `RELATED_WORDS` as a table (made on first use), keyed by each member as written
 * (`writtenKey`), not by its stem: a query's word meets a member when it is the member or its
 * plural, -ed or -ing (query.ts, `inflectionBases`), so that "set" does not meet "setting", nor
 * "general" "generate", as their stems would.
 */
export function relatedTable(): SynonymTable {
  return (related ??= synonymTable(RELATED_WORDS, writtenKey));
}

/** A member as a query writes it: its words lowercased, stop words out (`turn on` is `turn`); members are written in American spelling, as the query's words are looked up. */
export function writtenKey(member: string): string {
  return words(member).join(' ');
}

/** Query terms (stems joined by a space, or words as written for `relatedTable`) to the other ways of saying them, each as stems. */
export type SynonymTable = Map<string, string[][]>;

/** The terms of a member joined by a space: the key of `synonymTable` unless it is given another. */
const termsKey = (member: string) => tokenize(member).join(' ');

/** A table from groups of phrases: every member (by `keyOf`) points at every other member's terms. */
export function synonymTable(groups: Iterable<readonly string[]>, keyOf: (member: string) => string = termsKey): SynonymTable {
  const table: SynonymTable = new Map();
  for (const group of groups) {
    const members = group.map((m) => ({ key: keyOf(m), terms: termsKey(m) })).filter((m) => m.key && m.terms);
    for (const m of new Set(members.map((x) => x.key))) {
      const mine = new Set(members.filter((x) => x.key === m).map((x) => x.terms));
      const others = [...new Set(members.map((x) => x.terms))].filter((t) => !mine.has(t)).map((t) => t.split(' '));
      if (others.length) table.set(m, [...(table.get(m) ?? []), ...others]);
    }
  }
  return table;
}

/** At most this many words in a glossary term, and in the meaning kept from it. */
const TERM_WORDS = 4;
const MEANING_WORDS = 6;

/**
 * Synonym groups from the oracle's glossary page: lines `- **term**: meaning`, `- term: meaning`
 * or `term — meaning`. The meaning is cut at its first clause, so that a sentence of explanation
 * does not turn every query for the term into a query for the whole sentence.
 */
export function glossaryGroups(body: string): string[][] {
  const groups: string[][] = [];
  for (const line of body.split('\n')) {
    const m = /^\s*(?:[-*+]\s+)?(?:\*\*|__)?([^*_:\u2014\u2013\n]+?)(?:\*\*|__)?\s*(?::|\u2014|\u2013|\s-\s)\s*(.+)$/.exec(line);
    if (!m) continue;
    const term = m[1]!.trim();
    const meaning = m[2]!
      .split(/[.;,(]/)[0]!
      .trim()
      .split(/\s+/)
      .slice(0, MEANING_WORDS)
      .join(' ');
    if (term && meaning && term.split(/\s+/).length <= TERM_WORDS && !/^#/.test(term)) groups.push([term, meaning]);
  }
  return groups;
}
