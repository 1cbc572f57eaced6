import { operandAt } from './argv.ts';
import { DENO_VALUED, RUNNER_VALUED, runnerValued } from './runner-words.ts';

/** A package spec a runner fetches from a URL, not a registry: a tarball or a git repository (`https://h/x.tgz`, `git+https://…`, `github:u/r`). */
const URL_SPEC = /^(?:https?:\/\/|git\+[a-z]+:\/\/|git:\/\/|(?:github|gitlab|bitbucket|gist):)/i;

/** deno's permissions that let a program do what a shell may: all of them, running programs, writing files, native code. */
const DENO_SHELL_PERMISSIONS = /^(?:-A|--allow-all|--allow-run|--allow-write|--allow-ffi)(?:=.*)?$/;

/**
 * The runners that fetch the package they run, and the subcommand words that do (`direct`: the
 * runner's first operand is the package): npm's family, bun's, and Python's (`uvx`, `uv tool run`,
 * `uv run`, which runs a script from a URL too, `pipx run`). `yarn run`, `pnpm exec`, `bundle exec`
 * and the other environment runners start what is installed already.
 */
const FETCHING: Record<string, ReadonlySet<string> | 'direct'> = {
  npx: 'direct',
  pnpx: 'direct',
  bunx: 'direct',
  uvx: 'direct',
  npm: new Set(['exec', 'x']),
  pnpm: new Set(['dlx']),
  yarn: new Set(['dlx']),
  bun: new Set(['x', 'run']),
  uv: new Set(['run', 'tool']),
  pipx: new Set(['run']),
};

/** Options naming the package a runner fetches besides the one it starts: npm's `-p`/`--package`, uv's `--from`/`--with`, pipx's `--spec`. */
const SPEC_OPTIONS = new Set(['-p', '--package', '--from', '--with', '--with-editable', '--spec']);

/**
 * The URL a runner fetches code from and runs it unread, as `curl URL | sh` does: `deno run -A
 * https://…` (with a permission that lets it do what a shell may: `-A`, `--allow-run`,
 * `--allow-write`, `--allow-ffi`; without one deno runs it in its sandbox), `bun run https://…`,
 * `npx https://…/x.tgz`, `npx github:u/r` (also `-p URL`, `npm exec [--] URL`, `pnpm dlx`,
 * `yarn dlx`, `bunx`, `bun x`), `uvx git+https://…`, `uvx --from git+https://… tool`, `uv run
 * --with git+https://… …`, `uv run https://…/x.py`, `pipx run --spec git+https://… tool`, `pipx run
 * https://…/x.py`. Null for a registry's package or a local file.
 */
export function fetchedCode(program: string, args: readonly string[]): string | null {
  if (program === 'deno') {
    const sub = operandAt(args, DENO_VALUED);
    // `deno eval CODE` runs with every permission: a URL its code imports is fetched and run
    if (args[sub] === 'eval') return importedUrl(args[operandAt(args, DENO_VALUED, sub + 1)] ?? '');
    const at = args[sub] === 'run' ? operandAt(args, DENO_VALUED, sub + 1) : sub;
    const spec = at < 0 ? '' : args[at]!;
    // `npm:github:u/r`, `npm:git+https://…`: an npm specifier naming a repository, not the registry
    const fetched = /^https?:\/\//.test(spec) ? spec : spec.startsWith('npm:') && URL_SPEC.test(spec.slice(4)) ? spec.slice(4) : null;
    return fetched && args.slice(0, at).some((a) => DENO_SHELL_PERMISSIONS.test(a)) ? fetched : null;
  }
  const subs = FETCHING[program];
  if (!subs) return null;
  const valued = new Set([...runnerValued(program), ...SPEC_OPTIONS]);
  let from = 0;
  if (subs !== 'direct') {
    const sub = operandAt(args, program === 'bun' ? RUNNER_VALUED : valued);
    // `bun https://…`: bun runs a file or URL named first as `bun run` does
    if (program === 'bun' && sub >= 0 && /^https?:\/\//.test(args[sub]!)) return args[sub]!;
    if (sub < 0 || !subs.has(args[sub]!)) return null;
    // `uv tool run`: uvx's long name; `uv tool install` runs nothing
    if (args[sub] === 'tool' && args[sub + 1] !== 'run') return null;
    from = args[sub] === 'tool' ? sub + 2 : sub + 1;
  }
  for (let i = from; i < args.length; i++) {
    const a = args[i]!;
    // `npm exec --yes -- github:u/r`: the package after the end of the runner's options
    if (a === '--') return i + 1 < args.length && URL_SPEC.test(args[i + 1]!) ? args[i + 1]! : null;
    const eq = a.indexOf('=');
    const option = a.startsWith('--') && eq > 0 ? a.slice(0, eq) : a;
    const value = SPEC_OPTIONS.has(option) ? (option === a ? args[++i] : a.slice(eq + 1)) : a;
    // `--with a,git+https://…`: uv's list of packages
    const fetched = value?.split(',').find((v) => URL_SPEC.test(v));
    if (fetched) return fetched;
    if (!a.startsWith('-')) return null;
    if (option === a && valued.has(a) && !SPEC_OPTIONS.has(a)) i++;
  }
  return null;
}

/** A URL (or an npm specifier naming a repository) that JavaScript code imports: `import('https://…')`, `import x from "https://…"`; null for none. */
function importedUrl(code: string): string | null {
  const m = /\bimport\s*(?:\(\s*|[^'"`;()]*?\bfrom\s*)?(['"`])(https?:\/\/[^'"`]+|npm:(?:github|gitlab|bitbucket|gist|git\+[a-z]+):[^'"`]+)\1/.exec(code);
  return m ? m[2]!.replace(/^npm:/, '') : null;
}
