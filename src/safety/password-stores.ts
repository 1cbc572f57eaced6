import type { ToolCredential } from './tool-credentials.ts';

/**
 * More password managers' commands that print a stored secret (docs/safety.md, "Credentials and
 * the hosts they belong to"), joined to credentials.ts' table beside `pass show`, `op read` and
 * `bw get`: LastPass's `lpass show` and `lpass export`, KeePassXC's `keepassxc-cli show` (of a
 * protected attribute: `-s`, `--show-protected`, `-a Password`), `export` and `attachment-export`,
 * rbw's `get` and `code`, KWallet's `kwallet-query -r`. Their listings (`lpass ls`, `keepassxc-cli
 * ls`, `rbw list`, `kwallet-query -l`) print names only.
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

export const PASSWORD_STORES: readonly ToolCredential[] = [
  {
    what: 'a secret from a password manager',
    printers: [
      { program: 'lpass', prints: (a) => (operands(a)[0] === 'show' || operands(a)[0] === 'export' ? `lpass ${operands(a)[0]}` : null) },
      { program: 'keepassxc-cli', prints: keepassxcPrints },
      { program: 'rbw', prints: (a) => (operands(a)[0] === 'get' || operands(a)[0] === 'code' ? `rbw ${operands(a)[0]}` : null) },
      { program: 'kwallet-query', prints: (a) => (a.some((x) => x === '-r' || x === '--read-password') ? 'kwallet-query -r' : null) },
    ],
    hosts: [],
  },
];
