import { spawn } from 'node:child_process';
import { constants, homedir } from 'node:os';
import type { Argv } from 'yargs';
import { AxmeError } from '../../model/errors.ts';
import { SANDBOX_SHELL } from '../../model/sandbox.ts';
import { type CliArgs, type CliIO, out, printJson, SilentExit } from '../io.ts';

/**
 * `axme sandbox`: the kernel sandbox under the guard (docs/safety.md). With `-c <command>` it runs
 * one command in it by hand, as the hooks run an agent's; without, it says whether the sandbox is
 * on here and what it holds.
 */
export function sandboxCommand(io: CliIO) {
  return {
    command: 'sandbox',
    describe: "run a command in axme's kernel sandbox (-c), or say whether the sandbox is on here and what it holds",
    builder: (y: Argv) =>
      y
        .option('c', { type: 'string', describe: 'the command to run (with bash) in the sandbox, from the current folder; the exit status is its own' })
        .option('print', { type: 'boolean', describe: 'with -c: print the command line that would run it, and run nothing' }),
    handler: async (a: CliArgs & { c?: string; print?: boolean }) => {
      const cwd = a.C ?? io.cwd;
      const { locateRepo } = await import('../../knowledge/core/location.ts');
      const { openSandbox } = await import('../../setup/sandbox.ts');
      const loc = locateRepo(cwd, io.env);
      const home = io.env.HOME || homedir();
      const { parseYamlText } = await import('../../model/yaml-text.ts');
      const sandbox = await openSandbox({
        loc,
        cwd,
        home,
        env: io.env,
        installDir: typeof __dirname === 'string' ? __dirname : null,
        parseYaml: parseYamlText,
      });
      for (const p of sandbox.settings.problems) io.stderr.write(`axme: ${p}\n`);
      if (a.print && a.c === undefined) throw new AxmeError('INVALID_INPUT', '--print goes with -c <command>: axme sandbox -c "npm test" --print');
      if (a.c === undefined) {
        const policy = sandbox.policy(cwd);
        if (a.json)
          return printJson(io, {
            on: sandbox.state.on,
            state: sandbox.state,
            mode: sandbox.settings.mode,
            network: sandbox.settings.network,
            domains: sandbox.settings.domains,
            sources: sandbox.settings.sources,
            policy,
          });
        if (sandbox.state.on)
          out(
            io,
            `on: shell commands run in bubblewrap (${sandbox.state.bwrap}); mode ${sandbox.settings.mode}, network ${policy.network}${policy.network === 'allowlist' ? ` (${sandbox.settings.domains.join(', ') || 'no host'})` : ''}`,
          );
        else out(io, `off: ${sandbox.state.why}${sandbox.state.fix ? `\nfix: ${sandbox.state.fix}` : ''}`);
        out(io, `writable: ${policy.writable.join(', ') || '(none)'}`);
        out(io, `read-only inside them: ${policy.readOnly.join(', ') || '(none)'}`);
        out(io, `unreadable: ${[...policy.hiddenDirs, ...policy.hiddenFiles].join(', ') || '(none)'}`);
        return;
      }
      if (a.c.trim() === '') throw new AxmeError('INVALID_INPUT', '-c needs a command: axme sandbox -c "npm test"');
      const line = sandbox.commandLine(a.c, cwd);
      if (line !== null && !a.print) {
        const problem = await sandbox.ensureNetwork(typeof __dirname === 'string' ? __dirname : null);
        if (problem) io.stderr.write(`axme: ${problem}; the command reaches no network\n`);
      }
      if (line === null) {
        const s = sandbox.state as Extract<typeof sandbox.state, { on: false }>;
        throw new AxmeError('CONFIG', `the sandbox cannot run here: ${s.why}${s.fix ? `; fix: ${s.fix}` : ''}`);
      }
      if (a.print) return a.json ? printJson(io, { command: line }) : out(io, line);
      const code = await new Promise<number>((resolve, reject) => {
        const child = spawn(SANDBOX_SHELL, ['-c', line], { cwd, env: io.env, stdio: ['inherit', 'pipe', 'pipe'] });
        child.stdout.pipe(io.stdout, { end: false });
        child.stderr.pipe(io.stderr, { end: false });
        child.on('error', reject);
        // a signal's end reported as a shell does, 128 + its number (SIGKILL 137), so the caller can tell which
        child.on('close', (status, signal) => resolve(status ?? (signal ? 128 + constants.signals[signal] : 1)));
      });
      if (code !== 0) throw new SilentExit(code);
    },
  };
}
