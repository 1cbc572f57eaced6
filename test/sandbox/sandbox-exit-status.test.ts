/**
 * `axme sandbox -c`'s exit status when what it started is ended by a signal: 128 + the signal's
 * number, as a shell reports it (SIGKILL 137, SIGTERM 143, SIGINT 130), so a caller can tell which
 * signal it was. Real bubblewrap, the built binary, the child killed from outside: SIGKILL and SIGTERM
 * to the process the CLI started (a client stopping a command it ran), SIGINT to every process under
 * the CLI, as a terminal's Ctrl-C reaches its foreground process group — a shell that receives
 * SIGINT alone waits for the command it runs, as every POSIX shell does.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CLI, cleanEnv, sandboxProject } from '../helpers.ts';

const bwrapWorks = spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--', '/bin/true']).status === 0;

/** The processes `pid` started (Linux's /proc children list). */
const childrenOf = (pid: number): number[] => readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number);
/** Every process under `pid`, outside the sandbox's own process namespace. */
const treeOf = (pid: number): number[] => childrenOf(pid).flatMap((c) => [c, ...(readComm(c) === 'bwrap' ? [] : treeOf(c))]);
const readComm = (pid: number): string => readFileSync(`/proc/${pid}/comm`, 'utf8').trim();

describe('axme sandbox -c: a command ended by a signal', { skip: !bwrapWorks && 'bubblewrap cannot start a sandbox here' }, () => {
  let project: string;
  let home: string;
  let cleanup: () => void;
  before(() => ({ project, home, cleanup } = sandboxProject('exit-status-')));
  after(() => cleanup());

  for (const [signal, status, whom] of [
    ['SIGKILL', 137, 'started'],
    ['SIGTERM', 143, 'started'],
    ['SIGINT', 130, 'tree'],
  ] as const)
    test(`${signal} → ${status}`, async () => {
      const child = spawn(process.execPath, [CLI, 'sandbox', '-c', 'echo started; exec sleep 600'], {
        cwd: project,
        env: cleanEnv({ HOME: home, AXME_SANDBOX: 'auto' }),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      // the event: the sandboxed command has started and said so
      await new Promise<void>((resolve, reject) => {
        let out = '';
        child.stdout.setEncoding('utf8').on('data', (d: string) => {
          out += d;
          if (out.includes('started')) resolve();
        });
        child.on('close', () => reject(new Error(`ended before starting: ${stderr}`)));
      });
      const started = whom === 'started' ? childrenOf(child.pid!) : treeOf(child.pid!);
      assert.ok(started.length > 0, 'axme started the sandbox');
      if (whom === 'tree') assert.ok(started.map(readComm).includes('bwrap'), `bubblewrap is among ${started.map(readComm)}`);
      for (const pid of started) {
        try {
          process.kill(pid, signal);
        } catch (e) {
          // in the tree, a process may end before its turn (the reader of bubblewrap's report, once bubblewrap has)
          if (whom !== 'tree' || (e as NodeJS.ErrnoException).code !== 'ESRCH') throw e;
        }
      }
      assert.equal(await closed, status, stderr);
    });
});
