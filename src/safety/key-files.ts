import type { Invocation } from './command.ts';
import type { PathUse } from './path-access.ts';

/**
 * A key file handed to a tool that signs, verifies, decrypts or logs in with it, by the option
 * that names the key (docs/safety.md, "Key files handed to the tool that uses them"): `cosign
 * sign-blob --key cosign.key artifact`, `ssh -i deploy.key host`, `openssl dgst -sign private.key
 * -out a.sig file`, `minisign -S -s minisign.key -m file`, `curl --key client.key --cert
 * client.crt URL`. The tool uses the key and prints none of it — a signature, a decrypted file,
 * a session come out, as from `gpg --sign` with its own keyring — so the use is `key`, which a
 * secret's name (`*.key`, `*.pem`, `id_ed25519`) lets through and a credential of the home folder
 * (`~/.ssh/id_rsa`, `~/.aws/credentials`: path-rules.ts SECRET_PATHS) does not. The same file
 * named any other way stays a read: printed (`cat cosign.key`, `openssl pkey -in private.key`),
 * copied (`cp`, `openssl pkcs12 -export -inkey`), sent (`curl -F k=@cosign.key`, `scp -i
 * deploy.key deploy.key host:`), or handed to a subcommand not in the table.
 */

/** Per program, per subcommand (`*`: any, or none), the options whose value is a key the program uses without printing it. */
const KEY_TAKERS: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  cosign: Object.fromEntries(
    ['sign', 'sign-blob', 'attest', 'attest-blob', 'verify', 'verify-blob', 'verify-attestation', 'verify-blob-attestation', 'public-key'].map((v) => [
      v,
      ['--key'],
    ]),
  ),
  ssh: { '*': ['-i'] },
  scp: { '*': ['-i'] },
  sftp: { '*': ['-i'] },
  autossh: { '*': ['-i'] },
  openssl: {
    dgst: ['-sign', '-verify', '-prverify'],
    pkeyutl: ['-inkey', '-peerkey'],
    rsautl: ['-inkey'],
    smime: ['-inkey', '-signer', '-recip'],
    cms: ['-inkey', '-signer', '-recip'],
    ts: ['-inkey', '-signer'],
    req: ['-key'],
    x509: ['-signkey', '-CAkey', '-CA'],
    ca: ['-keyfile', '-cert'],
    s_client: ['-key', '-cert'],
    s_server: ['-key', '-cert'],
  },
  minisign: { '*': ['-s'] },
  signify: { '*': ['-s'] },
  age: { '*': ['-i', '--identity'] },
  rage: { '*': ['-i', '--identity'] },
  curl: { '*': ['--key', '--proxy-key'] },
  wget: { '*': ['--private-key'] },
  http: { '*': ['--cert-key'] },
  https: { '*': ['--cert-key'] },
  jarsigner: { '*': ['-keystore'] },
  apksigner: { sign: ['--ks', '--key'], verify: ['--ks', '--key'] },
  sbsign: { '*': ['--key'] },
  osslsigncode: { '*': ['-key'] },
};

/** `uses` (path-uses.ts) with a key file named by one of its program's key options read as `key`: used, not printed. */
export function keyFileUses(inv: Invocation, uses: PathUse[]): PathUse[] {
  const table = Object.hasOwn(KEY_TAKERS, inv.program) ? KEY_TAKERS[inv.program]! : null;
  if (!table) return uses;
  const verb = inv.args.find((w) => !w.value.startsWith('-'))?.value;
  const options = (verb !== undefined && Object.hasOwn(table, verb) ? table[verb] : undefined) ?? table['*'];
  if (!options) return uses;
  const keys = new Set<unknown>();
  inv.args.forEach((w, i) => {
    const eq = w.value.indexOf('=');
    if (eq > 0 && w.value.startsWith('--') && options.includes(w.value.slice(0, eq))) keys.add(w);
    else if (options.includes(w.value) && inv.args[i + 1]) keys.add(inv.args[i + 1]);
  });
  if (!keys.size) return uses;
  return uses.map((u): PathUse => (keys.has(u.word) && u.access === 'read' ? { ...u, access: 'key' } : u));
}
