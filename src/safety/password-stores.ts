import type { ToolCredential } from './tool-credentials.ts';

/**
 * More password managers' commands that print a stored secret (docs/safety.md, "Credentials and
 * the hosts they belong to"), joined to credentials.ts' table beside `pass show`, `op read` and
 * `bw get`: LastPass's `lpass show` and `lpass export`, KeePassXC's `keepassxc-cli show` (of a
 * protected attribute: `-s`, `--show-protected`, `-a Password`), `export` and `attachment-export`,
 * rbw's `get` and `code`, KWallet's `kwallet-query -r`. Their listings (`lpass ls`, `keepassxc-cli
 * ls`, `rbw list`, `kwallet-query -l`) print names only. passage (pass kept with age) `show`s as
 * pass does; credstash's `get` and `getall`, vals' `eval` and `get` (the references of a file
 * resolved to their secrets). And two shapes any CLI shares, whatever its name: a secret read by
 * its verb (`bws secret get`, `ksm secret get`, `scw secret version access`, `phase secrets
 * export`: `secret`/`secrets`, a `version` maybe, then get, access, show, reveal, export, read,
 * value, download or print), and a file or value decrypted to the output (`ejson decrypt`,
 * `dotenv-vault decrypt`, `systemd-creds decrypt`: a first verb `decrypt`).
 */

const operands = (a: readonly string[]) => a.filter((x) => !x.startsWith('-'));

/** `keepassxc-cli show` of a protected attribute, or the whole database exported. */
const keepassxcPrints = (a: readonly string[]) => {
  const [v] = operands(a);
  if (v === 'export' || v === 'attachment-export') return `keepassxc-cli ${v}`;
  if (v !== 'show') return null;
  const attribute = a.flatMap((x, i) => (x === '-a' || x === '--attributes' ? [a[i + 1] ?? ''] : x.startsWith('--attributes=') ? [x.slice(13)] : []));
  return a.includes('-s') || a.includes('--show-protected') || attribute.some((x) => /^password$/i.test(x)) ? 'keepassxc-cli show' : null;
};

/** The verbs that print a secret's value after `secret`/`secrets` (and a `version`). */
const SECRET_READ = /^(get|access|show|reveal|export|read|value|download|print|cat)$/;

/** Any CLI's secret read by its verb (`bws secret get`, `scw secret version access`), or its first verb `decrypt` (`ejson decrypt`). */
const secretReadPrinted = (a: readonly string[], program: string) => {
  const ops = operands(a);
  if (ops[0] === 'decrypt') return `${program} decrypt`;
  const i = ops.findIndex((x, k) => k < 2 && (x === 'secret' || x === 'secrets'));
  if (i < 0) return null;
  const j = /^versions?$/.test(ops[i + 1] ?? '') ? i + 2 : i + 1;
  return SECRET_READ.test(ops[j] ?? '') ? `${program} ${ops.slice(i, j + 1).join(' ')}` : null;
};

export const PASSWORD_STORES: readonly ToolCredential[] = [
  {
    what: 'a secret from a password manager',
    printers: [
      { program: 'lpass', prints: (a) => (operands(a)[0] === 'show' || operands(a)[0] === 'export' ? `lpass ${operands(a)[0]}` : null) },
      { program: 'keepassxc-cli', prints: keepassxcPrints },
      { program: 'rbw', prints: (a) => (operands(a)[0] === 'get' || operands(a)[0] === 'code' ? `rbw ${operands(a)[0]}` : null) },
      { program: 'kwallet-query', prints: (a) => (a.some((x) => x === '-r' || x === '--read-password') ? 'kwallet-query -r' : null) },
      { program: 'passage', prints: (a) => (/^(show|otp)$/.test(operands(a)[0] ?? '') ? `passage ${operands(a)[0]}` : null) },
      { program: 'credstash', prints: (a) => (/^(get|getall)$/.test(operands(a)[0] ?? '') ? `credstash ${operands(a)[0]}` : null) },
      { program: 'vals', prints: (a) => (/^(eval|get|env)$/.test(operands(a)[0] ?? '') ? `vals ${operands(a)[0]}` : null) },
      { program: '*', prints: secretReadPrinted },
    ],
    hosts: [],
  },
];
