import { homedir } from 'node:os';
import { parseYamlText } from '../model/yaml-text.ts';
import type { RepoLocation } from '../store/locate.ts';
import type { DoctorCheck } from './clients/adapter.ts';
import { CLAUDE_SHELL_PREFIX } from './clients/claude-code.hook.ts';
import { readJsonFile } from './json-file.ts';
import { claudeSettings } from './paths.ts';
import { openSandbox, sandboxShellInstalled, sandboxShellPath } from './sandbox.ts';

/**
 * Doctor's `sandbox` check: whether the shell commands agents run here go through the kernel
 * sandbox (docs/safety.md), and each client's way in — Claude Code through the shell prefix its
 * personal settings name, Codex and Gemini CLI through the command the hook hands back. Off for
 * lack of bubblewrap is `missing` with the install line; required but unable to start, a problem.
 */
export async function sandboxCheck(loc: RepoLocation, env: NodeJS.ProcessEnv): Promise<DoctorCheck> {
  const root = loc.worktree ?? loc.gitDir;
  const sandbox = await openSandbox({ loc, cwd: root, home: env.HOME || homedir(), env, parseYaml: parseYamlText });
  const problems = sandbox.settings.problems;
  const { state, settings } = sandbox;
  if (!state.on) {
    const detail = `${state.why}${problems.length ? `; ${problems.join('; ')}` : ''}`;
    if (state.chosen) return { name: 'sandbox', status: 'ok', detail };
    if (state.required)
      return {
        name: 'sandbox',
        status: 'problem',
        detail: `required (sandbox.mode: required), and ${detail}: shell commands are denied`,
        ...(state.fix ? { fix: state.fix } : {}),
      };
    return { name: 'sandbox', status: process.platform === 'linux' ? 'missing' : 'ok', detail, ...(state.fix ? { fix: state.fix } : {}) };
  }
  const policy = sandbox.policy(root);
  const parts = [
    `on: shell commands run in bubblewrap (${state.bwrap}), mode ${settings.mode}, network ${policy.network}${policy.network === 'allowlist' ? ` (${settings.domains.join(', ') || 'no host'})` : ''}`,
    `${policy.writable.length} writable folders, ${policy.readOnly.length} guarded paths read-only, ${policy.hiddenDirs.length + policy.hiddenFiles.length} secrets unreadable`,
  ];
  let local: { env?: Record<string, unknown> } | undefined;
  try {
    local = readJsonFile(claudeSettings(root).local)?.value as typeof local;
  } catch (err) {
    return {
      name: 'sandbox',
      status: 'problem',
      detail: `${parts.join('; ')}; but ${(err as Error).message}`,
      fix: 'fix .claude/settings.local.json, then axme init',
    };
  }
  const prefix = local?.env?.[CLAUDE_SHELL_PREFIX];
  const shell = sandboxShellPath(loc);
  if (prefix === shell && sandboxShellInstalled(loc)) parts.push('Claude Code through its shell prefix');
  else if (prefix === undefined) {
    return {
      name: 'sandbox',
      status: 'missing',
      detail: `${parts.join('; ')}; but Claude Code's commands do not go through it (no ${CLAUDE_SHELL_PREFIX} in .claude/settings.local.json)`,
      fix: 'axme init',
    };
  } else {
    return {
      name: 'sandbox',
      status: 'problem',
      detail: `${parts.join('; ')}; but ${CLAUDE_SHELL_PREFIX} in .claude/settings.local.json names ${String(prefix)}, not ${shell}${sandboxShellInstalled(loc) ? '' : ' (which is not there)'}`,
      fix: 'axme init',
    };
  }
  parts.push('Codex and Gemini CLI through the command the hook hands back');
  if (problems.length)
    return {
      name: 'sandbox',
      status: 'problem',
      detail: `${parts.join('; ')}; ${problems.join('; ')}`,
      fix: 'fix the settings file it names (docs/settings.md)',
    };
  return { name: 'sandbox', status: 'ok', detail: parts.join('; ') };
}
