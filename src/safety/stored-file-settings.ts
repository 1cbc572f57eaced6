import type { Invocation } from './command.ts';
import type { Word } from './syntax.ts';

/**
 * Package managers' settings whose value names a file the tool reads for its own use and never
 * shows: the CA bundle TLS checks a server with, a client certificate and its key. Setting one
 * stores the path and reads nothing (`poetry config certificates.x.cert /path/ca.pem`), as git's
 * `http.sslCAInfo` does (git-settings.ts namesFileOnly). Not a file read as settings
 * (`npm config set userconfig f`: `npm config list` prints what it parses from it), whose value
 * stays read.
 */
const FILE_SETTINGS: Readonly<Record<string, RegExp>> = {
  npm: /^(cafile|certfile|keyfile)$/,
  pnpm: /^cafile$/,
  // yarn 1's `cafile`; yarn 2+'s `caFilePath`, `httpsCaFilePath`, `httpsCertFilePath`, `httpsKeyFilePath`
  yarn: /^(cafile|cafilepath|https(ca|cert|key)filepath)$/,
  poetry: /^certificates\.[^.]+\.(cert|client-cert)$/,
  pdm: /^([^.]+\.)?(ca_certs|client_cert|client_key)$/,
  pip: /^[^.]+\.(cert|client-cert)$/,
  pip3: /^[^.]+\.(cert|client-cert)$/,
  conda: /^(ssl_verify|client_ssl_cert|client_ssl_cert_key)$/,
  bundle: /^ssl_(ca|client)_cert$/,
};

/**
 * The word of `<tool> config [set] KEY VALUE` (also `--set KEY VALUE`, `KEY=VALUE`) that holds a
 * path FILE_SETTINGS stores without reading, or null: what the path rules leave alone.
 */
export function storedFilePath(inv: Invocation): Word | null {
  const keys = FILE_SETTINGS[inv.program];
  if (!keys) return null;
  const operands = inv.args.filter((w) => !w.value.startsWith('-'));
  if (operands[0]?.value !== 'config') return null;
  const rest = operands.slice(operands[1]?.value === 'set' ? 2 : 1);
  const key = rest[0]?.value ?? '';
  const eq = key.indexOf('=');
  if (eq > 0) return keys.test(key.slice(0, eq).toLowerCase()) ? rest[0]! : null;
  return rest[1] && keys.test(key.toLowerCase()) ? rest[1] : null;
}
