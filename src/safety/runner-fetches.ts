import { operandAt } from './argv.ts';
import { DENO_VALUED, RUN_SUBS, RUNNER_VALUED, runnerValued, SHELL_LINE_RUNNERS } from './runner-words.ts';

/** A package spec a runner fetches from a URL, not a registry: a tarball or a git repository (`https://h/x.tgz`, `git+https://…`, `github:u/r`). */
const URL_SPEC = /^(?:https?:\/\/|git\+[a-z]+:\/\/|git:\/\/|(?:github|gitlab|bitbucket|gist):)/i;

/** deno's permissions that let a program do what a shell may: all of them, running programs, writing files, native code. */
const DENO_SHELL_PERMISSIONS = /^(?:-A|--allow-all|--allow-run|--allow-write|--allow-ffi)(?:=.*)?$/;

/**
 * The URL a runner fetches code from and runs it unread, as `curl URL | sh` does: `deno run -A
 * https://…` (with a permission that lets it do what a shell may: `-A`, `--allow-run`,
 * `--allow-write`, `--allow-ffi`; without one deno runs it in its sandbox), `bun run https://…`,
 * `npx https://…/x.tgz`, `npx github:u/r` (also `-p URL`, `npm exec`, `pnpm dlx`, `yarn dlx`,
 * `bunx`). Null for a registry's package or a local file.
 */
export function fetchedCode(program: string, args: readonly string[]): string | null {
  if (program === 'deno') {
    const sub = operandAt(args, DENO_VALUED);
    const at = args[sub] === 'run' ? operandAt(args, DENO_VALUED, sub + 1) : sub;
    const spec = at < 0 ? '' : args[at]!;
    return /^https?:\/\//.test(spec) && args.slice(0, at).some((a) => DENO_SHELL_PERMISSIONS.test(a)) ? spec : null;
  }
  if (program === 'bun') {
    const sub = operandAt(args, RUNNER_VALUED);
    const at = args[sub] === 'run' ? operandAt(args, RUNNER_VALUED, sub + 1) : sub;
    return at >= 0 && /^https?:\/\//.test(args[at]!) ? args[at]! : null;
  }
  const subs = RUN_SUBS[program];
  if (!subs || (!SHELL_LINE_RUNNERS.has(program) && program !== 'bunx' && program !== 'yarn')) return null;
  const valued = runnerValued(program);
  let from = 0;
  if (subs !== 'direct') {
    const sub = operandAt(args, valued);
    if (sub < 0 || !subs.has(args[sub]!) || args[sub] === 'run' || (args[sub] === 'exec' && program !== 'npm')) return null;
    from = sub + 1;
  }
  for (let i = from; i < args.length && args[i] !== '--'; i++) {
    const a = args[i]!;
    const value = a === '-p' || a === '--package' ? args[++i] : a.startsWith('--package=') ? a.slice('--package='.length) : a;
    if (value && URL_SPEC.test(value)) return value;
    if (!a.startsWith('-')) return null;
    if (valued.has(a)) i++;
  }
  return null;
}
