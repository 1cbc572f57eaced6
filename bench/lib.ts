import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FORMAT_VERSION } from '../src/model/config.ts';
import { Decision, decisionSpec } from '../src/model/decision.ts';
import { stringifyYaml } from '../src/model/frontmatter.ts';
import { formatId } from '../src/model/ids.ts';
import { encodeItem } from '../src/model/kind.ts';
import { DEFAULT_RULES } from '../src/model/safety-rules.ts';
import { importCommit } from '../test/helpers.ts';

export const CLI = join(import.meta.dirname, '../dist/axme.cjs');

/** Environment for benchmark processes: no agent/git variables, no user git config. */
export function benchEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_') && !k.startsWith('AXME_') && k !== 'CLAUDECODE') env[k] = v;
  return {
    ...env,
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Bench',
    GIT_AUTHOR_EMAIL: 'bench@example.com',
    GIT_COMMITTER_NAME: 'Bench',
    GIT_COMMITTER_EMAIL: 'bench@example.com',
    ...extra,
  };
}

/**
 * A repository whose refs/memory/main holds `n` decisions (one commit built with git
 * fast-import: seeding 10k items one commit at a time would take minutes).
 */
export function seededRepo(n: number): string {
  const dir = mkdtempSync(join(tmpdir(), `axme-bench-${n}-`));
  execFileSync('git', ['init', '-q', dir]);
  const files: Array<[string, string]> = [
    ['axme.yaml', stringifyYaml({ format: FORMAT_VERSION, kind: 'repo' })],
    ['safety/rules.yaml', stringifyYaml(DEFAULT_RULES)],
  ];
  for (let i = 1; i <= n; i++) {
    const item = Decision.parse({
      slug: `seeded-decision-${i}`,
      id: formatId('D', i),
      title: `Seeded decision ${i} about component ${i % 97}`,
      decision: `Component ${i % 97} uses approach ${i}. `.repeat(3),
      reasoning: 'Measured in the benchmark seed.',
      created: '2026-01-01T00:00:00.000Z',
      updated: '2026-01-01T00:00:00.000Z',
    });
    files.push([`decisions/${item.slug}.md`, encodeItem(decisionSpec, item)]);
  }
  importCommit(dir, files);
  return dir;
}

export interface Stats {
  n: number;
  median: number;
  p10: number;
  p90: number;
  min: number;
}

export function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const q = (f: number) => s[Math.min(s.length - 1, Math.floor(f * s.length))]!;
  return { n: s.length, median: q(0.5), p10: q(0.1), p90: q(0.9), min: s[0]! };
}

/** Milliseconds a child process takes from spawn to exit (fails on a non-zero exit). */
export function timeProcess(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; input?: string }): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(performance.now() - t0) : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${err}`))));
    // a child that never reads its stdin (node -e 0, a hook with nothing to read) may exit before
    // the input is written: that EPIPE is not the child's failure (its exit code says that)
    child.stdin.on('error', () => {});
    child.stdin.end(opts.input ?? '');
  });
}

export const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));

export { argOf } from './args.ts';
