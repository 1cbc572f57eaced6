import { findOnPath } from '../model/on-path.ts';
import type { ProviderConfig, ProviderName } from './types.ts';

/**
 * Which provider answers, and why, in words for the audit log. A provider named in the config is
 * used as is; `auto` takes the first that can work here: `claude-cli` when `claude` (or
 * `claudePath`) is found by `has` (default: an executable in `env.PATH`), else `anthropic` when ANTHROPIC_API_KEY is set, else `openai`
 * when OPENAI_API_KEY or OPENAI_BASE_URL is set, else `none`.
 */
export function chooseProvider(
  cfg: ProviderConfig,
  env: NodeJS.ProcessEnv,
  has = (cmd: string) => findOnPath(cmd, env) !== null,
): { name: ProviderName; why: string } {
  if (cfg.provider !== 'auto') return { name: cfg.provider, why: `the auditor's provider is set to ${cfg.provider}` };
  const claude = cfg.claudePath ?? 'claude';
  if (has(claude))
    return {
      name: 'claude-cli',
      why: `auto: ${cfg.claudePath ? claude : '`claude`'} is ${cfg.claudePath ? 'executable' : 'on PATH'} (Claude Code's own login is used)`,
    };
  if (set(env.ANTHROPIC_API_KEY)) return { name: 'anthropic', why: 'auto: `claude` is not on PATH and ANTHROPIC_API_KEY is set' };
  if (set(env.OPENAI_API_KEY)) return { name: 'openai', why: 'auto: `claude` is not on PATH, ANTHROPIC_API_KEY is not set and OPENAI_API_KEY is' };
  if (set(env.OPENAI_BASE_URL))
    return { name: 'openai', why: `auto: \`claude\` is not on PATH, no API key is set and OPENAI_BASE_URL names a server (${env.OPENAI_BASE_URL})` };
  return {
    name: 'none',
    why: 'auto: no model available: `claude` is not on PATH and none of ANTHROPIC_API_KEY, OPENAI_API_KEY, OPENAI_BASE_URL is set (set one, or auditor.provider in .git/axme/config.yaml or ~/.config/axme/config.yaml: axme.yaml cannot choose it, docs/settings.md)',
  };
}

function set(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== '';
}
