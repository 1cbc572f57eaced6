import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { axmeOk, cleanEnv, git } from '../helpers.ts';

/** The installed clients' binaries (devDependencies, pinned). */
export const BIN = {
  claude: resolve(import.meta.dirname, '../../node_modules/.bin/claude'),
  gemini: resolve(import.meta.dirname, '../../node_modules/.bin/gemini'),
  codex: resolve(import.meta.dirname, '../../node_modules/.bin/codex'),
};

/**
 * A world for one real-client test: a fake HOME (the client's user settings go there), a project
 * repository with one commit, a bare remote as `origin`, and axme initialised for `agents`
 * (`axme init --agent …`, as a user would). Removed by `cleanup`.
 */
export interface ClientWorld {
  root: string;
  home: string;
  project: string;
  remote: string;
  cleanup: () => void;
}

export async function clientWorld(agents: string): Promise<ClientWorld> {
  const root = mkdtempSync(join(tmpdir(), 'axme-client-'));
  const home = join(root, 'home');
  const project = join(root, 'project');
  const remote = join(root, 'remote.git');
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  git(root, ['init', '-q', '--bare', '-b', 'main', remote]);
  git(project, ['init', '-q', '-b', 'main']);
  git(project, ['config', 'user.name', 'Test User']);
  git(project, ['config', 'user.email', 'test@example.com']);
  writeFileSync(join(project, 'README.md'), '# demo\n');
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'demo', version: '1.0.0', scripts: { test: 'node -e 0' } }, null, 2) + '\n');
  git(project, ['add', '-A']);
  git(project, ['commit', '-q', '-m', 'first']);
  git(project, ['remote', 'add', 'origin', remote]);
  await axmeOk(project, ['init', '--agent', agents], { env: { HOME: home } });
  return { root, home, project, remote, cleanup: () => rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }) };
}

export interface ClientRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a client's binary to its end (no stdin), with the test environment (cleanEnv) plus `env`;
 * killed after `timeoutMs` (a hung client fails its test with what it printed).
 */
export function runClient(bin: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<ClientRun> {
  return new Promise((done, fail) => {
    const child = spawn(bin, args, { cwd: opts.cwd, env: cleanEnv(opts.env), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      stderr += `\n[test] ${bin} killed after ${opts.timeoutMs ?? 180_000} ms\n`;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, opts.timeoutMs ?? 180_000);
    child.on('error', (e) => {
      clearTimeout(timer);
      fail(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}
