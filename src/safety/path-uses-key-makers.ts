import type { Invocation } from './command.ts';
import { generic, options, type PathUse, use } from './path-access.ts';
import type { Word } from './syntax.ts';

/**
 * The key generators past openssl, mkcert and ssh-keygen (path-uses-keys.ts), for path-uses.ts:
 * the key files they make are written, not read — a secret's name may be made (docs/safety.md,
 * "Key and certificate tools"). smallstep's `step certificate create SUBJECT CRT KEY`, `step ca
 * certificate SUBJECT CRT KEY`, `step crypto keypair PUB PRIV`; `minisign -G -s SECRET -p PUB`;
 * `age-keygen -o FILE`; GnuTLS's `certtool --outfile FILE`; the JDK's `keytool -genkeypair -keystore
 * FILE` (and `-importcert`, `-importkeystore -destkeystore`). What they open stays read, as any
 * reader's: a CA key that signs (`--ca-key`), an existing key (`--key`), `minisign -S -s key`
 * (signing), `age-keygen -y key`, `certtool --load-privkey`, and every other verb
 * (`step crypto key format key`, `step certificate p12 out.p12 crt key` print or copy a key).
 */

/** step's verbs (two words) that make files, and which of their operands (after the verb) are made. */
const STEP_MAKES: Record<string, readonly number[]> = {
  'certificate create': [1, 2],
  'ca certificate': [1, 2],
  'crypto keypair': [0, 1],
};

/** The options of step's making verbs that take a value (`--profile leaf`, `--ca-key root.key`); the others it knows are flags. */
const STEP_VALUED = new Set([
  '--profile',
  '--template',
  '--set',
  '--set-file',
  '--ca',
  '--ca-key',
  '--ca-password-file',
  '--ca-url',
  '--root',
  '--token',
  '--provisioner',
  '--issuer',
  '--provisioner-password-file',
  '--key',
  '--key-password-file',
  '--password-file',
  '--kty',
  '--crv',
  '--curve',
  '--size',
  '--use',
  '--alg',
  '--not-before',
  '--not-after',
  '--san',
  '--kms',
  '--from-jwk',
  '--context',
  '--attestation-uri',
  '--x5c-cert',
  '--x5c-key',
]);
/** step's flags of those verbs: a word after one is an operand. */
const STEP_FLAGS = new Set(['--no-password', '--insecure', '--force', '-f', '--bundle', '--csr', '--subtle', '--offline', '--console']);

/**
 * step (smallstep): the files its making verbs name as operands written; the options' values
 * read. An option it does not know (which may take the next word) leaves the line read as any
 * reader's, every path read.
 */
export function step(inv: Invocation): PathUse[] {
  const values = inv.args.map((w) => w.value);
  const words = values.filter((v) => !v.startsWith('-'));
  const made = STEP_MAKES[`${words[0]} ${words[1]}`];
  if (!made) return generic(inv);
  const operands: Word[] = [];
  const rest: Word[] = [];
  let verbWords = 0;
  for (let i = 0; i < inv.args.length; i++) {
    const w = inv.args[i]!;
    const name = w.value.split('=', 1)[0]!;
    if (w.value.startsWith('-')) {
      if (STEP_FLAGS.has(name)) continue;
      if (!STEP_VALUED.has(name)) return generic(inv);
      rest.push(w);
      if (!w.value.includes('=') && inv.args[i + 1]) rest.push(inv.args[++i]!);
    } else if (verbWords < 2) verbWords++;
    else operands.push(w);
  }
  const out = made.flatMap((at) => (operands[at] ? [use(operands[at], operands[at].value, 'write')] : []));
  const written = new Set(out.map((u) => u.word));
  return [...out, ...generic(inv, [...rest, ...operands.filter((w) => !written.has(w))])];
}

/** minisign's options that take a value. */
const MINISIGN_VALUED = 'spmxctPo';

/** minisign: with `-G` (make a key pair) the `-s` secret key and `-p` public key are written; otherwise every path read (`-S -s key` signs with it). */
export function minisign(inv: Invocation): PathUse[] {
  const made: PathUse[] = [];
  const read: Word[] = [];
  const making = inv.args.some((w) => /^-[A-Za-z]*G/.test(w.value));
  const operands = options(inv.args, MINISIGN_VALUED, new Set(), (name, word, value) => {
    if (making && (name === '-s' || name === '-p')) made.push(use(word, value, 'write'));
    else read.push(word);
  });
  return [...made, ...generic(inv, [...read, ...operands])];
}

/** age-keygen: `-o FILE` (`--output`) is the identity it writes; `-y FILE` converts one, read. */
export function ageKeygen(inv: Invocation): PathUse[] {
  const made: PathUse[] = [];
  const operands = options(inv.args, 'o', new Set(['--output']), (_name, word, value) => made.push(use(word, value, 'write')));
  return [...made, ...generic(inv, operands)];
}

/** certtool (GnuTLS): `--outfile FILE` is what it writes (a key it generates, a certificate it signs); `--load-privkey`, `--load-ca-privkey` and the rest read. */
export function certtool(inv: Invocation): PathUse[] {
  const made: PathUse[] = [];
  const rest: Word[] = [];
  for (let i = 0; i < inv.args.length; i++) {
    const w = inv.args[i]!;
    if (w.value.startsWith('--outfile=')) made.push(use(w, w.value.slice('--outfile='.length), 'write'));
    else if (w.value === '--outfile' && inv.args[i + 1]) {
      const file = inv.args[++i]!;
      made.push(use(file, file.value, 'write'));
    } else rest.push(w);
  }
  return [...made, ...generic(inv, rest)];
}

/** keytool's commands that make a keystore or add an entry to it, and the option naming that keystore. */
const KEYTOOL_MAKES: Record<string, string> = {
  '-genkeypair': '-keystore',
  '-genkey': '-keystore',
  '-genseckey': '-keystore',
  '-importcert': '-keystore',
  '-import': '-keystore',
  '-importpass': '-keystore',
  '-importkeystore': '-destkeystore',
};

/**
 * keytool (the JDK's): the keystore a making command names (`-genkeypair -keystore k.p12`,
 * `-importcert -keystore trust.p12`, `-importkeystore -destkeystore k.p12`) is written — made, or
 * given one more entry; keytool prints no key of it. Every other path is read as any reader's: a
 * source keystore (`-srckeystore`), a file imported (`-file`), and the keystore of every other
 * command (`-list`, `-exportcert`).
 */
export function keytool(inv: Invocation): PathUse[] {
  const command = inv.args.find((w) => Object.hasOwn(KEYTOOL_MAKES, w.value))?.value;
  if (!command) return generic(inv);
  const made: PathUse[] = [];
  const rest: Word[] = [];
  for (let i = 0; i < inv.args.length; i++) {
    const w = inv.args[i]!;
    const next = inv.args[i + 1];
    if (w.value === KEYTOOL_MAKES[command] && next) {
      made.push(use(next, next.value, 'write'));
      i++;
    } else rest.push(w);
  }
  return [...made, ...generic(inv, rest)];
}
