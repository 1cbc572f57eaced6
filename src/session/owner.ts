import { readFileSync } from 'node:fs';
import { SANDBOX_OUTER_PIDS_ENV } from '../model/sandbox.ts';
import { proc } from '../store/processes.ts';

/** Whether a process runs, when it started: defined with the store's locks (which ask the same). */
export { processAlive, processStart } from '../store/processes.ts';

/**
 * Which harness process a hook or git command runs under, from the process tree (Linux /proc;
 * elsewhere only the parent is known). Claude Code runs hook commands and Bash tool commands
 * through a shell, so the harness is the first ancestor that is not a shell.
 */

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'ash', 'fish', 'timeout', 'env']);

/** The process ids above `pid`, nearest first (at most 64; empty where /proc is missing). */
export function ancestors(pid: number): number[] {
  const out: number[] = [];
  for (let p = proc(pid)?.ppid ?? 0; p > 1 && out.length < 64; p = proc(p)?.ppid ?? 0) out.push(p);
  return out;
}

/**
 * The ancestors outside the sandbox of a process inside it (SANDBOX_OUTER_PIDS_ENV, which the
 * sandbox's start sets from /proc before bubblewrap hides them), or none: read only where the
 * process namespace's first process is bubblewrap, so outside a sandbox the variable means nothing.
 */
export function outerAncestors(env: NodeJS.ProcessEnv): number[] {
  const listed = env[SANDBOX_OUTER_PIDS_ENV];
  if (!listed || proc(1)?.comm !== 'bwrap') return [];
  return listed
    .trim()
    .split(/\s+/)
    .map(Number)
    .filter((p) => Number.isInteger(p) && p > 1)
    .slice(0, 64);
}

/** A process's arguments (Linux /proc), or null where they cannot be read. */
function argv(pid: number): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, -1);
  } catch {
    return null;
  }
}

/** A shell that runs one command string (`sh -c <command>`, `bash -lc ...`): what a harness runs its hook commands in. */
function commandShell(args: string[]): boolean {
  return args.slice(1).some((a) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(a));
}

/**
 * The arguments of the nearest process above `pid` whose name is `comm` (`git`: the command a git
 * hook runs under, as it was started), within `hops` processes; null where there is none or /proc
 * is missing.
 */
export function ancestorArgv(pid: number, comm: string, hops = 8): string[] | null {
  for (const p of ancestors(pid).slice(0, hops)) if (proc(p)?.comm === comm) return argv(p);
  return null;
}

/**
 * The harness process above a hook whose parent is `ppid`, or null when there is none: the first
 * ancestor that is not a shell, past the command shells (`sh -c ...`) a harness runs its hook
 * commands in. A shell a person types in (no `-c`) ends the search with null: a hook fed by hand
 * from a terminal opens a session no process owns, so that terminal's later commands — which
 * all descend from the shell and whatever started it — are never taken for an agent's.
 * Without /proc, the parent.
 */
export function harnessOf(ppid: number): number | null {
  for (let p = ppid, hops = 0; p > 1 && hops < 16; hops++) {
    const info = proc(p);
    if (!info) return p;
    if (!SHELLS.has(info.comm)) return p;
    const args = argv(p);
    if (args && !commandShell(args) && info.comm !== 'timeout' && info.comm !== 'env') return null;
    p = info.ppid;
  }
  return null;
}

/** The harness above a hook whose parent is `ppid`: the first ancestor that is not a shell. */
export function harnessPid(ppid: number): number {
  for (let p = ppid, hops = 0; p > 1 && hops < 16; hops++) {
    const info = proc(p);
    if (!info) return p;
    if (!SHELLS.has(info.comm)) return p;
    p = info.ppid;
  }
  return ppid;
}
