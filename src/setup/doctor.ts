import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openKnowledgeBase } from '../knowledge/core/kb.ts';
import { readStorePolicy } from '../knowledge/rules/store-policy.ts';
import { CLAUDE_MD_START } from '../model/agent-section.ts';
import { MEMORY_REF } from '../model/refs.ts';
import { retiredDefaultsIn } from '../model/safety-rules.ts';
import { shellQuote } from '../model/shell-quote.ts';
import { sessionRows } from '../session/list.ts';
import { runGit } from '../store/git.ts';
import { locateRepo, readRefSync } from '../store/locate.ts';
import { type WorkspaceLocation, workspaceFor } from '../store/workspace-store.ts';
import { isAxmeHookCommand, readJsonFile } from './agent-files.ts';
import type { DoctorCheck } from './clients/adapter.ts';
import { claudeCode } from './clients/claude-code.ts';
import { clientHookChecks } from './doctor-clients.ts';
import { gitHooksCheck } from './doctor-git-hooks.ts';
import { installScriptsCheck } from './doctor-install-scripts.ts';
import { mcpChecks } from './doctor-mcp.ts';
import { searchModelCheck } from './doctor-models.ts';
import { sandboxCheck } from './doctor-sandbox.ts';
import { settingsCheck } from './doctor-settings.ts';
import { FIND_AXME, hookCommand, installHintFor, isPortableAxme, LAUNCHER_FILE } from './launch.ts';
import { claudeSettings } from './paths.ts';

/** One line of `axme doctor`. */
export type Check = DoctorCheck;

export interface DoctorReport {
  ok: boolean;
  /** one line first: ready, or how many problems and which */
  verdict: string;
  checks: Check[];
}

/** The report of `checks`: ok when none is a problem or missing, with its verdict line. */
function reportOf(checks: Check[]): DoctorReport {
  const bad = checks.filter((c) => c.status !== 'ok');
  const verdict =
    bad.length === 0
      ? `ready: all ${checks.length} checks passed`
      : `${bad.length} problem${bad.length === 1 ? '' : 's'} to fix: ${bad.map((c) => c.name).join(', ')}`;
  return { ok: bad.length === 0, verdict, checks };
}

/**
 * What is installed and what is missing for an agent to work with axme here: the repository,
 * the store and its rules, the Claude Code hooks (run for real: the pre-tool-use command must
 * deny `rm -rf /` and allow `git status`), the other clients' hooks (doctor-clients.ts), the MCP
 * server entry and the CLAUDE.md section, and whether the guard lets an agent's `npm install` run
 * the project's install scripts (doctor-install-scripts.ts).
 */
export async function doctor(opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<DoctorReport> {
  const checks: Check[] = [];
  const loc = locateRepo(opts.cwd, opts.env);
  if (!loc) {
    // a workspace folder is no repository, and must not become one: `git init` here would hide its store from every member
    const ws = workspaceFor(null, opts.cwd);
    if (ws) return reportOf(await workspaceChecks(ws, opts.env));
    checks.push({
      name: 'repository',
      status: 'problem',
      detail: `no git repository at or above ${opts.cwd}`,
      fix: 'run axme inside a git repository (git init)',
    });
    return reportOf(checks);
  }
  checks.push({ name: 'repository', status: 'ok', detail: loc.worktree ?? `${loc.gitDir} (bare)` });
  const tip = readRefSync(loc.commonDir, MEMORY_REF);
  if (tip === null) checks.push({ name: 'store', status: 'missing', detail: `no ${MEMORY_REF}: the built-in safety rules apply`, fix: 'axme init' });
  else {
    checks.push({ name: 'store', status: 'ok', detail: `${MEMORY_REF} at ${tip === 'unknown' ? '(read through git)' : tip.slice(0, 12)}` });
    checks.push(await rulesCheck(loc.worktree ?? loc.gitDir, opts.env));
    checks.push(await settingsCheck(loc.worktree ?? loc.gitDir, opts.env));
  }
  if (!loc.worktree) return reportOf(checks);
  // the axme the committed commands find here (launch.ts), looked up once for the checks that need it
  const [found = '', foundNode = ''] = (
    spawnSync('/bin/sh', ['-c', `${FIND_AXME}; printf '%s\\n%s' "$a" "$AXME_NODE"`], { cwd: loc.worktree, env: opts.env, timeout: 15_000, encoding: 'utf8' })
      .stdout ?? ''
  ).split('\n');
  checks.push(axmeFoundCheck(loc.worktree, { ...opts.env, ...(foundNode ? { AXME_NODE: foundNode } : {}) }, found));
  checks.push(...hookChecks(loc.worktree, opts.env));
  checks.push(...clientHookChecks(loc.worktree, opts.env));
  checks.push(await sandboxCheck(loc, opts.env));
  checks.push(await gitHooksCheck(loc.worktree, opts.env));
  checks.push(await installScriptsCheck({ root: loc.worktree, env: opts.env }));
  checks.push(...(await mcpChecks(loc.worktree, found, opts.env)));
  checks.push(claudeMdCheck(loc.worktree));
  checks.push(...(await remoteChecks(loc.worktree, opts.env, tip)));
  checks.push(sessionsCheck(loc.commonDir));
  checks.push(searchModelCheck(loc.commonDir, opts.env));
  return reportOf(checks);
}

/**
 * A workspace folder (docs/workspaces.md): its store, the rules and settings there, the Claude
 * Code hooks and CLAUDE.md section `axme init --workspace` wrote, and whether each member repository
 * has its own store. Never `git init` here: a repository around `.axme.git` detaches the workspace.
 */
async function workspaceChecks(ws: WorkspaceLocation, env: NodeJS.ProcessEnv): Promise<Check[]> {
  const checks: Check[] = [
    { name: 'workspace', status: 'ok', detail: `${ws.root} (workspace folder, no repository of its own: keep it so; store ${ws.gitDir})` },
  ];
  const tip = readRefSync(ws.gitDir, MEMORY_REF);
  if (tip === null) {
    checks.push({ name: 'store', status: 'missing', detail: `no ${MEMORY_REF} in ${ws.gitDir}`, fix: `axme init --workspace (in ${ws.root})` });
    return checks;
  }
  checks.push({ name: 'store', status: 'ok', detail: `${MEMORY_REF} at ${tip === 'unknown' ? '(read through git)' : tip.slice(0, 12)} in ${ws.gitDir}` });
  // the store is read as the workspace's commands read it: its git dir named, the folder as the work tree
  const inStore = { ...env, GIT_DIR: ws.gitDir, GIT_WORK_TREE: ws.root };
  checks.push(await rulesCheck(ws.root, inStore));
  checks.push(await settingsCheck(ws.root, inStore));
  // their fix is the workspace's own init
  for (const c of [...hookChecks(ws.root, env), claudeMdCheck(ws.root)])
    checks.push(c.fix === 'axme init' ? { ...c, fix: `axme init --workspace (in ${ws.root})` } : c);
  const { detectWorkspace } = await import('../knowledge/workspace/detect-workspace.ts');
  const members = detectWorkspace({ dir: ws.root, force: true }).members;
  const bare = members.filter((m) => {
    const l = locateRepo(m.path, env);
    return !l || readRefSync(l.commonDir, MEMORY_REF) === null;
  });
  checks.push(
    bare.length
      ? { name: 'members', status: 'missing', detail: `no store yet in ${bare.map((m) => m.name).join(', ')}`, fix: `axme init --workspace (in ${ws.root})` }
      : { name: 'members', status: 'ok', detail: `${members.length} repositories with a store: ${members.map((m) => m.name).join(', ')}` },
  );
  return checks;
}

/**
 * The knowledge's remote, read without the network (what the last fetch brought): the remote's
 * fetch settings carry the knowledge refspecs (a plain `git fetch` brings teammates' knowledge),
 * and the store is in step with what the remote had. No remote: nothing to check.
 */
async function remoteChecks(root: string, env: NodeJS.ProcessEnv, tip: string | null | 'unknown'): Promise<Check[]> {
  const git = async (args: string[]) => {
    const r = await runGit(args, { cwd: root, env, allowFail: true });
    return r.code === 0 ? r.stdout.toString('utf8').trim() : null;
  };
  const remotes = ((await git(['remote'])) ?? '').split('\n').filter(Boolean);
  const remote = remotes.includes('origin') ? 'origin' : remotes.length === 1 ? remotes[0]! : null;
  if (!remote)
    return [
      {
        name: 'remote',
        status: 'ok',
        detail: remotes.length
          ? `several remotes, none is origin (${remotes.join(', ')}): axme sync <remote> names one`
          : 'none yet: the knowledge stays in this repository until you add one (git remote add origin <url>) and run axme sync',
      },
    ];
  const specs = ((await git(['config', '--get-all', `remote.${remote}.fetch`])) ?? '').split('\n');
  const out: Check[] = [];
  if (!specs.includes(`+refs/memory/*:refs/memory-remotes/${remote}/*`)) {
    out.push({
      name: 'remote fetch',
      status: 'missing',
      detail: `git fetch from ${remote} does not bring the knowledge (no refs/memory/* refspec)`,
      fix: 'axme init (or axme sync, which adds it)',
    });
  } else out.push({ name: 'remote fetch', status: 'ok', detail: `git fetch from ${remote} brings the knowledge into refs/memory-remotes/${remote}/` });
  // where the store stands against the remote is state, not a fault: said, with what axme sync would do
  const theirs = await git(['rev-parse', '--verify', '-q', `refs/memory-remotes/${remote}/main`]);
  const mine = tip === 'unknown' ? await git(['rev-parse', '--verify', '-q', MEMORY_REF]) : tip;
  const asOf = `(as of the last fetch from ${remote})`;
  const state = (detail: string): Check => ({ name: 'in step', status: 'ok', detail });
  const fetched = specs.includes(`+refs/memory/*:refs/memory-remotes/${remote}/*`);
  if (!theirs && !mine && !fetched)
    // a teammate's fresh clone: git clone brings no refs/memory/*, so what the remote holds is not known here
    out.push(state(`no knowledge here; ${remote}'s is not fetched yet (git clone does not bring it): axme init starts the store from it`));
  else if (!theirs)
    out.push(state(mine ? `${remote} has none of this store's knowledge yet ${asOf}: axme sync shares it` : `no knowledge here or on ${remote} yet ${asOf}`));
  else if (!mine)
    out.push({
      name: 'in step',
      status: 'missing',
      detail: `${remote} has knowledge and this repository has no store`,
      fix: `axme init (it starts from ${remote}'s knowledge)`,
    });
  else if (mine === theirs) out.push(state(`the store is where ${remote}'s is ${asOf}`));
  else {
    const count = async (range: string) => Number((await git(['rev-list', '--count', range])) ?? 0);
    const ahead = await count(`${theirs}..${mine}`);
    const behind = await count(`${mine}..${theirs}`);
    const how = [
      ahead ? `${ahead} commit${ahead === 1 ? '' : 's'} ahead of ${remote} (not shared yet)` : '',
      behind ? `${behind} behind (teammates' knowledge not merged yet)` : '',
    ]
      .filter(Boolean)
      .join(', ');
    out.push(state(`the store is ${how} ${asOf}: axme sync ${ahead && behind ? 'merges both ways' : ahead ? 'shares it' : 'brings it'}`));
  }
  return out;
}

/**
 * Which axme the committed hook commands, git hooks and MCP entry start here (setup/launch.ts:
 * AXME_BIN, the project's node_modules/.bin/axme, axme on PATH), and that it runs. Reads only.
 */
function axmeFoundCheck(root: string, env: NodeJS.ProcessEnv, path: string): Check {
  if (!path)
    return {
      name: 'axme found',
      status: 'problem',
      detail: 'the hook commands find no axme here (no AXME_BIN, no node_modules/.bin/axme, none on PATH): the safety hook blocks every tool call',
      fix: installHintFor(root),
    };
  const node = env.AXME_NODE ? [env.AXME_NODE, path] : [path];
  const v = spawnSync(node[0]!, [...node.slice(1), '--version'], { cwd: root, env, timeout: 15_000, encoding: 'utf8' });
  if (v.status !== 0)
    return {
      name: 'axme found',
      status: 'problem',
      detail: `${node.join(' ')} does not run (${v.error?.message ?? (v.stderr.trim().split('\n')[0] || `exit ${v.status}`)})`,
      fix: `reinstall axme (${installHintFor(root)})${env.AXME_BIN ? ', or fix AXME_BIN' : ''}`,
    };
  const via =
    env.AXME_BIN && path === env.AXME_BIN
      ? 'AXME_BIN'
      : path.endsWith('node_modules/.bin/axme')
        ? "the project's devDependency"
        : env.AXME_NODE
          ? `the launcher axme init recorded in .git/${LAUNCHER_FILE}`
          : 'PATH';
  return { name: 'axme found', status: 'ok', detail: `${path} (${via}), version ${v.stdout.trim()}` };
}

/** The sessions the hooks recorded; orphans are not a setup problem, but worth a word. */
function sessionsCheck(commonDir: string): Check {
  const rows = sessionRows(commonDir);
  if (!rows.length) return { name: 'sessions', status: 'ok', detail: 'none recorded yet (the hooks record them)' };
  const by = (st: string) => rows.filter((r) => r.status === st).length;
  const orphans = by('orphan');
  return {
    name: 'sessions',
    status: 'ok',
    // every status counted, so the parts add up to the whole (a discarded session: one with nothing to keep)
    detail: `${rows.length} on record: ${by('active')} active, ${by('closed')} closed, ${by('recovered')} recovered${by('discarded') ? `, ${by('discarded')} discarded (they recorded nothing)` : ''}${orphans ? `, ${orphans} ended without a close (the MCP server or the next session start recovers them; now: axme session recover --all)` : ''}`,
  };
}

async function rulesCheck(dir: string, env: NodeJS.ProcessEnv): Promise<Check> {
  const kb = await openKnowledgeBase({ cwd: dir, env, backend: 'cli' });
  try {
    const { policy } = await readStorePolicy(kb);
    if (policy.warnings.length)
      return {
        name: 'safety rules',
        status: 'problem',
        detail: policy.warnings.join('; '),
        fix: 'fix safety/rules.yaml (axme safety show; axme safety reset restores the defaults)',
      };
    // a default an earlier axme wrote and no longer ships still applies (the rules are the team's): said, with how to drop it, not a problem
    const retired = retiredDefaultsIn(policy);
    // the entries retired for one reason are named together, the reason said once
    const byReason = new Map<string, { rule_type: string; why: string; values: string[] }>();
    for (const { rule_type, why, value } of retired) {
      const key = `${rule_type} ${why}`;
      if (!byReason.has(key)) byReason.set(key, { rule_type, why, values: [] });
      byReason.get(key)!.values.push(JSON.stringify(value));
    }
    const named = [...byReason.values()].map((g) => `${g.rule_type} ${g.values.join(', ')} (${g.why})`);
    const kept = retired.length
      ? `; kept from an earlier axme's defaults, no longer shipped: ${named.join('; ')}; to drop ${retired.length === 1 ? 'it' : 'them'}: ${retired.map((r) => `axme safety remove ${r.rule_type} ${shellQuote(r.value)}`).join(' && ')}`
      : '';
    return {
      name: 'safety rules',
      status: 'ok',
      detail: `${policy.deniedPrefixes.length} denied prefixes, ${policy.deniedCommands.length} denied commands, ${policy.deniedPaths.length} denied paths; protected: ${policy.protectedBranches.join(', ') || '(none)'}${kept}`,
    };
  } catch (err) {
    return { name: 'safety rules', status: 'problem', detail: `cannot read the store: ${(err as Error).message}`, fix: 'axme fsck' };
  } finally {
    await kb.repo.close();
  }
}

function hookChecks(root: string, env: NodeJS.ProcessEnv): Check[] {
  const { shared: path, local } = claudeSettings(root);
  let settings;
  try {
    settings = readJsonFile(path);
  } catch (err) {
    return [{ name: 'claude hooks', status: 'problem', detail: (err as Error).message, fix: `fix ${path}, then axme init` }];
  }
  if (!settings) return [{ name: 'claude hooks', status: 'missing', detail: `${path} does not exist`, fix: 'axme init' }];
  const out: Check[] = [];
  let localSettings = null;
  try {
    localSettings = readJsonFile(local);
  } catch {
    // a broken personal file is Claude Code's to report; only its disableAllHooks matters here
  }
  for (const [file, v] of [
    [path, settings],
    [local, localSettings],
  ] as const) {
    if (v?.value.disableAllHooks === true)
      out.push({
        name: 'hooks enabled',
        status: 'problem',
        detail: `${file} sets "disableAllHooks": true: no hook runs, no rule is enforced`,
        fix: `remove disableAllHooks from ${file}`,
      });
  }
  const hooks = (settings.value.hooks ?? {}) as Record<string, Array<{ matcher?: string; hooks?: Array<{ command?: string }> }>>;
  let preCommand: string | null = null;
  for (const e of claudeCode.hooks.events) {
    const groups = Array.isArray(hooks[e.event]) ? hooks[e.event]! : [];
    const group = groups.find((g) => Array.isArray(g?.hooks) && g.hooks.some((h) => isAxmeHookCommand(h?.command)));
    const name = `hook ${e.event}`;
    if (!group) {
      out.push({ name, status: 'missing', detail: `no axme ${e.hook} hook in ${path}`, fix: 'axme init' });
      continue;
    }
    const command = group.hooks!.find((h) => isAxmeHookCommand(h?.command))!.command!;
    if (e.event === 'PreToolUse' && group.matcher && !['*', '.*', '.+'].includes(group.matcher)) {
      out.push({
        name,
        status: 'problem',
        detail: `the PreToolUse hook only runs for "${group.matcher}": other tools are not checked`,
        fix: 'remove its matcher (axme init rewrites it)',
      });
    } else out.push({ name, status: 'ok', detail: hookSummary(command) });
    if (e.event === 'PreToolUse') preCommand = command;
  }
  if (preCommand) out.push(preCommand === hookCommand('pre-tool-use') ? liveCheck(preCommand, root, env) : notRunCheck(path));
  return out;
}

/** A hook command as a line of the report: the axme command it runs, not the shell that finds axme (launch.ts) around it. */
function hookSummary(command: string): string {
  const runs = / (hook [a-z-]+(?: --client [a-z-]+)?)/.exec(command)?.[1];
  if (isPortableAxme(command) && runs) return `runs axme ${runs} (found where it runs)`;
  return command.length > 160 ? `${command.slice(0, 157)}...` : command;
}

/**
 * The live check of a pre-tool-use command that is not the one `axme init` writes: not run. The
 * file is committed, so its command is whatever whoever can push to the project chose; the doctor
 * runs only the command it knows (the client asks its person before it runs a project's hooks).
 */
function notRunCheck(path: string): Check {
  return {
    name: 'hook runs',
    status: 'problem',
    detail: `the pre-tool-use command in ${path} is not the one axme init writes (an earlier axme's, a hand edit, or a commit's), so the doctor does not run it: read it before a client runs it`,
    fix: 'axme init (it rewrites the command)',
  };
}

/** Runs the configured pre-tool-use command (the one `axme init` writes) with two real payloads: it must deny one and allow the other. */
function liveCheck(command: string, root: string, env: NodeJS.ProcessEnv): Check {
  const run = (cmd: string) =>
    spawnSync('/bin/sh', ['-c', command], {
      input: JSON.stringify(claudeCode.probe.shellPayload(root, cmd)),
      cwd: root,
      env,
      timeout: 15_000,
      encoding: 'utf8',
    });
  const denied = run('rm -rf /');
  if (claudeCode.probe.decision(denied.stdout) !== 'deny') {
    const why = denied.error
      ? denied.error.message
      : `exit ${denied.status}, stdout ${JSON.stringify(denied.stdout.slice(0, 200))}, stderr ${JSON.stringify(denied.stderr.slice(0, 200))}`;
    return {
      name: 'hook runs',
      status: 'problem',
      detail: `the pre-tool-use command did not deny \`rm -rf /\` (${why})`,
      fix: 'check that the command in .claude/settings.json runs from a shell; axme init rewrites it',
    };
  }
  const allowed = run('git status');
  if (claudeCode.probe.decision(allowed.stdout) !== 'pass')
    return { name: 'hook runs', status: 'problem', detail: `the pre-tool-use command does not allow \`git status\`: ${allowed.stdout.slice(0, 300)}` };
  return { name: 'hook runs', status: 'ok', detail: 'pre-tool-use denies `rm -rf /` and allows `git status`' };
}

function claudeMdCheck(root: string): Check {
  const path = join(root, claudeCode.instructions.file);
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { name: 'CLAUDE.md', status: 'missing', detail: `${path} does not exist`, fix: 'axme init' };
  }
  return text.includes(CLAUDE_MD_START)
    ? { name: 'CLAUDE.md', status: 'ok', detail: 'has the axme section' }
    : { name: 'CLAUDE.md', status: 'missing', detail: 'no axme section', fix: 'axme init' };
}
