import { posix } from 'node:path';
import { HOME_CREDENTIALS } from '../model/home-credentials.ts';
import {
  HOME_CACHES,
  isSecretTemplate,
  PROJECT_SECRET_NAMES,
  PUBLIC_KEY_SUFFIX,
  RUNTIME_CREDENTIALS,
  SYSTEM_CREDENTIALS,
  SYSTEM_NETWORK_SECRETS,
  secretNameGlob,
} from '../model/sandbox.ts';
import { MACHINE_CREDENTIAL_PATHS } from './machine-credentials.ts';
import { type Access, changesPath, readsContent } from './path-access.ts';
import { globNames, literalPrefix, matchPath, nameGlobMatch, type PathContext, type PathMatch, protectedHit } from './paths.ts';
import type { Policy } from './policy.ts';
import { PROCESS_MEMORY_PATHS } from './process-memory.ts';
import { isSampleHook } from './self-rules.ts';
import { UNKNOWN } from './shell.ts';

/**
 * The path rules, in one place for the shell's commands (command-paths.ts) and the file tools
 * (file-tools.ts): what may not be read or written (`filesystem.deniedPaths` and the credentials
 * below), what may not be read (the files named as secrets), what may not be changed
 * (`filesystem.readOnlyPaths`, axme's own state and the folders that hold it). The system family's rule for a write into system paths and dotfiles is
 * families/system-paths.ts's guardedAbsolute, which both call too.
 */

/**
 * Credentials no agent tool reads or writes, whatever the lists say (P5, docs/safety.md): what
 * model/home-credentials.ts HOME_CREDENTIALS names (its one definition, which the sandbox hides too), as
 * `~/` patterns; the system's (SYSTEM_CREDENTIALS), those of the user's runtime folder
 * (RUNTIME_CREDENTIALS) and a pod's service-account tokens (machine-credentials.ts), as absolute ones. `filesystem.deniedPaths` adds its own.
 */
export const SECRET_PATHS: readonly string[] = [
  ...HOME_CREDENTIALS.flatMap((c) => (c.inside ?? ['']).map((p) => `~/${c.path}${p ? `/${p}` : ''}`)),
  ...SYSTEM_CREDENTIALS,
  ...SYSTEM_NETWORK_SECRETS,
  ...RUNTIME_CREDENTIALS.map((p) => `/run/user/*/${p}`),
  ...MACHINE_CREDENTIAL_PATHS,
  // other processes' memory and the system's core dumps (process-memory.ts)
  ...PROCESS_MEMORY_PATHS,
];

/**
 * The SECRET_PATHS a folder read whole takes along (`grep -r`, `tar c`, `cp -r`, a container's
 * mount): all but those in a cache (model/sandbox.ts HOME_CACHES: `~/.m2`, `~/.gradle`, `~/.cache`),
 * which builds and containers take whole every day (`docker run -v ~/.m2:/root/.m2 maven`, `-v
 * ~/.cache/huggingface:/root/.cache/huggingface`): a credential kept in one is denied by its name.
 */
export const TREE_SECRET_PATHS: readonly string[] = SECRET_PATHS.filter((p) => !HOME_CACHES.some((c) => p.startsWith(`~/${c}/`)));

/**
 * The SECRET_PATHS of the build tools' settings (model/home-credentials.ts HOME_CREDENTIALS `readBy`):
 * handed to a program as its settings or environment (`mvn -s ~/.m2/settings.xml package`: an
 * `env` use, tool-settings.ts), such a file is used as the sandbox lets any program use it, not read out.
 */
const TOOL_SETTINGS: ReadonlySet<string> = new Set(
  HOME_CREDENTIALS.filter((c) => c.readBy).flatMap((c) => (c.inside ?? ['']).map((p) => `~/${c.path}${p ? `/${p}` : ''}`)),
);

/**
 * The SECRET_PATHS of the credentials a program takes by an option naming them (HOME_CREDENTIALS
 * `takenBy`: `kubectl --kubeconfig ~/.kube/prod.yaml`): so handed (an `own` use, own-credentials.ts),
 * such a file is used as from its default place, not read out.
 */
const OWN_CREDENTIALS: ReadonlySet<string> = new Set(
  HOME_CREDENTIALS.filter((c) => c.takenBy).flatMap((c) => (c.inside ?? ['']).map((p) => `~/${c.path}${p ? `/${p}` : ''}`)),
);

/** The paths below a credential folder that SECRET_PATHS names but that hold no secret (`~/.ssh/config`, `~/.ssh/*.pub`): a path written out that one of them matches is none. */
export const SECRET_PATH_EXCEPTIONS: readonly string[] = HOME_CREDENTIALS.flatMap((c) => (c.except ?? []).map((n) => `~/${c.path}/${n}`));

/** The secret names that are an extension (`*.p12`): all a name-glob starting with a wildcard is checked against. */
const SECRET_EXTENSIONS = PROJECT_SECRET_NAMES.filter((n) => n.startsWith('*'));

/**
 * A file that holds secrets by its name, wherever it is (`.env.production`, `*.p12`, `id_ed25519`):
 * the names the sandbox hides (model/sandbox.ts secretNameGlob, its one definition), so that where
 * no sandbox runs the parser keeps them as it would; a template (`.env.example`,
 * `.env.local.sample`: model/sandbox.ts isSecretTemplate) or a public key (`*.pub`) is none.
 * Only a use through which its content comes out counts (path-access.ts readsContent: not
 * making, writing, removing it or setting its mode). `glob`: `abs` is a shell glob or holds
 * unknown expansions; a name that could be a secret's counts (`cat .env.*`, `cat
 * "$X".p12`, `find -name '.env.l*'` when `found`; `.env.e*` too: it may be `.env.env`), a name
 * only of wildcards (`cat dir/*`) does not, nor does a closing `*` that would have to supply a
 * whole `*.ext` (`tail logs/app-*`: paths.ts closingStarSuppliesExtension), and one that starts with a wildcard only for the
 * `*.ext` names (`*.json` could be `id_rsa.json`, but a reader of `*.json` wants no key). Asked
 * after the other rules of the path and of what it links to (so a link to a listed path reports
 * that path's rule), of both: a link to a secret is that secret.
 */
export function secretNameFinding(abs: string, access: Access, glob = false, found = false): PathFinding | null {
  if (!readsContent(access)) return null;
  const name = abs.slice(abs.lastIndexOf('/') + 1);
  // `.env.*.example`: a glob ending in a template's suffix names templates only; `id_*.pub`, public keys only
  if (isSecretTemplate(name) || (glob && isPublicKey(abs))) return null;
  // a system store of public certificates: its `.pem` files are certificates (a key's other names still count)
  if (/\.pem$/i.test(name) && PUBLIC_CERTIFICATE_STORES.some((d) => abs.startsWith(d))) return null;
  const hit =
    (!glob || !/[*?[\uE000]/.test(name)
      ? secretNameGlob(name)
      : nameGlobMatch(name, leadsWithWildcard(name, found) ? SECRET_EXTENSIONS : PROJECT_SECRET_NAMES, found)) ??
    deploySecretFile(abs, name, glob && /[*?[\uE000]/.test(name) ? (leadsWithWildcard(name, found) ? null : found) : undefined);
  return hit
    ? {
        rule: `secrets.paths: ${hit}`,
        reason: `${abs.replace(UNKNOWN, '…')} holds credentials (${hit}); agents never read it, nor edit, copy or move it away (which reads it): ask the user`,
      }
    : null;
}

/**
 * The files deployment tools keep a project's secrets in, by their folder and name (or a name only
 * they use): Kamal's `.kamal/secrets`, `.kamal/secrets-common` and `.kamal/secrets.<destination>`,
 * Cloudflare wrangler's `.dev.vars` and `.dev.vars.<environment>`. Their templates are none
 * (`.dev.vars.example`). The parser's alone: the sandbox hides the names of PROJECT_SECRET_NAMES.
 */
const DEPLOY_SECRET_FILES: ReadonlyArray<{ folder: string | null; names: readonly string[] }> = [
  { folder: '.kamal', names: ['secrets', 'secrets-common', 'secrets.*'] },
  { folder: null, names: ['.dev.vars', '.dev.vars.*'] },
];

/**
 * The deployment secret file (DEPLOY_SECRET_FILES) that `abs`, named `name`, is, shown as its folder
 * and name, or null. `globbed`: undefined for a literal name; for a name-glob, whether `find` found
 * it (nameGlobMatch), or null for one that starts with a wildcard (which names no such file).
 */
function deploySecretFile(abs: string, name: string, globbed: boolean | null | undefined): string | null {
  if (globbed === null) return null;
  const folder = posix.basename(posix.dirname(abs));
  for (const f of DEPLOY_SECRET_FILES) {
    if (f.folder !== null && f.folder !== folder) continue;
    const hit =
      globbed === undefined
        ? (f.names.find((n) => name === n || (n.endsWith('.*') && name.length >= n.length && name.startsWith(n.slice(0, -1)))) ?? null)
        : nameGlobMatch(name, f.names, globbed);
    if (hit) return f.folder ? `${f.folder}/${hit}` : hit;
  }
  return null;
}

/**
 * The folders where the systems keep public certificates (Debian's and Alpine's `/etc/ssl/certs`,
 * the CA bundles' sources, Red Hat's `/etc/pki/tls/certs` and `ca-trust`): a `.pem` there is a
 * certificate, public by design. Their private keys live elsewhere (`/etc/ssl/private`).
 */
const PUBLIC_CERTIFICATE_STORES = [
  '/etc/ssl/certs/',
  '/usr/share/ca-certificates/',
  '/usr/local/share/ca-certificates/',
  '/etc/ca-certificates/',
  '/etc/pki/tls/certs/',
  '/etc/pki/ca-trust/',
  '/usr/share/pki/ca-trust-source/',
];

/** Whether a glob's name starts with a wildcard (checked against the `*.ext` names only); for what find, rg and Grep find, a leading bracket (`[.]env.local`) is one character, which may be the dot of any secret's name. */
function leadsWithWildcard(name: string, found: boolean): boolean {
  return found ? /^[*?\uE000]/.test(name) : /^[*?[\uE000]/.test(name);
}

/** Folders holding axme's state whose removal only makes axme rebuild or fall back: `npm ci` removes node_modules; the code cache is rebuilt. */
const REBUILT = new Set(['node_modules', '.cache']);

export interface PathRuleContext extends PathContext {
  policy: Policy;
  protectedPaths?: string[] | undefined;
}

export interface PathFinding {
  rule: string;
  reason: string;
}

/**
 * The first rule a use of `abs` breaks, or null: axme's own state (a change of a guarded path or
 * of a folder that holds one), a secret (its content read or written), a read-only path (changed). `glob`:
 * `abs` is a shell glob or holds unknown expansions (UNKNOWN) and is matched as such.
 */
export function pathFinding(abs: string, access: Access, glob: boolean, ctx: PathRuleContext, found = false): PathFinding | null {
  if (changesPath(access)) {
    const self = selfHit(abs, access, glob, ctx, found);
    if (self) return { rule: 'axme.self', reason: self };
  }
  const shown = abs.replace(UNKNOWN, '…');
  // a mode or owner changed reads and writes no content, nor does removing what `find -name` finds: the secret rules leave them alone
  if (access !== 'mode' && !(found && access === 'remove')) {
    const denied = deniedPathMatch(abs, ctx, glob, found);
    if (denied)
      return { rule: `filesystem.deniedPaths: ${denied.pattern}`, reason: `${shown} is a protected path (${denied.pattern}); agents may not read or write it` };
    const secret = secretPathMatch(abs, ctx, glob, found);
    // a build tool's settings handed to a program that reads it for itself (tool-settings.ts): readable in the sandbox anyway
    // a credential handed to the program it is for by the option that names it (own-credentials.ts)
    if (secret && !(access === 'env' && TOOL_SETTINGS.has(secret.pattern)) && !(access === 'own' && OWN_CREDENTIALS.has(secret.pattern)))
      return {
        rule: `secrets.paths: ${secret.pattern}`,
        reason: `${shown} holds credentials (${secret.pattern}); agents never read or write it: ask the user`,
      };
  }
  if (changesPath(access)) {
    const ro = matchPath(abs, ctx.policy.readOnlyPaths, ctx, glob, found);
    if (ro) return { rule: `filesystem.readOnlyPaths: ${ro.pattern}`, reason: `${shown} is read-only (${ro.pattern}); agents may read it but not change it` };
  }
  return null;
}

/**
 * The `filesystem.deniedPaths` pattern `abs` falls under, or null. A public key (a name ending in
 * `.pub`, literally: `~/.ssh/id_ed25519.pub`, `~/.ssh/*.pub`) is public by design: a wildcard in
 * a pattern's last name does not reach it (`~/.ssh/id_*` names the private keys); a pattern whose
 * last name is written out does (`~/.ssh`, a folder holding it; `~/.ssh/deploy.pub`), and so does
 * one whose name ends so (`*.pub`).
 */
function deniedPathMatch(abs: string, ctx: PathRuleContext, glob: boolean, found: boolean): PathMatch | null {
  const patterns = ctx.policy.deniedPaths;
  return matchPath(abs, isPublicKey(abs) ? publicKeyPatterns(patterns) : patterns, ctx, glob, found);
}

/**
 * The SECRET_PATHS pattern `abs` falls under, or null: as deniedPathMatch (a public key is reached
 * only by a name written out), and a path written out that SECRET_PATH_EXCEPTIONS names is none
 * (`~/.ssh/config`); a glob or an unknown stays matched by what it could name (`cat ~/.ssh/*`).
 */
function secretPathMatch(abs: string, ctx: PathContext, glob: boolean, found: boolean): PathMatch | null {
  const candidates = secretCandidates(abs, ctx.home, glob);
  if (!candidates.length) return null;
  const hit = matchPath(abs, isPublicKey(abs) ? publicKeyPatterns(candidates) : candidates, ctx, glob, found);
  if (!hit || glob || abs.includes(UNKNOWN)) return hit;
  return matchPath(abs, SECRET_PATH_EXCEPTIONS, ctx) ? null : hit;
}

/** SECRET_PATHS by the first name below the home folder (`.ssh`, `.config`): a path there can match those alone. */
const SECRET_PATHS_BY_TOP = new Map<string, string[]>();
for (const p of SECRET_PATHS.filter((p) => p.startsWith('~/'))) {
  const top = p.slice(2).split('/')[0]!;
  SECRET_PATHS_BY_TOP.set(top, [...(SECRET_PATHS_BY_TOP.get(top) ?? []), p]);
}
/** The SECRET_PATHS outside the home folder (`/etc/shadow`, `/run/user/*\/containers/auth.json`): all a path there can match. */
const SYSTEM_SECRET_PATHS: readonly string[] = SECRET_PATHS.filter((p) => p.startsWith('/'));
const NO_PATTERNS: readonly string[] = [];

/**
 * The SECRET_PATHS a path can match, by what it names below the home folder (all but a few lie
 * there): those under its first name there when that name is known (`~/.ssh/x`: the `~/.ssh` ones; a
 * project in the home folder, none), the system's for a path that leaves the home folder, all of them when
 * a wildcard or an unknown stands in the first name or above. Measured in docs/benchmarks.md
 * ("One list of the home's credentials").
 */
function secretCandidates(abs: string, home: string, glob: boolean): readonly string[] {
  const known = glob || abs.includes(UNKNOWN) ? literalPrefix(abs) : abs;
  const prefix = `${home}/`;
  if (!known.startsWith(prefix)) return known === abs || !prefix.startsWith(known) ? SYSTEM_SECRET_PATHS : SECRET_PATHS;
  const rest = known.slice(prefix.length);
  const slash = rest.indexOf('/');
  if (slash < 0 && known !== abs) return SECRET_PATHS;
  return SECRET_PATHS_BY_TOP.get(slash < 0 ? rest : rest.slice(0, slash)) ?? NO_PATTERNS;
}

/** Whether the last name of `abs` is a public key's (`id_ed25519.pub`; not `.pub` alone). */
function isPublicKey(abs: string): boolean {
  return abs.endsWith(PUBLIC_KEY_SUFFIX) && abs.lastIndexOf('/') < abs.length - PUBLIC_KEY_SUFFIX.length - 1;
}

/** The patterns of a list that reach a public key (deniedPathMatch): a last name written out, or ending in `.pub`; one list per list. */
const publicKeyLists = new WeakMap<readonly string[], readonly string[]>();
function publicKeyPatterns(patterns: readonly string[]): readonly string[] {
  let reaching = publicKeyLists.get(patterns);
  if (!reaching) {
    reaching = patterns.filter((p) => {
      const name = p.replace(/\/+$/, '').slice(p.replace(/\/+$/, '').lastIndexOf('/') + 1);
      return p.endsWith(PUBLIC_KEY_SUFFIX) || !/[*?[]/.test(name);
    });
    publicKeyLists.set(patterns, reaching);
  }
  return reaching;
}

/**
 * Why changing `abs` changes axme's own state, or null: a guarded path or something in it, or —
 * removed, moved away, written over or into — a folder that holds one (`rm -rf .claude`,
 * `mv .git/hooks x`, `cp x .claude/`). Not the project folder itself or the folders above it
 * (the removal rule's), nor a folder axme rebuilds (node_modules, the code cache). A path only
 * the shell knows in part is not matched; a glob is, by what it could name — `found`: what
 * `find -name` finds, in every folder, but only what the name matches (not what lies inside it).
 */
export function selfHit(abs: string, access: Access, glob: boolean, ctx: PathRuleContext, found = false): string | null {
  const guarded = ctx.protectedPaths ?? [];
  if (isSampleHook(abs, guarded)) return null;
  if (!glob) {
    const hit = protectedHit(abs, ctx);
    if (hit) return hit;
    const held = changesPath(access) && holdsGuarded(abs, ctx) ? guarded.find((g) => g.startsWith(`${abs}/`)) : undefined;
    return held ? `${abs} holds axme's own state (${held}): removing, moving or writing over it changes what binds the agent; ask the user` : null;
  }
  if (abs.includes(UNKNOWN)) return null;
  // what the glob can name starts with its literal part: only guarded paths along it can match
  const lit = literalPrefix(abs);
  const along = (p: string) => p.startsWith(lit) || lit.startsWith(`${p}/`);
  for (const g of guarded) {
    // a glob over a folder axme's files are rebuilt in (`rm -rf node_modules/*`, `find -not -path './node_modules/*'`) is everyday: only a path naming one is refused
    if (inRebuilt(g, ctx)) continue;
    if (along(g) && globNames(abs, g, !found, found)) return `${abs} may name axme's own state (${g}): agents may not change it; ask the user`;
    for (let d = posix.dirname(g); d !== '/' && d.length > 1; d = posix.dirname(d)) {
      if (along(d) && holdsGuarded(d, ctx) && globNames(abs, d, false, found)) return `${abs} may name ${d}, which holds axme's own state (${g}); ask the user`;
    }
  }
  return null;
}

/** Whether the guarded path `g` lies in a folder axme's files are rebuilt in (node_modules, the code cache) under the project or the home folder. */
function inRebuilt(g: string, ctx: PathRuleContext): boolean {
  const base = ctx.root && g.startsWith(`${ctx.root}/`) ? ctx.root : g.startsWith(`${ctx.home}/`) ? ctx.home : null;
  return (
    base !== null &&
    g
      .slice(base.length + 1)
      .split('/')
      .some((part) => REBUILT.has(part))
  );
}

/** Whether `dir` is a folder whose change reaches a guarded path below it: inside the project or the home folder, not the project or above it, not a rebuilt folder. */
function holdsGuarded(dir: string, ctx: PathRuleContext): boolean {
  const root = ctx.root;
  if (root && (dir === root || root.startsWith(`${dir}/`))) return false;
  const base = root && dir.startsWith(`${root}/`) ? root : dir.startsWith(`${ctx.home}/`) ? ctx.home : null;
  if (base === null) return false;
  const inside = `${dir}/`;
  // the guarded paths first: most folders hold none, and then the names need no split
  if (!(ctx.protectedPaths ?? []).some((g) => g.startsWith(inside))) return false;
  return !dir
    .slice(base.length + 1)
    .split('/')
    .some((part) => REBUILT.has(part));
}
