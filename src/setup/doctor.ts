import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { readStorePolicy } from '../knowledge/rules/store-policy.ts';
import { openKnowledgeBase } from '../knowledge/core/kb.ts';
import { CLAUDE_MD_START } from '../model/agent-section.ts';
import { MEMORY_REF } from '../model/refs.ts';
import { runGit } from '../store/git.ts';
import { locateRepo, readRefSync } from '../store/locate.ts';
import { isAxmeHookCommand, readJsonFile } from './agent-files.ts';
import type { DoctorCheck } from './clients/adapter.ts';
import { claudeCode } from './clients/claude-code.ts';
import { gitHooksDeclined, GIT_HOOK_NAMES, installedGitHookFiles } from './git-hooks.ts';
import { FIND_AXME, INSTALL_HINT, isPortableAxme, LAUNCHER_FILE } from './launch.ts';
import { claudeSettings } from './paths.ts';
import { clientHookChecks } from './doctor-clients.ts';
import { settingsCheck } from './doctor-settings.ts';
import { sandboxCheck } from './doctor-sandbox.ts';
import { searchModelCheck } from './doctor-models.ts';
import { remoteOf } from './clients/remote.ts';
import { sessionRows } from '../session/list.ts';

/** One line of `axme doctor`. */
export type Check = DoctorCheck;

export interface DoctorReport {
  ok: boolean;
  checks: Check[];
}

/**
 * What is installed and what is missing for an agent to work with axme here: the repository,
 * the store and its rules, the Claude Code hooks (run for real: the pre-tool-use command must
 * deny `rm -rf /` and allow `git status`), the other clients' hooks (doctor-clients.ts), the MCP
 * server entry and the CLAUDE.md section.
 */
export async function doctor(opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<DoctorReport> {
  const checks: Check[] = [];
  const loc = locateRepo(opts.cwd, opts.env);
  if (!loc) {
    checks.push({ name: 'repository', status: 'problem', detail: `no git repository at or above ${opts.cwd}`, fix: 'run axme inside a git repository (git init)' });
    return { ok: false, checks };
  }
  checks.push({ name: 'repository', status: 'ok', detail: loc.worktree ?? `${loc.gitDir} (bare)` });
  const tip = readRefSync(loc.commonDir, MEMORY_REF);
  if (tip === null) checks.push({ name: 'store', status: 'missing', detail: `no ${MEMORY_REF}: the built-in safety rules apply`, fix: 'axme init' });
  else {
    checks.push({ name: 'store', status: 'ok', detail: `${MEMORY_REF} at ${tip === 'unknown' ? '(read through git)' : tip.slice(0, 12)}` });
    checks.push(await rulesCheck(loc.worktree ?? loc.gitDir, opts.env));
    checks.push(await settingsCheck(loc.worktree ?? loc.gitDir, opts.env));
  }
  if (!loc.worktree) return { ok: checks.every((c) => c.status === 'ok'), checks };
  // the axme the committed commands find here (launch.ts), looked up once for the checks that need it
  const [found = '', foundNode = ''] = (spawnSync('/bin/sh', ['-c', `${FIND_AXME}; printf '%s\\n%s' "$a" "$AXME_NODE"`], { cwd: loc.worktree, env: opts.env, timeout: 15_000, encoding: 'utf8' }).stdout ?? '').split('\n');
  checks.push(axmeFoundCheck(loc.worktree, { ...opts.env, ...(foundNode ? { AXME_NODE: foundNode } : {}) }, found));
  checks.push(...hookChecks(loc.worktree, opts.env));
  checks.push(...clientHookChecks(loc.worktree, opts.env));
  checks.push(await sandboxCheck(loc, opts.env));
  checks.push(await gitHooksCheck(loc.worktree, opts.env));
  checks.push(mcpCheck(loc.worktree, found, opts.env));
  checks.push(claudeMdCheck(loc.worktree));
  checks.push(...(await remoteChecks(loc.worktree, opts.env, tip)));
  checks.push(sessionsCheck(loc.commonDir));
  checks.push(searchModelCheck(loc.commonDir, opts.env));
  return { ok: checks.every((c) => c.status === 'ok'), checks };
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
  if (!remote) return remotes.length ? [{ name: 'remote', status: 'ok', detail: `several remotes, none is origin (${remotes.join(', ')}): axme sync <remote> names one` }] : [];
  const specs = ((await git(['config', '--get-all', `remote.${remote}.fetch`])) ?? '').split('\n');
  const out: Check[] = [];
  if (!specs.includes(`+refs/memory/*:refs/memory-remotes/${remote}/*`)) {
    out.push({ name: 'remote fetch', status: 'missing', detail: `git fetch from ${remote} does not bring the knowledge (no refs/memory/* refspec)`, fix: 'axme init (or axme sync, which adds it)' });
  } else out.push({ name: 'remote fetch', status: 'ok', detail: `git fetch from ${remote} brings the knowledge into refs/memory-remotes/${remote}/` });
  const theirs = await git(['rev-parse', '--verify', '-q', `refs/memory-remotes/${remote}/main`]);
  const mine = tip === 'unknown' ? await git(['rev-parse', '--verify', '-q', MEMORY_REF]) : tip;
  const asOf = `(as of the last fetch from ${remote})`;
  if (!theirs) out.push(mine ? { name: 'in step', status: 'problem', detail: `${remote} has none of this store's knowledge ${asOf}`, fix: 'axme sync' } : { name: 'in step', status: 'ok', detail: `no knowledge here or on ${remote} yet` });
  else if (!mine) out.push({ name: 'in step', status: 'problem', detail: `${remote} has knowledge and this repository has no store`, fix: `axme init (it starts from ${remote}'s knowledge)` });
  else if (mine === theirs) out.push({ name: 'in step', status: 'ok', detail: `the store is where ${remote}'s is ${asOf}` });
  else {
    const behind = (await runGit(['merge-base', '--is-ancestor', mine, theirs], { cwd: root, env, allowFail: true })).code === 0;
    const ahead = !behind && (await runGit(['merge-base', '--is-ancestor', theirs, mine], { cwd: root, env, allowFail: true })).code === 0;
    const how = behind ? `behind ${remote}` : ahead ? `ahead of ${remote}: knowledge not shared yet` : `diverged from ${remote}`;
    out.push({ name: 'in step', status: 'problem', detail: `the store is ${how} ${asOf}`, fix: 'axme sync' });
  }
  return out;
}

/**
 * Which axme the committed hook commands, git hooks and MCP entry start here (setup/launch.ts:
 * AXME_BIN, the project's node_modules/.bin/axme, axme on PATH), and that it runs. Reads only.
 */
function axmeFoundCheck(root: string, env: NodeJS.ProcessEnv, path: string): Check {
  if (!path) return { name: 'axme found', status: 'problem', detail: 'the hook commands find no axme here (no AXME_BIN, no node_modules/.bin/axme, none on PATH): the safety hook blocks every tool call', fix: INSTALL_HINT };
  const node = env.AXME_NODE ? [env.AXME_NODE, path] : [path];
  const v = spawnSync(node[0]!, [...node.slice(1), '--version'], { cwd: root, env, timeout: 15_000, encoding: 'utf8' });
  if (v.status !== 0) return { name: 'axme found', status: 'problem', detail: `${node.join(' ')} does not run (${v.error?.message ?? (v.stderr.trim().split('\n')[0] || `exit ${v.status}`)})`, fix: `reinstall axme (${INSTALL_HINT})${env.AXME_BIN ? ', or fix AXME_BIN' : ''}` };
  const via = env.AXME_BIN && path === env.AXME_BIN ? 'AXME_BIN' : path.endsWith('node_modules/.bin/axme') ? "the project's devDependency" : env.AXME_NODE ? `the launcher axme init recorded in .git/${LAUNCHER_FILE}` : 'PATH';
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
    detail: `${rows.length} on record: ${by('active')} active, ${by('closed')} closed, ${by('recovered')} recovered${orphans ? `, ${orphans} ended without a close (the MCP server or the next session start recovers them; now: axme session recover --all)` : ''}`,
  };
}

async function rulesCheck(dir: string, env: NodeJS.ProcessEnv): Promise<Check> {
  const kb = await openKnowledgeBase({ cwd: dir, env, backend: 'cli' });
  try {
    const { policy } = await readStorePolicy(kb);
    if (policy.warnings.length) return { name: 'safety rules', status: 'problem', detail: policy.warnings.join('; '), fix: 'fix safety/rules.yaml (axme safety show; axme safety reset restores the defaults)' };
    return { name: 'safety rules', status: 'ok', detail: `${policy.deniedPrefixes.length} denied prefixes, ${policy.deniedCommands.length} denied commands, ${policy.deniedPaths.length} denied paths; protected: ${policy.protectedBranches.join(', ') || '(none)'}` };
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
  for (const [file, v] of [[path, settings], [local, localSettings]] as const) {
    if (v?.value.disableAllHooks === true) out.push({ name: 'hooks enabled', status: 'problem', detail: `${file} sets "disableAllHooks": true: no hook runs, no rule is enforced`, fix: `remove disableAllHooks from ${file}` });
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
      out.push({ name, status: 'problem', detail: `the PreToolUse hook only runs for "${group.matcher}": other tools are not checked`, fix: 'remove its matcher (axme init rewrites it)' });
    } else out.push({ name, status: 'ok', detail: command });
    if (e.event === 'PreToolUse') preCommand = command;
  }
  if (preCommand) out.push(liveCheck(preCommand, root, env));
  return out;
}

/** Runs the configured pre-tool-use command with two real payloads: it must deny one and allow the other. */
function liveCheck(command: string, root: string, env: NodeJS.ProcessEnv): Check {
  const run = (cmd: string) => spawnSync('/bin/sh', ['-c', command], { input: JSON.stringify(claudeCode.probe.shellPayload(root, cmd)), cwd: root, env, timeout: 15_000, encoding: 'utf8' });
  const denied = run('rm -rf /');
  if (claudeCode.probe.decision(denied.stdout) !== 'deny') {
    const why = denied.error ? denied.error.message : `exit ${denied.status}, stdout ${JSON.stringify(denied.stdout.slice(0, 200))}, stderr ${JSON.stringify(denied.stderr.slice(0, 200))}`;
    return { name: 'hook runs', status: 'problem', detail: `the pre-tool-use command did not deny \`rm -rf /\` (${why})`, fix: 'check that the command in .claude/settings.json runs from a shell; axme init rewrites it' };
  }
  const allowed = run('git status');
  if (claudeCode.probe.decision(allowed.stdout) !== 'pass') return { name: 'hook runs', status: 'problem', detail: `the pre-tool-use command does not allow \`git status\`: ${allowed.stdout.slice(0, 300)}` };
  return { name: 'hook runs', status: 'ok', detail: 'pre-tool-use denies `rm -rf /` and allows `git status`' };
}

async function gitHooksCheck(root: string, env: NodeJS.ProcessEnv): Promise<Check> {
  const files = await installedGitHookFiles({ cwd: root, env }, root);
  const have = files.map((f) => f.hook);
  const missing = GIT_HOOK_NAMES.filter((h) => !have.includes(h));
  // hooks of an earlier version name node and axme by path: on this machine those must exist
  const gone = files.flatMap((f) => (isPortableAxme(f.text) ? [] : [...f.text.matchAll(/(?:^|[\s'"])(\/[^\s'"]*(?:axme\.cjs|\/node))(?=[\s'"]|$)/gm)].map((m) => m[1]!).filter((p) => !existsSync(p)).map((p) => `${f.hook}: ${p}`)));
  if (gone.length) return { name: 'git hooks', status: 'problem', detail: `installed by an earlier axme, they run files missing on this machine (${[...new Set(gone)].join(', ')})`, fix: 'axme init (it writes hooks that find axme on any machine)' };
  if (missing.length === GIT_HOOK_NAMES.length && (await gitHooksDeclined({ cwd: root, env }))) {
    return { name: 'git hooks', status: 'ok', detail: 'not installed, as chosen (axme init --no-git-hooks); axme init --git-hooks installs them' };
  }
  return missing.length
    ? { name: 'git hooks', status: 'missing', detail: `not installed: ${missing.join(', ')}`, fix: 'axme init' }
    : { name: 'git hooks', status: 'ok', detail: GIT_HOOK_NAMES.join(', ') };
}

function mcpCheck(root: string, found: string, env: NodeJS.ProcessEnv): Check {
  const path = join(root, claudeCode.mcp.file);
  try {
    const mcp = readJsonFile(path);
    const server = (mcp?.value.mcpServers as Record<string, { command?: string; args?: string[] }> | undefined)?.axme;
    if (!server) return { name: 'mcp server', status: 'missing', detail: `no "axme" server in ${path}`, fix: 'axme init' };
    // a team's axme serve --http (axme init --mcp-url): the token must be in the environment the client starts in
    const remote = remoteOf(server as Record<string, unknown>);
    if (remote) {
      const at = `a team's server at ${remote.url}`;
      if (!remote.tokenEnv) return { name: 'mcp server', status: 'ok', detail: `${at}, without a token` };
      if (!env[remote.tokenEnv]) return { name: 'mcp server', status: 'problem', detail: `${at}: its token comes from $${remote.tokenEnv}, which is not set here, so the server would refuse Claude Code (401)`, fix: `export ${remote.tokenEnv}=<the token \`axme token add <name>\` printed on the server> before starting the client` };
      return { name: 'mcp server', status: 'ok', detail: `${at}, token from $${remote.tokenEnv}` };
    }
    const line = [server.command, ...(server.args ?? [])].join(' ');
    // an entry of an earlier axme names files by path: they must exist on this machine
    const gone = [server.command, ...(server.args ?? [])].filter((a): a is string => typeof a === 'string' && isAbsolute(a) && !existsSync(a));
    if (gone.length) return { name: 'mcp server', status: 'problem', detail: `${line}: ${gone.join(', ')} does not exist on this machine`, fix: 'axme init (it writes an entry that finds axme on any machine)' };
    if (server.command === 'sh' && isPortableAxme(server.args?.at(-1) ?? '')) {
      if (!found) return { name: 'mcp server', status: 'problem', detail: 'the entry finds no axme on this machine', fix: INSTALL_HINT };
      return { name: 'mcp server', status: 'ok', detail: `starts ${found} serve` };
    }
    return { name: 'mcp server', status: 'ok', detail: line };
  } catch (err) {
    return { name: 'mcp server', status: 'problem', detail: (err as Error).message, fix: `fix ${path}` };
  }
}

function claudeMdCheck(root: string): Check {
  const path = join(root, claudeCode.instructions.file);
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { name: 'CLAUDE.md', status: 'missing', detail: `${path} does not exist`, fix: 'axme init' };
  }
  return text.includes(CLAUDE_MD_START) ? { name: 'CLAUDE.md', status: 'ok', detail: 'has the axme section' } : { name: 'CLAUDE.md', status: 'missing', detail: 'no axme section', fix: 'axme init' };
}
