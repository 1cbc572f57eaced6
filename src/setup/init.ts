import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { type InitResult, initStore } from '../knowledge/admin/init-store.ts';
import type { KnowledgeBase } from '../knowledge/core/kb.ts';
import { locateRepo } from '../knowledge/core/location.ts';
import { readState } from '../knowledge/core/state.ts';
import { forgetGitHookFacts } from '../knowledge/history/git-hook-files.ts';
import { type FollowResult, followRemoteStore } from '../knowledge/sync/follow-remote.ts';
import { configureKnowledgeRemotes } from '../knowledge/sync/sync-store.ts';
import { initWorkspaceStore, type WorkspaceStoreInit } from '../knowledge/workspace/init-workspace.ts';
import type { AxmeSelf } from '../model/axme-self.ts';
import type { Actor } from '../model/common.ts';
import { AxmeError } from '../model/errors.ts';
import { parseYamlText } from '../model/yaml-text.ts';
import { type AgentFileChange, type AgentFilesPlan, agentFilesRoot, planAgentFiles, writeAgentFiles } from './agent-files.ts';
import { CLAUDE_LOCAL_SETTINGS } from './clients/claude-code.hook.ts';
import { type AgentSelection, applyClients, type ClientChange, type ClientsPlan, describeClients, planClients, type UserContext } from './clients/index.ts';
import { excludeFromGit } from './git-exclude.ts';
import { applyGitHooks, type GitHookChange, planGitHooks, recordGitHooksChoice, recordLauncher } from './git-hooks.ts';
import { installSandboxShell, sandboxShellPath } from './sandbox.ts';

/**
 * `axme init`: everything that sets up one repository. Every check comes first — the Claude Code
 * files are read and merged, the git hooks folder is chosen and checked — so a refused init has
 * changed nothing. Then, in order: the store, the oracle scan (before the agent files: it
 * describes the project, not axme's setup), the Claude Code files, the git hooks, the knowledge
 * refspecs on each remote. The CLI only renders what this returns.
 */

export interface InitSteps {
  /** write the Claude Code files (.claude/settings.json, .mcp.json, CLAUDE.md) */
  claude: boolean;
  gitHooks: boolean;
  /**
   * scan the working tree into the oracle: true (`--scan`) scans and commits what is new; 'if-new'
   * (the default) scans only when the store has no scanned page yet — a store adopted from the
   * team, or one init already scanned, keeps its pages (`axme oracle scan` refreshes them), so a
   * teammate's init commits nothing nobody asked for; false never scans
   */
  scan: boolean | 'if-new';
  /** the hooks folder the user named (--hooks-path): consent to install into one other repositories share */
  hooksPath?: string | undefined;
  fetchConfig: boolean;
  /**
   * also write this machine's axme, by absolute path, into the personal `.claude/settings.local.json`
   * (git ignores it): for clients started without the shell's PATH. The shared files never hold a path.
   */
  local?: boolean;
  /**
   * `--agent <list>` (and `--user`): the clients to connect besides Claude Code (whose files
   * `claude` says); absent: Claude Code only, as before
   */
  agents?: AgentSelection | undefined;
}

export interface InitContext {
  /** the folder init runs in (-C) */
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** this axme: the node and the script running now (written only with `local`) */
  self: AxmeSelf;
  /** told about a step that could not run but does not fail init (the oracle scan) */
  note: (text: string) => void;
  /** the OS whose user-level client files `--user` writes (default: this one's) */
  platform?: NodeJS.Platform;
}

export interface RepositoryInit {
  store: InitResult;
  ref: string;
  /** the working tree the agent files went into; null when not written (bare, --no-claude) */
  root: string | null;
  agentFiles: AgentFileChange[];
  gitHooks: GitHookChange[];
  /** the folder the git hooks went into (null: not installed); `shared` when other repositories run hooks from it too */
  gitHooksDir: { dir: string; shared: boolean } | null;
  oracle: { commit: string | null; pages: Array<{ slug: string; path?: string; changed: boolean }> } | null;
  remotes: Array<{ remote: string; added: string[] }>;
  /** on a clone: whether the store started from the remote's knowledge (null: the store existed, or no remote) */
  follow: FollowResult | null;
  /** with `agents`: the other MCP clients connected, and those `all` skipped */
  clients?: { root: string; changes: ClientChange[]; skipped: ClientsPlan['skipped'] };
  /** the files of the working tree this run created or changed that git does not ignore, from its top: what to commit for the team */
  toCommit: string[];
}

/** Sets up the repository of `kb` (idempotent: a second run changes nothing). */
export async function initRepository(kb: KnowledgeBase, steps: InitSteps, ctx: InitContext): Promise<RepositoryInit> {
  const treeRoot = agentFilesRoot(ctx.cwd, ctx.env);
  const root = steps.claude ? treeRoot : null;
  const at = { cwd: ctx.cwd, env: ctx.env };
  // every check before the first write: a refused init leaves no store, no file, no setting
  const agentPlan = root ? planClaudeFiles(root, steps, ctx.self, ctx.env) : null;
  const clientsPlan = steps.agents && treeRoot ? planClients(treeRoot, steps.agents, userContext(ctx)) : null;
  const hooksPlan = steps.gitHooks && treeRoot ? await planGitHooks(at, treeRoot, { hooksPath: steps.hooksPath }) : null;
  // on a clone whose remote holds the knowledge: start from it, not from a second history
  const follow = steps.fetchConfig ? await followRemoteStore(kb) : null;
  if (follow?.followed) ctx.note(`axme: started from ${follow.remote}'s knowledge (${kb.ref} at ${follow.commit.slice(0, 12)})`);
  else if (follow && !/holds no knowledge yet$/.test(follow.reason)) ctx.note(`axme: ${follow.reason}`);
  const store = await initStore(kb);
  let oracle: RepositoryInit['oracle'] = null;
  if (treeRoot && (steps.scan === true || (steps.scan === 'if-new' && !(await hasScannedPages(kb))))) {
    const { scanOracle } = await import('../knowledge/items/oracle/scan-oracle.ts');
    try {
      const r = await scanOracle(kb, { skipEmpty: true });
      oracle = { commit: r.commit, pages: r.pages };
    } catch (err) {
      // the store exists: a scan that cannot run must not fail init (the setup below still runs)
      ctx.note(`axme: the oracle scan did not run (${(err as Error).message}); run \`axme oracle scan\` later`);
    }
  }
  const agentFiles = agentPlan ? writeAgentFiles(agentPlan) : [];
  if (root) keepLocalSettingsOut(root, agentFiles, ctx.env);
  const clients = clientsPlan && treeRoot ? { root: treeRoot, changes: applyClients(clientsPlan), skipped: clientsPlan.skipped } : undefined;
  // what the clients' commands and the git hooks run where no axme is on PATH: with the git hooks or without them
  if (treeRoot && (agentPlan || clientsPlan || hooksPlan)) await recordLauncher(at, ctx.self);
  const gitHooks = hooksPlan ? await applyGitHooks(at, hooksPlan) : [];
  if (treeRoot) await recordGitHooksChoice(at, steps.gitHooks);
  // the script Claude Code's settings now name, with the policy as it is once every client's files are there; the hook keeps it current
  if (agentPlan && root && claudeSandboxShell(root, ctx.env)) await installSandboxShell(root, ctx.env, dirname(ctx.self.script), parseYamlText);
  // what the git hooks' shell fast path trusted may have changed (a workspace around, the hooks)
  forgetGitHookFacts(kb.repo.commonDir);
  const remotes = steps.fetchConfig ? await configureKnowledgeRemotes(kb) : [];
  const gitHooksDir = hooksPlan && { dir: hooksPlan.dir, shared: hooksPlan.shared };
  const written = [...agentFiles, ...(clients?.changes ?? [])].filter((f) => f.action === 'created' || f.action === 'updated').map((f) => f.path);
  const toCommit = treeRoot ? await sharedFiles(kb, treeRoot, written) : [];
  return { store, ref: kb.ref, root, agentFiles, gitHooks, gitHooksDir, oracle, remotes, follow, ...(clients ? { clients } : {}), toCommit };
}

/**
 * Claude Code's settings of this machine (`--local`: this axme's path; the sandbox's shell prefix)
 * are kept out of git once init writes them: a teammate's `git add -A` never commits a path of
 * this machine.
 */
function keepLocalSettingsOut(root: string, files: AgentFileChange[], env: NodeJS.ProcessEnv): void {
  if (!files.some((f) => f.action !== 'unchanged' && relative(root, f.path) === CLAUDE_LOCAL_SETTINGS)) return;
  const loc = locateRepo(root, env);
  if (loc) excludeFromGit(loc, root, CLAUDE_LOCAL_SETTINGS);
}

/**
 * Of `paths`, those in the working tree at `root` that git does not ignore, from its top: what the
 * team shares (`.claude/settings.json`, `.mcp.json`, `CLAUDE.md`…), not this machine's own files
 * (`.claude/settings.local.json`, which init keeps out of git) nor a user's file outside the tree.
 */
async function sharedFiles(kb: KnowledgeBase, root: string, paths: string[]): Promise<string[]> {
  const inTree = [...new Set(paths.map((p) => relative(root, p)))].filter((p) => p && !p.startsWith('..') && !isAbsolute(p));
  if (!inTree.length) return [];
  const r = await kb.repo.git(['-C', root, 'check-ignore', '-z', '--stdin'], { input: inTree.join('\0'), allowFail: true });
  const ignored = new Set(r.stdout.toString('utf8').split('\0').filter(Boolean));
  return inTree.filter((p) => !ignored.has(p)).sort();
}

/** Whether the store holds a page the oracle scan writes (its own, or the team's it started from). */
async function hasScannedPages(kb: KnowledgeBase): Promise<boolean> {
  const { SCANNED_PAGES } = await import('../knowledge/items/oracle/scan-oracle.ts');
  const state = await readState(kb);
  return state.items.oracle.some((p) => (SCANNED_PAGES as readonly string[]).includes(p.slug));
}

/** What `axme init --dry-run` would do to the agent files: planned, compared, nothing written. */
export interface InitDryRun {
  root: string;
  agentFiles: AgentFileChange[];
  clients: { root: string; changes: ClientChange[]; skipped: ClientsPlan['skipped'] };
}

/**
 * `axme init --dry-run`: the Claude Code files and the other clients' files as init would write
 * them, with the same checks (a broken file is refused the same way), and nothing written. The
 * store, the oracle scan, the git hooks and the remotes' settings are not planned: a dry run
 * leaves them alone.
 */
export function planInitDryRun(steps: InitSteps, ctx: Pick<InitContext, 'cwd' | 'env' | 'self' | 'platform'>): InitDryRun {
  const root = agentFilesRoot(ctx.cwd, ctx.env);
  if (!root) throw new AxmeError('NOT_A_REPO', `${ctx.cwd} is not in the working tree of a git repository: nothing to plan`);
  const agentPlan = steps.claude ? planClaudeFiles(root, steps, ctx.self, ctx.env) : null;
  const agentFiles: AgentFileChange[] = (agentPlan?.files ?? []).map((f) => ({
    path: f.path,
    action: f.previous?.text === f.text ? 'unchanged' : f.previous ? 'updated' : 'created',
  }));
  const plan = steps.agents ? planClients(root, steps.agents, userContext(ctx)) : { files: [], skipped: [] };
  return { root, agentFiles, clients: { root, changes: describeClients(plan), skipped: plan.skipped } };
}

export interface MemberInit {
  name: string;
  path: string;
  result?: RepositoryInit;
  error?: { code: string; message: string };
}

export interface WorkspaceInit {
  store: Omit<WorkspaceStoreInit, 'detection'> & { markers: string[]; agentFiles: AgentFileChange[] };
  members: MemberInit[];
  failed: number;
}

/**
 * `axme init --workspace`: the workspace store, the Claude Code files in the workspace folder
 * (sessions may start there), then initRepository in every member repository. A member that
 * fails is reported and the others are still set up. `open` opens a member's knowledge base
 * (the caller's conventions: actor, clock, session) and closes it after `use`.
 */
export async function initWorkspace(
  steps: InitSteps,
  ctx: InitContext & { now: () => Date; actor: Actor; onStore?: (store: WorkspaceInit['store']) => void; onMember?: (m: MemberInit) => void },
  open: <T>(cwd: string, use: (kb: KnowledgeBase) => Promise<T>) => Promise<T>,
): Promise<WorkspaceInit> {
  // the workspace folder's Claude Code files are checked before its store is created
  const agentPlan = steps.claude ? planClaudeFiles(resolve(ctx.cwd), steps, ctx.self, ctx.env) : null;
  const ws = await initWorkspaceStore({ dir: ctx.cwd, env: ctx.env, now: ctx.now, actor: ctx.actor });
  const agentFiles = agentPlan ? writeAgentFiles(agentPlan) : [];
  const { detection, ...rest } = ws;
  const store = { ...rest, markers: detection.markers, agentFiles };
  ctx.onStore?.(store);
  const members: MemberInit[] = [];
  let failed = 0;
  for (const m of ws.detection.members) {
    const member: MemberInit = { name: m.name, path: m.path };
    try {
      member.result = await open(m.path, (kb) => initRepository(kb, steps, { ...ctx, cwd: m.path }));
    } catch (err) {
      failed++;
      const e = err as Error & { code?: string };
      member.error = { code: e.code ?? 'INTERNAL', message: e.message };
    }
    members.push(member);
    ctx.onMember?.(member);
  }
  return { store, members, failed };
}

/** Where the user-level clients' files are (`--user`), and the axme their entry starts. */
function userContext(ctx: Pick<InitContext, 'env' | 'self' | 'platform'>): UserContext {
  return { env: ctx.env, platform: ctx.platform ?? process.platform, self: ctx.self };
}

/** The Claude Code files under `root` as `steps` ask: with `local` this axme by path, with `--mcp-url` the team's server. */
function planClaudeFiles(root: string, steps: InitSteps, self: InitContext['self'], env: NodeJS.ProcessEnv): AgentFilesPlan {
  return planAgentFiles(root, steps.local ? localLaunch(self) : null, steps.agents?.remote, claudeSandboxShell(root, env));
}

/**
 * The sandbox's prefix script Claude Code is to run its commands through (setup/sandbox.ts): on
 * Linux, in a repository, unless AXME_SANDBOX=off; else null. (A `sandbox.mode: off` in a settings
 * file still gets the script: it then runs commands as they are, and turning the mode back on needs no init.)
 */
function claudeSandboxShell(root: string, env: NodeJS.ProcessEnv): string | null {
  const loc = process.platform === 'linux' && env.AXME_SANDBOX !== 'off' ? locateRepo(root, env) : null;
  return loc ? sandboxShellPath(loc) : null;
}

/** This axme by absolute path (real paths: a symlinked global install keeps working after an upgrade moves the link). */
function localLaunch(self: AxmeSelf): AxmeSelf {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return p;
    }
  };
  return { execPath: real(self.execPath), script: real(self.script) };
}
