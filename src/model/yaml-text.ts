import { parse } from 'yaml';

/**
 * YAML text to a value: the reader of machine-local settings files (the sandbox's) for the CLI and
 * the hooks' heavy half, which hold a YAML parser anyway. The hook's fast path reaches it only
 * through that half (hooks/store-work.ts), so its own bundle carries none.
 */
export async function parseYamlText(text: string): Promise<unknown> {
  return parse(text);
}
