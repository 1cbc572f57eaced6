import { initStore, type InitResult } from '../knowledge/init-store.ts';
import type { KnowledgeBase } from '../knowledge/kb.ts';
import { configureKnowledgeRemotes } from '../knowledge/sync.ts';
import { initWorkspaceStore, type WorkspaceStoreInit } from '../knowledge/workspace/init-workspace.ts';
import type { Actor } from '../model/common.ts';
import { agentFilesRoot, axmeCommand, installAgentFiles } from './agent-files.ts';
import { installGitHooks } from './git-hooks.ts';

/**
 * `axme init`: everything that sets up one repository, in order — the store, the oracle scan
 * (before the agent files: it describes the project, not axme's setup), the Claude Code files,
 * the git hooks, the knowledge refspecs on each remote. The CLI only renders what this returns.
 */

export interface InitSteps {
  /** write the Claude Code files (.claude/settings.json, .mcp.json, CLAUDE.md) */
  claude: boolean;
  gitHooks: boolean;
  scan: boolean;
  fetchConfig: boolean;
}

export interface InitContext {
  /** the folder init runs in (-C) */
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** how this axme is started: what hook commands run */
  self: { execPath: string; script: string };
  /** told about a step that could not run but does not fail init (the oracle scan) */
  note: (text: string) => void;
}

export interface RepositoryInit {
  store: InitResult;
  ref: string;
  /** the working tree the agent files went into; null when not written (bare, --no-claude) */
  root: string | null;
  agentFiles: ReturnType<typeof installAgentFiles>;
  gitHooks: Awaited<ReturnType<typeof installGitHooks>>;
  oracle: { commit: string | null; pages: Array<{ slug: string; path?: string; changed: boolean }> } | null;
  remotes: Array<{ remote: string; added: string[] }>;
}

/** Sets up the repository of `kb` (idempotent: a second run changes nothing). */
export async function initRepository(kb: KnowledgeBase, steps: InitSteps, ctx: InitContext): Promise<RepositoryInit> {
  const store = await initStore(kb);
  const treeRoot = agentFilesRoot(ctx.cwd, ctx.env);
  let oracle: RepositoryInit['oracle'] = null;
  if (steps.scan && treeRoot) {
    const { scanOracle } = await import('../knowledge/oracle/scan-oracle.ts');
    try {
      const r = await scanOracle(kb, { skipEmpty: true });
      oracle = { commit: r.commit, pages: r.pages };
    } catch (err) {
      // the store exists: a scan that cannot run must not fail init (the setup below still runs)
      ctx.note(`axme: the oracle scan did not run (${(err as Error).message}); run \`axme oracle scan\` later`);
    }
  }
  const root = steps.claude ? treeRoot : null;
  const command = axmeCommand({ ...ctx.self, env: ctx.env });
  const agentFiles = root ? installAgentFiles(root, command) : [];
  const gitHooks = steps.gitHooks && treeRoot ? await installGitHooks({ cwd: ctx.cwd, env: ctx.env }, treeRoot, command) : [];
  const remotes = steps.fetchConfig ? await configureKnowledgeRemotes(kb) : [];
  return { store, ref: kb.ref, root, agentFiles, gitHooks, oracle, remotes };
}

export interface MemberInit {
  name: string;
  path: string;
  result?: RepositoryInit;
  error?: { code: string; message: string };
}

export interface WorkspaceInit {
  store: Omit<WorkspaceStoreInit, 'detection'> & { markers: string[]; agentFiles: ReturnType<typeof installAgentFiles> };
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
  const ws = await initWorkspaceStore({ dir: ctx.cwd, env: ctx.env, now: ctx.now, actor: ctx.actor });
  const agentFiles = steps.claude ? installAgentFiles(ws.root, axmeCommand({ ...ctx.self, env: ctx.env })) : [];
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
