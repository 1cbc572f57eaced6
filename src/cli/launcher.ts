import { readFileSync, writeSync } from 'node:fs';
import { processHookIO } from '../hooks/io.ts';
import { GIT_HOOK_NAMES, HOOK_CLIENT_NAMES, type HookClientName } from '../model/hook-names.ts';
import { HOOK_PROTOCOLS } from '../hooks/protocols.ts';
import { runHook } from '../hooks/run.ts';

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

async function hook(event: string, client: HookClientName): Promise<void> {
  const io = processHookIO({
    client,
    stdin: readStdin(),
    // plain descriptor writes: touching process.stdout on a pipe loads the net stack (~2 ms)
    stdout: (t) => writeAll(1, t),
    stderr: (t) => writeAll(2, t),
    env: process.env,
    cwd: process.cwd(),
    loadStoreWork: () => import(HOOK_STORE_WORK),
  });
  const deadline = Number(process.env.AXME_HOOK_DEADLINE_MS) || undefined;
  const code = await runHook(event, io, deadline);
  // pending handles (a git child, a socket) must not keep the harness waiting
  process.exit(code);
}

/**
 * The client of `axme hook <event> [--client <name>]` from the words after the event: Claude
 * Code's when none is given, undefined for anything else (the full CLI then explains it; an
 * unknown client's safety hook exits 2 there, which every client takes as "blocked").
 */
function hookClient(rest: string[]): HookClientName | undefined {
  if (!rest.length) return 'claude-code';
  const name = rest.length === 2 && rest[0] === '--client' ? rest[1] : rest.length === 1 && rest[0]!.startsWith('--client=') ? rest[0]!.slice('--client='.length) : undefined;
  return (HOOK_CLIENT_NAMES as readonly string[]).includes(name ?? '') ? (name as HookClientName) : undefined;
}

const args = process.argv.slice(2);
if (args[0] === 'git-hook' && args.length >= 2 && (GIT_HOOK_NAMES as readonly string[]).includes(args[1]!) && !args.includes('--help')) {
  const name = args[1]!;
  (require(GIT_HOOK) as typeof import('./git-hook-main.ts')).gitHook(name, args.slice(2), { readStdin, writeAll, storeWork: HOOK_STORE_WORK }).catch((err: unknown) => {
    writeAll(2, `axme git-hook ${name}: internal error: ${(err as Error)?.message ?? String(err)}\n`);
    // the blocking hooks fail closed; the informational ones never stop git
    process.exit(name === 'commit-msg' || name === 'pre-push' ? 1 : 0);
  });
} else if (args[0] === 'hook' && args.length >= 2 && !args[1]!.startsWith('-') && hookClient(args.slice(2)) !== undefined) {
  const event = args[1]!;
  const client = hookClient(args.slice(2))!;
  hook(event, client).catch((err: unknown) => {
    // runHook answers every failure itself; this is the last guard: never leave a call unanswered
    const msg = `axme hook ${event}: internal error: ${(err as Error)?.message ?? String(err)}`;
    if (event === 'pre-tool-use') writeAll(1, HOOK_PROTOCOLS[client].deny(`${msg}; the call was denied to stay safe. Run \`axme doctor\``));
    else writeAll(2, `${msg}\n`);
    process.exit(event === 'pre-tool-use' ? 0 : 1);
  });
} else {
  (require(CLI_LOADER) as typeof import('./cli-loader.ts')).loadCli(__dirname, process.env, args);
}
