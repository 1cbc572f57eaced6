import { readFileSync, writeSync } from 'node:fs';
import { GIT_HOOK_NAMES } from '../model/hook-names.ts';

/**
 * The `axme` executable, built as CommonJS (dist/axme.cjs). `axme hook <event>` and `axme
 * git-hook <name>` run here on the fast path — no yargs, zod, MCP SDK or isomorphic-git, and no
 * ES-module loader start-up — since Claude Code runs pre-tool-use before every tool call and git
 * runs its hooks on every commit and push. Everything else loads the full CLI.
 */

declare const AXME_VERSION: string | undefined;

// the heavy parts are files next to this one, loaded at run time: the CLI bundle through its
// loader (dist/cli-loader.cjs: a code cache, so the bundle is not parsed on every start), and
// the slow hook paths (an ES module)
const CLI_LOADER = './cli-loader.cjs';
// the git hooks' code: its own small file, so that the agent's hook does not parse it on every tool call
const GIT_HOOK = './git-hook.cjs';
const HOOK_STORE_WORK = './hook-store-work.js';
// `axme search` at the memory tip: the index file read, no store opened (docs/search.md)

function readStdin(): string {
  try {
    return readFileSync(0, 'utf8');
  } catch (err) {
    // no stdin at all (closed descriptor): an empty payload, which each hook reports
    if ((err as NodeJS.ErrnoException).code === 'EAGAIN' || (err as NodeJS.ErrnoException).code === 'EOF') return '';
    throw err;
  }
}

function writeAll(fd: number, text: string): void {
  const buf = Buffer.from(text);
  for (let off = 0; off < buf.length; ) {
    try {
      off += writeSync(fd, buf, off);
    } catch (err) {
      // a non-blocking pipe that is full: try again; a closed one: nobody is listening
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') return;
    }
  }
}

/**
 * The client of `axme hook <event> [--client <name>]` from the words after the event: Claude
 * Code's when none is given, undefined for any other words (the full CLI then explains them).
 * Whether axme speaks that client's protocol is the hook bundle's to say (its adapters'
 * registry): a name it does not know goes to the full CLI too, where an unknown client's safety
 * hook exits 2, which every client takes as "blocked".
 */
function hookClient(rest: string[]): string | undefined {
  if (!rest.length) return 'claude-code';
  const name =
    rest.length === 2 && rest[0] === '--client'
      ? rest[1]
      : rest.length === 1 && rest[0]!.startsWith('--client=')
        ? rest[0]!.slice('--client='.length)
        : undefined;
  return name || undefined;
}

/** `axme search` answered at the tip (tip-search-main.ts); false when the full CLI must answer (it then prints everything). */
function tipSearched(rest: string[]): boolean {
  try {
    return (require(CLI_LOADER) as typeof import('./cli-loader.ts'))
      .loadTipSearch(__dirname, process.env)
      .tipSearch(rest, { cwd: process.cwd(), env: process.env, write: (t) => writeAll(1, t), note: (t) => writeAll(2, t) });
  } catch {
    // the fast path's own failure: the full CLI answers (and reports what is wrong)
    return false;
  }
}

/** `axme hook <event> [--client <name>]` for an agent client: the prompt hook's own bundle for a prompt, the hooks' bundle for the rest. */
function agentHook(event: string, client: string): void {
  if (event === 'user-prompt-submit' && promptHooked(client)) return;
  let hook: typeof import('./hook-main.ts') | undefined;
  try {
    // the hooks and the safety engine: dist/hook.cjs, compiled from its code cache (cli-loader.ts)
    hook = (require(CLI_LOADER) as typeof import('./cli-loader.ts')).loadHook(__dirname, process.env);
  } catch (err) {
    // the hook code itself could not be loaded: a broken install. Exit 2 blocks the call in every
    // client (pre-tool-use fails closed); the other hooks report it and do nothing
    writeAll(
      2,
      `axme hook ${event}: axme could not load its hook code (${(err as Error)?.message ?? String(err)}); ${event === 'pre-tool-use' ? 'the call is blocked. ' : ''}Reinstall axme, then run \`axme doctor\`\n`,
    );
    process.exit(event === 'pre-tool-use' ? 2 : 1);
  }
  if (hook.isHookClient(client))
    void hook.hookMain(event, client, {
      readStdin,
      writeAll,
      loadStoreWork: () => import(HOOK_STORE_WORK),
      loadTipSearch: () => (require(CLI_LOADER) as typeof import('./cli-loader.ts')).loadTipSearch(__dirname, process.env),
    });
  else (require(CLI_LOADER) as typeof import('./cli-loader.ts')).loadCli(__dirname, process.env, process.argv.slice(2));
}

/**
 * `axme hook user-prompt-submit` answered by the prompt hook's bundle (dist/prompt-hook.cjs: the
 * prompt's recall and the query at the tip, without the other hooks and the safety engine); false
 * when that bundle cannot be loaded: the hooks' bundle then answers, as it does every other event.
 */
function promptHooked(client: string): boolean {
  const loader = require(CLI_LOADER) as typeof import('./cli-loader.ts');
  let prompt: typeof import('./prompt-hook-main.ts');
  try {
    prompt = loader.loadPromptHook(__dirname, process.env);
  } catch {
    loader.optimizeAgain();
    return false;
  }
  const loadStoreWork = () => {
    // the store's path (it may build the whole index): optimized code pays for itself there
    loader.optimizeAgain();
    return import(HOOK_STORE_WORK);
  };
  if (prompt.isHookClient(client)) void prompt.promptHookMain(client, { readStdin, writeAll, loadStoreWork });
  else {
    loader.optimizeAgain();
    loader.loadCli(__dirname, process.env, process.argv.slice(2));
  }
  return true;
}

const args = process.argv.slice(2);
if (args[0] === 'git-hook' && args.length >= 2 && (GIT_HOOK_NAMES as readonly string[]).includes(args[1]!) && !args.includes('--help')) {
  const name = args[1]!;
  (require(GIT_HOOK) as typeof import('./git-hook-main.ts'))
    .gitHook(name, args.slice(2), { readStdin, writeAll, storeWork: HOOK_STORE_WORK })
    .catch((err: unknown) => {
      writeAll(2, `axme git-hook ${name}: internal error: ${(err as Error)?.message ?? String(err)}\n`);
      // the blocking hooks fail closed; the informational ones never stop git
      process.exit(name === 'commit-msg' || name === 'pre-push' ? 1 : 0);
    });
} else if (args[0] === 'hook' && args.length >= 2 && !args[1]!.startsWith('-') && hookClient(args.slice(2)) !== undefined) {
  agentHook(args[1]!, hookClient(args.slice(2))!);
} else if (args[0] === 'search' && tipSearched(args.slice(1))) {
  // answered from the tip's index file
} else {
  (require(CLI_LOADER) as typeof import('./cli-loader.ts')).loadCli(__dirname, process.env, args);
}
