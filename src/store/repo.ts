import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AxmeError } from '../model/errors.ts';
import type { BackendName, GitBackend, Signature } from './backend.ts';
import { cliBackend } from './backend-cli.ts';
import { hybridBackend } from './backend-hybrid.ts';
import { type Discovered, discoverOrdinaryRepo } from './discover.ts';
import { type GitResult, gitEnv, runGit } from './git.ts';
import { looseObjectWriter } from './loose-objects.ts';
import type { Snapshot } from './tree.ts';

/** An open repository. Holds no global state: everything it knows came from `openRepo`. */
export interface Repo {
  /** this worktree's git dir (HEAD lives here) */
  gitDir: string;
  /** the git dir shared by all worktrees: objects and refs/memory/* live here */
  commonDir: string;
  bare: boolean;
  /** where axme keeps machine-local, derived data: <commonDir>/axme */
  axmeDir: string;
  /** environment for git child processes (GIT_DIR pinned to gitDir) */
  env: NodeJS.ProcessEnv;
  backend: GitBackend;
  /** snapshots of recent memory commits (store/tree.ts snapshotAt): derived, never stale */
  snapshots: Map<string, Snapshot>;
  /** runs the git CLI against this repository */
  git(args: string[], opts?: { input?: string | Buffer; allowFail?: boolean; timeoutMs?: number }): Promise<GitResult>;
  /** author/committer name and email: git config, GIT_* variables, else a fallback identity */
  identity(): Promise<Pick<Signature, 'name' | 'email'>>;
  close(): Promise<void>;
}

export interface OpenRepoOptions {
  /** any folder inside the repository (or its git dir, or a bare repository) */
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** object backend; default from AXME_BACKEND, else hybrid */
  backend?: BackendName;
}

/**
 * Opens the repository that contains `cwd`: work trees, linked worktrees (`.git` file),
 * `GIT_DIR`, bare repositories. Throws NOT_A_REPO with what to do when there is none.
 */
export async function openRepo(opts: OpenRepoOptions): Promise<Repo> {
  const cwd = resolve(opts.cwd);
  if (!existsSync(cwd)) throw new AxmeError('NOT_A_REPO', `folder ${cwd} does not exist: pass -C <path> to a git repository`, { cwd });
  if (!statSync(cwd).isDirectory()) throw new AxmeError('NOT_A_REPO', `${cwd} is a file, not a folder: pass -C <path> to a git repository`, { cwd });
  const found = discoverOrdinaryRepo(cwd, opts.env) ?? (await askGit(cwd, opts.env));
  const { gitDir, commonDir, bare, objectFormat } = found;
  if (objectFormat !== 'sha1') {
    throw new AxmeError('NOT_A_REPO', `${gitDir} uses ${objectFormat} object names; axme supports SHA-1 repositories only for now`, { objectFormat });
  }
  const env = gitEnv(opts.env, gitDir);
  // isomorphic-git cannot follow objects/info/alternates (git clone --shared, --reference):
  // such a repository is read through the git CLI whatever was asked.
  const alternates = existsSync(join(commonDir, 'objects', 'info', 'alternates'));
  const name = alternates ? 'cli' : (opts.backend ?? backendFromEnv(opts.env));
  const backend = await makeBackend(name, env, commonDir);
  let ident: Promise<Pick<Signature, 'name' | 'email'>> | undefined;
  const git = (args: string[], o: { input?: string | Buffer; allowFail?: boolean; timeoutMs?: number } = {}) => runGit(args, { env, ...o });
  return {
    gitDir,
    commonDir,
    bare,
    axmeDir: join(commonDir, 'axme'),
    env,
    backend,
    snapshots: new Map(),
    git,
    identity: () => (ident ??= readIdentity(git, opts.env)),
    close: () => backend.close(),
  };
}

/** Where the repository around `cwd` is, as git says (the slow way, and the reference: its errors are passed on). */
async function askGit(cwd: string, env: NodeJS.ProcessEnv): Promise<Discovered> {
  const probeEnv = { ...env };
  for (const k of ['GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_PREFIX']) delete probeEnv[k];
  const r = await runGit(['rev-parse', '--path-format=absolute', '--git-dir', '--git-common-dir', '--is-bare-repository', '--show-object-format'], {
    cwd,
    env: probeEnv,
    allowFail: true,
  });
  if (r.code !== 0 && !/not a git repository/i.test(r.stderr)) {
    // e.g. git's safe.directory check ("dubious ownership"): git's own words say what to do
    throw new AxmeError('NOT_A_REPO', `git cannot open the repository at ${cwd}: ${r.stderr.trim()}`, { cwd, git: r.stderr.trim() });
  }
  if (r.code !== 0 && env.GIT_DIR) {
    throw new AxmeError('NOT_A_REPO', `GIT_DIR=${env.GIT_DIR} is not a git repository: fix or unset GIT_DIR`, { cwd, git: r.stderr.trim() });
  }
  if (r.code !== 0) {
    throw new AxmeError(
      'NOT_A_REPO',
      `${cwd} is not inside a git repository: axme keeps knowledge in the project's git repository. Run \`git init\` there first, or point axme at a repository (CLI: -C <path>; MCP: project_path).`,
      { cwd, git: r.stderr.trim() },
    );
  }
  const [gitDir, commonDir, bare, objectFormat] = r.stdout.toString('utf8').trim().split('\n');
  return { gitDir: gitDir!, commonDir: commonDir!, bare: bare === 'true', objectFormat: objectFormat! };
}

async function makeBackend(name: BackendName, env: NodeJS.ProcessEnv, commonDir: string): Promise<GitBackend> {
  if (name === 'cli') return cliBackend(env, commonDir);
  // isomorphic-git is loaded only when used: it is the largest module on a cold start
  if (name === 'isogit') return (await import('./backend-isogit.ts')).isogitBackend(commonDir);
  return hybridBackend(cliBackend(env, commonDir), looseObjectWriter(commonDir));
}

/** AXME_BACKEND, else the default of an in-process caller: hybrid (docs/benchmarks.md). */
function backendFromEnv(env: NodeJS.ProcessEnv): BackendName {
  const v = env.AXME_BACKEND;
  if (v === undefined || v === '') return 'hybrid';
  if (v === 'isogit' || v === 'cli' || v === 'hybrid') return v;
  throw new AxmeError('INVALID_INPUT', `AXME_BACKEND=${v} is not a backend: use hybrid, cli or isogit`);
}

const FALLBACK = { name: 'axme', email: 'axme@localhost' };

async function readIdentity(git: Repo['git'], env: NodeJS.ProcessEnv): Promise<Pick<Signature, 'name' | 'email'>> {
  const r = await git(['config', '--get-regexp', '^user\\.(name|email)$'], { allowFail: true });
  const cfg: Record<string, string> = {};
  for (const line of r.stdout.toString('utf8').split('\n')) {
    const sp = line.indexOf(' ');
    if (sp > 0) cfg[line.slice(0, sp)] = line.slice(sp + 1);
  }
  return {
    name: env.GIT_AUTHOR_NAME || cfg['user.name'] || FALLBACK.name,
    email: env.GIT_AUTHOR_EMAIL || cfg['user.email'] || FALLBACK.email,
  };
}
