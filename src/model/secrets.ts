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
const PLACEHOLDER =
  /^(?:\$\{?[A-Za-z_][\w.]*\}?|<[^>]*>|\{\{[^}]*\}\}|%[A-Za-z_]+%|\*+|x{3,}|\.{3,}|(?:process\.env|os\.environ|env)\b.*|true|false|null|none|undefined|changeme|redacted|required|optional|example|your[-_\w]*)$/i;

/** A provider's token: its fixed prefix (the hint) and the shape of the rest. */
const token = (name: string, what: string, hint: RegExp, re: RegExp): SecretPattern => ({ name, what, hint, re });

/**
 * The credential patterns, one table for the store's check (a write refuses them) and for
 * redaction (the auditor's transcript, a recovered session's prompts). Providers' token formats
 * with a fixed prefix first (precise: no false alarm on prose), then the shapes that need context
 * (a key=value assignment, a URL's password, an Authorization header). A private key is redacted
 * whole, from its BEGIN line to its END line (or to where the base64 body stops).
 */
const PATTERNS: SecretPattern[] = [
  {
    hint: /PRIVATE KEY/,
    name: 'private-key',
    what: 'a private key block',
    re: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]{0,16384}?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s:,-]{0,16384})/,
  },
  token('axme-token', 'an axme server token', /axme_/, /\baxme_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/),
  token('aws-access-key-id', 'an AWS access key ID', /A(?:KIA|SIA|BIA|CCA)/, /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/),
  {
    name: 'aws-secret-access-key',
    hint: /aws_?secret/i,
    what: 'an AWS secret access key',
    re: /\baws_?secret_?access_?key\b["']?\s*[:=]\s*["']?([A-Za-z0-9/+=]{40})\b/i,
  },
  token('github-token', 'a GitHub token', /gh[pousr]_|github_pat_/, /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b/),
  token('gitlab-token', 'a GitLab token', /gl(?:pat|dt|rt|ptt|cbt)-/, /\bgl(?:pat|dt|rt|ptt|cbt)-[A-Za-z0-9_-]{20,}/),
  token('npm-token', 'an npm token', /npm_/, /\bnpm_[A-Za-z0-9]{36}\b/),
  token('pypi-token', 'a PyPI token', /pypi-/, /\bpypi-AgE[A-Za-z0-9_-]{50,}/),
  token('anthropic-key', 'an Anthropic API key', /sk-ant-/, /\bsk-ant-[a-z]{2,10}\d{0,3}-[A-Za-z0-9_-]{20,}/),
  token(
    'openai-key',
    'an OpenAI API key',
    /sk-/,
    /\bsk-(?:(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,}|[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}|[A-Za-z0-9]{48})(?![A-Za-z0-9_-])/,
  ),
  token('stripe-key', 'a Stripe secret key', /[sr]k_(?:live|test)_/, /\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}/),
  token('google-api-key', 'a Google API key', /AIza/, /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/),
  token('google-oauth-secret', 'a Google OAuth client secret', /GOCSPX-/, /\bGOCSPX-[A-Za-z0-9_-]{28}/),
  token('huggingface-token', 'a Hugging Face token', /hf_/, /\bhf_[A-Za-z0-9]{34,}\b/),
  token('digitalocean-token', 'a DigitalOcean token', /do[por]_v1_/, /\bdo[por]_v1_[a-f0-9]{64}\b/),
  token('sendgrid-key', 'a SendGrid API key', /SG\./, /\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b/),
  token('twilio-key', 'a Twilio API key', /SK[0-9a-f]/i, /\bSK[0-9a-fA-F]{32}\b/),
  token('telegram-bot-token', 'a Telegram bot token', /:AA/, /\b\d{8,10}:AA[A-Za-z0-9_-]{33}\b/),
  token('azure-storage-key', 'an Azure storage account key', /AccountKey=/, /AccountKey=[A-Za-z0-9+/]{86}==/),
  token('slack-token', 'a Slack token', /xox/, /\bxox[abposr]-[A-Za-z0-9-]{10,}/),
  token('slack-webhook', 'a Slack webhook URL', /hooks\.slack\.com/, /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]{20,}/),
  token('jwt', 'a JSON Web Token', /eyJ/, /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/),
  {
    name: 'authorization-header',
    hint: /bearer|authorization/i,
    what: 'a credential in an Authorization header',
    re: /(?:\bauthorization\s*[:=]\s*["']?\s*(?:bearer|basic|token)|\bbearer)\s+([A-Za-z0-9._~+/=-]{20,})/i,
    accept: (m) => !PLACEHOLDER.test(m[1] ?? '') && /\d/.test(m[1] ?? '') && /[A-Za-z]/.test(m[1] ?? ''),
  },
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
 * Every credential-looking match in `text`, in the order they stand in it: one per credential.
 * Where two patterns match overlapping text (a token inside a `key = value` assignment), the one
 * earlier in the table names it, as `findSecret` would. Read through `scanView` like `findSecret`.
 */
export function findSecrets(field: string, text: string): SecretFinding[] {
  const view = scanView(text);
  const spans: Array<{ start: number; end: number; finding: SecretFinding }> = [];
  for (const p of PATTERNS) {
    const re = globalRe(p, view.text);
    if (!re) continue;
    for (let m = re.exec(view.text); m; m = re.exec(view.text)) {
      if (m[0] === '') re.lastIndex++;
      if (p.accept && !p.accept(m)) continue;
      const start = m.index;
      const end = m.index + m[0].length;
      if (spans.some((s) => start < s.end && s.start < end)) continue;
      spans.push({ start, end, finding: { pattern: p.name, what: p.what, field, index: view.original(start) } });
    }
  }
  return spans.sort((a, b) => a.start - b.start).map((s) => s.finding);
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
          `${field} looks like it contains ${f.what} (pattern ${f.pattern}): knowledge is committed to git and shared with everyone who fetches it. Remove the credential and refer to where it is kept (a vault, an environment variable); if this is deliberate (an example, a revoked key), pass --allow-secret.`,
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
