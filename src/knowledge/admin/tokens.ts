import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { AxmeError } from '../../model/errors.ts';
import { type TokenFile, TokenFileSchema, TokenName, type TokenRecord, type TokenScope, TokenScopeSchema } from '../../model/token.ts';
import { claimLockFile } from '../../session/claim-lock.ts';
import { writeFileAtomicSync } from '../../store/atomic-file.ts';
import { locateRepo } from '../../store/locate.ts';
import { readStringMap } from '../../store/string-map-file.ts';

/**
 * The bearer tokens of `axme serve --http`, kept on this machine: `<git common dir>/axme/tokens.json`
 * (or a file given with `--tokens`), mode 0600, holding each token's name, scope and sha256 —
 * never the token. A token is 32 random bytes (base64url, prefixed `axme_`): with that much
 * entropy a plain hash is as safe as a slow one, and checking it costs microseconds per request.
 */

/** The tokens file: `file` when given, else the repository's machine-local state. */
export function tokensPath(opts: { cwd: string; env: NodeJS.ProcessEnv; file?: string | undefined }): string {
  if (opts.file) return resolve(opts.cwd, opts.file);
  const loc = locateRepo(opts.cwd, opts.env);
  if (!loc)
    throw new AxmeError('NOT_A_REPO', `${opts.cwd} is not inside a git repository: run this in the repository the server serves, or pass --tokens <file>`, {
      cwd: opts.cwd,
    });
  return join(loc.commonDir, 'axme', 'tokens.json');
}

/**
 * The tokens file cannot be used: it cannot be read, is not JSON, or is not a tokens file. CONFIG
 * (the operator fixes it), with the file and what is wrong; no token is accepted meanwhile.
 */
export class TokensFileError extends AxmeError {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(
      'CONFIG',
      `the tokens file ${path} ${problem}: fix it, or move it away and add the tokens again (axme token add <name> --scope read|write|admin); until then no token is accepted`,
      { path, problem },
    );
  }
}

/** The tokens in the file (none when it does not exist; TokensFileError when it cannot be used). */
function readTokens(path: string): TokenFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, tokens: [] };
    throw new TokensFileError(path, `cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new TokensFileError(path, `is damaged: not JSON (${(err as Error).message})`);
  }
  const parsed = TokenFileSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || 'the whole file'}: ${i.message}`);
    const more = parsed.error.issues.length > 3 ? `; ${parsed.error.issues.length - 3} more` : '';
    throw new TokensFileError(path, `is damaged: not a tokens file (${issues.join('; ')}${more})`);
  }
  return parsed.data;
}

/** `value` as JSON, written whole (store/atomic-file.ts: readers see the old file or the new), readable by its owner only. */
function writePrivateJson(path: string, value: unknown): void {
  writeFileAtomicSync(path, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
}

/** sha256 of a token, as stored. */
function hashToken(token: string): string {
  return `sha256:${createHash('sha256').update(token, 'utf8').digest('hex')}`;
}

/** Adds a token: the new token is returned once (only its hash is kept). A name already in use is refused. */
export function addToken(opts: { path: string; name: string; scope: string; now: Date }): { name: string; scope: TokenScope; token: string; created: string } {
  const name = TokenName.safeParse(opts.name);
  if (!name.success)
    throw new AxmeError('INVALID_INPUT', `token name ${JSON.stringify(opts.name.slice(0, 80))} ${name.error.issues[0]?.message ?? 'is not valid'}`);
  const scope = TokenScopeSchema.safeParse(opts.scope);
  if (!scope.success) throw new AxmeError('INVALID_INPUT', `--scope must be read, write or admin (got ${JSON.stringify(opts.scope)})`);
  return withTokensLock(opts.path, () => {
    const file = readTokens(opts.path);
    if (file.tokens.some((t) => t.name === name.data))
      throw new AxmeError('INVALID_INPUT', `a token named ${name.data} exists already: revoke it first (axme token revoke ${name.data}) or pick another name`, {
        name: name.data,
      });
    const token = `axme_${randomBytes(32).toString('base64url')}`;
    const created = opts.now.toISOString();
    writePrivateJson(opts.path, {
      version: 1,
      tokens: [...file.tokens, { name: name.data, scope: scope.data, hash: hashToken(token), created, lastUsed: null }],
    });
    return { name: name.data, scope: scope.data, token, created };
  });
}

/** The tokens (names, scopes, dates; never a token or its hash). */
export function listTokens(path: string): Array<Omit<TokenRecord, 'hash'>> {
  const tokens = readTokens(path).tokens;
  const used = lastUses(path, tokens);
  return tokens.map(({ hash, ...rest }) => ({ ...rest, lastUsed: used.get(hash) ?? rest.lastUsed }));
}

/**
 * Removes a token: requests bearing it are refused from then on (a running server rereads the
 * file); `left` tokens remain (none: a running server refuses every request until one is added).
 */
export function revokeToken(opts: { path: string; name: string }): { name: string; left: number } {
  return withTokensLock(opts.path, () => {
    const file = readTokens(opts.path);
    if (!file.tokens.some((t) => t.name === opts.name))
      throw new AxmeError('NOT_FOUND', `no token named ${JSON.stringify(opts.name)} in ${opts.path}: axme token list shows them`, { name: opts.name });
    const tokens = file.tokens.filter((t) => t.name !== opts.name);
    writePrivateJson(opts.path, { version: 1, tokens });
    return { name: opts.name, left: tokens.length };
  });
}

/** What a server checks requests with: the file reread when it changes, last use written back now and then. */
export interface TokenVerifier {
  /** whether any token is configured now (the server's mode is fixed at its start: mcp/http/auth.ts) */
  configured(): boolean;
  /** the token's record when it is one of ours (compared in constant time against every hash), else null */
  verify(token: string): TokenRecord | null;
  /** the hashes of the tokens as last read (another set once the file changed): a session of a hash not in it was revoked */
  hashes(): ReadonlySet<string>;
  /** notes a use of the token whose stored hash is `hash` (written by `flush`) */
  touch(hash: string, at: Date): void;
  /** writes the last uses noted since the last flush into the file (nothing when none) */
  flush(): void;
}

/** A verifier over the tokens file at `path`. */
export function tokenVerifier(path: string): TokenVerifier {
  let seen: string | null = null;
  let tokens: TokenRecord[] = [];
  let hashes: ReadonlySet<string> = new Set();
  const used = new Map<string, string>();
  // reread when the file is another one: add and revoke rename a new file in (a new inode), so a
  // revoke is seen even within the file system's mtime granularity
  const load = () => {
    let id = 'none';
    try {
      const st = statSync(path);
      id = `${st.ino}:${st.size}:${st.mtimeMs}`;
    } catch {
      // no file: no tokens
    }
    if (id === seen) return;
    tokens = id === 'none' ? [] : readTokens(path).tokens;
    hashes = new Set(tokens.map((t) => t.hash));
    seen = id;
  };
  return {
    configured() {
      load();
      return tokens.length > 0;
    },
    verify(token) {
      load();
      const given = Buffer.from(hashToken(token));
      let found: TokenRecord | null = null;
      // every hash is compared, each in constant time: neither the timing nor the order tells which one matched
      for (const t of tokens) {
        const stored = Buffer.from(t.hash);
        if (stored.length === given.length && timingSafeEqual(stored, given)) found = t;
      }
      return found;
    },
    hashes: () => hashes,
    touch(hash, at) {
      used.set(hash, at.toISOString());
    },
    flush() {
      if (!used.size) return;
      load();
      // into a file of its own: the tokens file is written only by add and revoke, so a server
      // noting uses can never lose a token added, or bring back one revoked, meanwhile; the
      // file keeps the uses of the tokens there are, by hash (a revoked token's go)
      const uses = lastUses(path, tokens);
      for (const [hash, at] of used) if (hashes.has(hash)) uses.set(hash, at);
      writeUses(path, Object.fromEntries(uses));
      used.clear();
    },
  };
}

/** `<tokens file>.used.json`: when each token was last used, by its stored hash, written by the servers only. */
function usesPath(path: string): string {
  return `${path.replace(/\.json$/, '')}.used.json`;
}

/**
 * When each of `tokens` was last used, by hash, from the file of uses (none when it is missing or
 * damaged). A file written before uses were kept by hash has them by name: such a use is the
 * token's of that name only when it is not older than the token (a revoked token's is, so a name
 * added again does not show its predecessor's use).
 */
function lastUses(path: string, tokens: readonly TokenRecord[]): Map<string, string> {
  const file = readStringMap(usesPath(path));
  const uses = new Map<string, string>();
  for (const t of tokens) {
    const byName = Object.hasOwn(file, t.name) ? file[t.name] : undefined;
    const at =
      (Object.hasOwn(file, t.hash) ? file[t.hash] : undefined) ?? (byName !== undefined && Date.parse(byName) >= Date.parse(t.created) ? byName : undefined);
    if (at !== undefined) uses.set(t.hash, at);
  }
  return uses;
}

function writeUses(path: string, uses: Record<string, string>): void {
  try {
    writePrivateJson(usesPath(path), uses);
  } catch {
    // a last-used time is not worth failing a request for
  }
}

/** How long `axme token add|revoke` waits for another one to finish, and when a lock is taken as left behind. */
const LOCK_WAIT_MS = 5_000;
const LOCK_STALE_MS = 30_000;

/**
 * Runs `fn` holding `<tokens file>.lock` (session/claim-lock.ts): two `axme token add`
 * at once both land, one after the other. A lock left by a dead process, or older than
 * LOCK_STALE_MS, is taken over; waiting longer than LOCK_WAIT_MS is CONFLICT (run it again).
 */
function withTokensLock<T>(path: string, fn: () => T): T {
  const lock = `${path}.lock`;
  mkdirSync(dirname(lock), { recursive: true });
  const deadline = Date.now() + LOCK_WAIT_MS;
  let release: (() => void) | null;
  while (!(release = claimLockFile(lock, new Date(), LOCK_STALE_MS))) {
    if (Date.now() > deadline)
      throw new AxmeError('CONFLICT', `the tokens file ${path} is being changed by another axme token command: run this again`, { path });
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  }
  try {
    return fn();
  } finally {
    release();
  }
}
