import type { Invocation } from './command.ts';
import { generic, type PathUse, use } from './path-access.ts';
import { plainWord } from './syntax.ts';

/**
 * The agent clients' own commands that write the files their hooks and MCP servers are installed
 * in (docs/safety.md, "The guard rail's own state"): `claude mcp add|add-json|remove --scope
 * project` writes the project's `.mcp.json`; `gemini mcp add|remove` its `.gemini/settings.json`
 * (the project's by default, the home's with `--scope user`); `codex mcp add|remove` the home's
 * `~/.codex/config.toml`. Each is a write of that file, judged as an `echo … >> .mcp.json` is; the
 * clients' listings (`claude mcp list`, `codex mcp get x`) and their other words are read as any
 * program's.
 */

/** The subcommands of `<client> mcp` that write its settings. */
const WRITING = new Set(['add', 'add-json', 'add-from-claude-desktop', 'remove', 'rm']);

/** The value of `-s`/`--scope` (`--scope=project` too); null when not given. */
function scope(args: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    if (a === '-s' || a === '--scope') return args[i + 1] ?? null;
    if (a.startsWith('--scope=')) return a.slice('--scope='.length);
  }
  return null;
}

/** The settings file a client's `mcp` command writes, or null (`claude mcp add` of the local or user scope writes `~/.claude.json`, no hook file). */
function writtenFile(program: string, args: readonly string[]): string | null {
  const mcp = args.indexOf('mcp');
  if (mcp !== 0 || !WRITING.has(args[1] ?? '')) return null;
  const s = scope(args.slice(2));
  if (program === 'claude') return s === 'project' ? '.mcp.json' : null;
  if (program === 'gemini') return s === 'user' ? '~/.gemini/settings.json' : '.gemini/settings.json';
  if (program === 'codex') return '~/.codex/config.toml';
  return null;
}

/** What `claude`, `codex` and `gemini` do with paths: the settings file an `mcp` command writes (writtenFile), else what any program does. */
function clientUses(inv: Invocation): PathUse[] {
  const file = writtenFile(
    inv.program,
    inv.args.map((w) => w.value),
  );
  return file ? [use(plainWord(file), file, 'write')] : generic(inv);
}

export const CLIENT_CONFIG_USES: Record<string, (inv: Invocation) => PathUse[]> = {
  claude: clientUses,
  codex: clientUses,
  gemini: clientUses,
};
