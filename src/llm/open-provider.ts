import { chooseProvider } from './choose-provider.ts';
import type { LlmProvider, ProviderConfig } from './types.ts';

/**
 * The provider `cfg` chooses (`chooseProvider`, with `claude` looked up in `env.PATH`), ready to
 * answer; null for `none`. Each provider's module (and its SDK) is loaded here with `import()`,
 * so importing `src/llm/` costs nothing at start-up. Throws AxmeError CONFIG when the chosen
 * provider cannot work as set up (no key, no model for a server of your own, no `claude`).
 */
export async function openProvider(cfg: ProviderConfig, env: NodeJS.ProcessEnv): Promise<LlmProvider | null> {
  const { name } = chooseProvider(cfg, env);
  switch (name) {
    case 'none':
      return null;
    case 'anthropic':
      return (await import('./anthropic.ts')).anthropicProvider(cfg, env);
    case 'openai':
      return (await import('./openai.ts')).openaiProvider(cfg, env);
    case 'claude-cli':
      return (await import('./claude-cli.ts')).claudeCliProvider(cfg, env);
  }
}
