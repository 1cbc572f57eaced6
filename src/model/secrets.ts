import { AxmeError } from './errors.ts';
import { scanView } from './invisible.ts';

interface SecretPattern {
  name: string;
  what: string;
  re: RegExp;
  /** extra check on the match, e.g. "the value is a literal, not a placeholder" */
  accept?: (m: RegExpExecArray) => boolean;
  /** text every match holds: a text without it is not searched with `re` (most texts hold none) */
  hint: RegExp;
}

// A value that names a secret instead of containing one: $VAR, ${VAR}, <token>, {{x}}, ***, xxx, process.env.X ...
const PLACEHOLDER = /^(?:\$\{?[A-Za-z_][\w.]*\}?|<[^>]*>|\{\{[^}]*\}\}|%[A-Za-z_]+%|\*+|x{3,}|\.{3,}|(?:process\.env|os\.environ|env)\b.*|true|false|null|none|undefined|changeme|redacted|required|optional|example|your[-_\w]*)$/i;

const PATTERNS: SecretPattern[] = [
  { hint: /PRIVATE KEY/, name: 'private-key', what: 'a private key block', re: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/ },
  { hint: /A(?:KIA|SIA|BIA|CCA)/, name: 'aws-access-key-id', what: 'an AWS access key ID', re: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/ },
  {
    name: 'aws-secret-access-key',
    hint: /aws_?secret/i,
    what: 'an AWS secret access key',
    re: /\baws_?secret_?access_?key\b["']?\s*[:=]\s*["']?([A-Za-z0-9/+=]{40})\b/i,
  },
  { hint: /gh[pousr]_|github_pat_/, name: 'github-token', what: 'a GitHub token', re: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b/ },
  { hint: /npm_/, name: 'npm-token', what: 'an npm token', re: /\bnpm_[A-Za-z0-9]{36}\b/ },
  { hint: /xox/, name: 'slack-token', what: 'a Slack token', re: /\bxox[abposr]-[A-Za-z0-9-]{10,}/ },
  { hint: /hooks\.slack\.com/, name: 'slack-webhook', what: 'a Slack webhook URL', re: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]{20,}/ },
  {
    name: 'password-assignment',
    hint: /pass|pwd|secret|api[_-]?key|token/i,
    what: 'a password or secret assigned a literal value',
    // the name may sit inside an identifier: DB_PASSWORD, SECRET_KEY, MY_API_KEY, GITHUB_SECRET
    re: /(?<![A-Za-z0-9])(?:[A-Za-z0-9]+[_-])*(?:password|passwd|pwd|passphrase|secret|api[_-]?key|access[_-]?token|auth[_-]?token)(?:[_-][A-Za-z0-9]+)*["']?\s*[:=]\s*(["']?)([^\s"',;]{6,})\1/i,
    accept: (m) => !PLACEHOLDER.test(m[2] ?? ''),
  },
  {
    name: 'url-credentials',
    hint: /:\/\//,
    what: 'a URL with a password in it',
    re: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]*:([^\s:/@]{3,})@[^\s/]+/i,
    accept: (m) => !PLACEHOLDER.test(m[1] ?? ''),
  },
];

export interface SecretFinding {
  pattern: string;
  what: string;
  field: string;
  /** offset of the match inside the field */
  index: number;
}

/** Each pattern's global form, built once (reset `lastIndex` before each search: the functions here are synchronous). */
const GLOBAL = new Map(PATTERNS.map((p) => [p, new RegExp(p.re.source, p.re.flags.includes('g') ? p.re.flags : `${p.re.flags}g`)]));

/** The pattern's global regular expression, ready to search from the start; null when `text` cannot hold a match. */
function globalRe(p: SecretPattern, text: string): RegExp | null {
  if (!p.hint.test(text)) return null;
  const re = GLOBAL.get(p)!;
  re.lastIndex = 0;
  return re;
}

/**
 * First credential-looking match in `text`, or null. The text is read through `scanView`
 * (invisible characters removed, NFKC), so a token split by a zero-width space or written in
 * fullwidth letters is found; `index` is the offset in `text` itself.
 */
export function findSecret(field: string, text: string): SecretFinding | null {
  const view = scanView(text);
  for (const p of PATTERNS) {
    const re = globalRe(p, view.text);
    if (!re) continue;
    for (let m = re.exec(view.text); m; m = re.exec(view.text)) {
      if (!p.accept || p.accept(m)) return { pattern: p.name, what: p.what, field, index: view.original(m.index) };
    }
  }
  return null;
}

/**
 * Refuses content that looks like a credential: the error names the field and the pattern,
 * and how to override for a deliberate case.
 */
export function assertNoSecrets(fields: Record<string, unknown>, allowSecret: boolean): void {
  if (allowSecret) return;
  for (const [field, value] of Object.entries(fields)) {
    const texts = typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v) => typeof v === 'string') : [];
    for (const text of texts) {
      const f = findSecret(field, text);
      if (f) {
        throw new AxmeError(
          'SECRET_DETECTED',
          `${field} looks like it contains ${f.what} (pattern ${f.pattern}): knowledge is committed to git and shared with everyone who fetches it. Remove the credential and refer to where it is kept (a vault, an environment variable); if this is deliberate (an example, a revoked key), pass --allow-secret (MCP: allow_secret: true).`,
          { field, pattern: f.pattern },
        );
      }
    }
  }
}

/**
 * `text` with every credential-looking match replaced by `[redacted: <what>]`: for text axme
 * gathers itself (a recovered session's prompts), where refusing would lose the whole handoff.
 * Matches are found like `findSecret` finds them; the invisible characters inside one go with it.
 */
export function redactSecrets(text: string): string {
  let out = text;
  let view = scanView(out);
  // pattern by pattern, each on the text the previous ones redacted
  for (const p of PATTERNS) {
    const re = globalRe(p, view.text);
    if (!re) continue;
    const spans: Array<[number, number]> = [];
    for (let m = re.exec(view.text); m; m = re.exec(view.text)) {
      if (m[0] === '') re.lastIndex++;
      else if (!p.accept || p.accept(m)) spans.push([view.original(m.index), view.original(m.index + m[0].length)]);
    }
    if (!spans.length) continue;
    // from the end, so earlier offsets stay right
    for (const [start, end] of spans.reverse()) out = `${out.slice(0, start)}[redacted: ${p.what}]${out.slice(end)}`;
    view = scanView(out);
  }
  return out;
}
