import type { Invocation } from './command.ts';
import { type Access, generic, options, type PathUse, use } from './path-access.ts';
import type { Word } from './syntax.ts';

/**
 * The key and certificate tools' paths for path-uses.ts: what openssl, mkcert and ssh-keygen
 * write (the keys and certificates they make: a secret's name may be made, not read; the default
 * key in ~/.ssh; the system trust store) and what they read (a key they open to sign, print or
 * convert); and what the system trust store's own tools write (update-ca-certificates,
 * update-ca-trust, p11-kit's trust, macOS's security).
 */

/**
 * openssl: `-out`, `-keyout` written (a key made, a certificate signed); every other path it
 * names read: `-in key.pem`, `-key`, `-signkey`, `-CAkey` open a key, and may print it.
 */
export function openssl(inv: Invocation): PathUse[] {
  const out: PathUse[] = [];
  const rest: Word[] = [];
  const a = inv.args;
  for (let i = 0; i < a.length; i++) {
    const w = a[i]!;
    if ((w.value === '-out' || w.value === '-keyout') && a[i + 1]) {
      out.push(use(a[i + 1]!, a[i + 1]!.value, 'write'));
      i++;
    } else rest.push(w);
  }
  return [...out, ...generic(inv, rest)];
}

/**
 * Where `mkcert -install` puts its CA and `-uninstall` takes it from: the system trust store
 * (Debian's, Fedora's and Arch's anchors, macOS's keychain). No path on the command line names it.
 */
const SYSTEM_TRUST_STORES = [
  '/usr/local/share/ca-certificates',
  '/etc/pki/ca-trust/source/anchors',
  '/etc/ca-certificates/trust-source/anchors',
  '/Library/Keychains/System.keychain',
];

/**
 * mkcert: `-key-file`, `-cert-file`, `-p12-file` written, `-csr` read; its operands are host
 * names. `-install` and `-uninstall` write the system trust store (SYSTEM_TRUST_STORES).
 */
export function mkcert(inv: Invocation): PathUse[] {
  const out: PathUse[] = [];
  const a = inv.args;
  for (let i = 0; i < a.length; i++) {
    if (/^--?(un)?install$/.test(a[i]!.value)) for (const store of SYSTEM_TRUST_STORES) out.push(use(a[i]!, store, 'into'));
    const [name, inline] = a[i]!.value.split(/=(.*)/s, 2) as [string, string | undefined];
    const access: Access | null = /^--?(key|cert|p12)-file$/.test(name) ? 'write' : /^--?csr$/.test(name) ? 'read' : null;
    if (access === null) continue;
    const word = inline === undefined ? a[++i] : a[i]!;
    if (word) out.push(use(word, inline ?? word.value, access));
  }
  return out;
}

/** ssh-keygen's options that take a value (`-f file`, `-t type`, `-N passphrase`, `-C comment`...). */
const SSH_KEYGEN_VALUED = 'abCDEFfGIJjKmMNnOPrRsStTVwYz';
/** The ssh-keygen operations that make no key (they read, change or list one, or work on known_hosts, moduli, signatures, KRLs). */
const SSH_KEYGEN_OTHER_OPERATIONS = 'yleiBFspcHRAkQrGTMYDLO';

/**
 * ssh-keygen: made keys are written (`-f id_x` and `id_x.pub`; without `-f`,
 * `~/.ssh/id_<type>`, ed25519 when no `-t` says, and `-A` the host keys in `/etc/ssh`); `-y`,
 * `-l`, `-e`, `-i`, `-B`, `-F`, `-s` read the `-f` file (`-y -f id_rsa` prints its public half,
 * `-e` the key itself); `-p`, `-c`, `-H`, `-R` change it in place (`-H`, `-R` without `-f`:
 * `~/.ssh/known_hosts`); `-s CA`, `-D lib` read.
 */
export function sshKeygen(inv: Invocation): PathUse[] {
  const out: PathUse[] = [];
  const files: Array<{ word: Word; value: string }> = [];
  let type: string | null = null;
  const operands = options(inv.args, SSH_KEYGEN_VALUED, new Set(), (name, word, value) => {
    if (name === '-f') files.push({ word, value });
    else if (name === '-t') type = value;
    else if (name === '-s' || name === '-D') out.push(use(word, value, 'read'));
  });
  const flags = new Set(inv.args.filter((w) => /^-[A-Za-z]+$/.test(w.value)).flatMap((w) => [...w.value.slice(1)]));
  const has = (letters: string) => [...letters].some((c) => flags.has(c));
  const self = programWord(inv);
  // `-A` makes the host keys that are missing in /etc/ssh
  if (has('A')) out.push(use(self, '/etc/ssh', 'into'));
  // `ssh-keygen -t ed25519` makes `~/.ssh/id_ed25519`: the default file, written
  else if (!files.length && !has(SSH_KEYGEN_OTHER_OPERATIONS)) {
    const key = `~/.ssh/id_${defaultKeyName(type)}`;
    out.push(use(self, key, 'write'), use(self, `${key}.pub`, 'write'));
  }
  // `ssh-keygen -R host`, `-H`: without `-f` they edit the user's ~/.ssh/known_hosts
  else if (!files.length && has('RH')) out.push(use(self, '~/.ssh/known_hosts', 'edit'));
  for (const f of files) {
    if (has('yleiBFs')) out.push(use(f.word, f.value, 'read'));
    else if (has('pcHR')) out.push(use(f.word, f.value, 'edit'));
    else out.push(use(f.word, f.value, 'write'), use(f.word, `${f.value}.pub`, 'write'));
  }
  // `ssh-keygen -s ca -I id key.pub`: the keys it certifies are read
  return [...out, ...operands.map((w) => use(w, w.value, 'read'))];
}

/** The name ssh-keygen gives a key of `-t type` in ~/.ssh (`id_ed25519`, `id_ecdsa_sk`); ed25519 without `-t`, OpenSSH's default since 9.5. */
function defaultKeyName(type: string | null): string {
  const t = (type ?? '').toLowerCase();
  return /^(rsa|dsa|ecdsa|ed25519|ecdsa-sk|ed25519-sk)$/.test(t) ? t.replace('-', '_') : 'ed25519';
}

/** The word naming the program itself (after any wrapper): what a path no argument names is charged to. */
function programWord(inv: Invocation): Word {
  const words = inv.command.words;
  return words[words.length - inv.args.length - 1] ?? words[0]!;
}

/** Where the trust store's tools write: Debian's, Fedora's and p11-kit's, and macOS's admin keychain. */
const TRUST_WRITES: Record<string, string> = {
  'update-ca-certificates': '/etc/ssl/certs',
  'update-ca-trust': '/etc/pki/ca-trust/extracted',
  trust: '/etc/ca-certificates/trust-source/anchors',
  security: '/Library/Keychains/System.keychain',
};
/** `security`'s verbs that add to or remove from a keychain or its trust settings. */
const KEYCHAIN_CHANGES =
  /^(add-trusted-cert|remove-trusted-cert|add-certificates|import|delete-certificate|delete-identity|add-generic-password|add-internet-password)$/;

/**
 * The system trust store's tools: `update-ca-certificates` and `update-ca-trust` rebuild it from
 * the anchors (a CA planted there becomes trusted), `trust anchor` adds or removes one, macOS's
 * `security add-trusted-cert -d` (or `-k` a keychain) changes the admin keychain (or that one).
 * Their other words as any reader's; `--help`, `trust list`, `update-ca-trust check` write nothing.
 */
export function trustStore(inv: Invocation): PathUse[] {
  const values = inv.args.map((w) => w.value);
  const self = programWord(inv);
  const verb = values.find((v) => !v.startsWith('-'));
  if (values.some((v) => v === '--help' || v === '-h')) return generic(inv);
  if (inv.program === 'trust' && verb !== 'anchor' && verb !== 'extract-compat') return generic(inv);
  if (inv.program === 'update-ca-trust' && verb !== undefined && verb !== 'extract') return generic(inv);
  if (inv.program !== 'security') return [use(self, TRUST_WRITES[inv.program]!, 'into'), ...generic(inv)];
  if (!verb || !KEYCHAIN_CHANGES.test(verb)) return generic(inv);
  // `-k KEYCHAIN` is the keychain changed; `-d` the admin trust settings
  const k = values.indexOf('-k');
  const keychain = k >= 0 && inv.args[k + 1] ? [use(inv.args[k + 1]!, inv.args[k + 1]!.value, 'write')] : [];
  const admin = values.includes('-d') ? [use(self, TRUST_WRITES.security!, 'write')] : [];
  return [...keychain, ...admin, ...generic(inv).filter((u) => !keychain.some((kc) => kc.word === u.word))];
}
