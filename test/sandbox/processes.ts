// What a user's `ps`, `pgrep -f` and `pkill -f` see of the sandbox's processes: for the tests of
// which paths stay off command lines.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Every process's command line (its arguments joined by spaces), by id. */
export function commandLines(): Map<number, string> {
  const out = new Map<number, string>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      out.set(Number(name), readFileSync(join('/proc', name, 'cmdline'), 'utf8').replaceAll('\0', ' '));
    } catch {
      // ended meanwhile
    }
  }
  return out;
}

/** The ids of `root` and every process under it. */
export function tree(root: number): Set<number> {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const ppid = Number(/^PPid:\s+(\d+)$/m.exec(readFileSync(join('/proc', name, 'status'), 'utf8'))?.[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // ended meanwhile
    }
  }
  const out = new Set<number>();
  const walk = (p: number) => {
    out.add(p);
    for (const c of children.get(p) ?? []) walk(c);
  };
  walk(root);
  return out;
}

/**
 * Starts `argv` (a shell running a sandboxed command that prints `started`, then reads a line) and
 * resolves once it has started: its id, and `finish(line)`, which hands it the line and waits for
 * its end (a command a `pkill` ended reads nothing more).
 */
export async function startedCommand(
  argv: readonly string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ pid: number; finish(line: string): Promise<{ stdout: string; stderr: string; status: number | null }> }> {
  const child = spawn(argv[0]!, argv.slice(1), { cwd: opts.cwd, env: opts.env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdin.on('error', () => {});
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  await new Promise<void>((resolve) =>
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (stdout.includes('started\n')) resolve();
    }),
  );
  return {
    pid: child.pid!,
    finish: async (line) => {
      child.stdin.end(line);
      const status = await closed;
      return { stdout, stderr, status };
    },
  };
}
