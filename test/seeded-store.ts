import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FORMAT_VERSION } from '../src/model/config.ts';
import { Decision, decisionSpec } from '../src/model/decision.ts';
import { stringifyYaml } from '../src/model/frontmatter.ts';
import { formatId } from '../src/model/ids.ts';
import { encodeItem } from '../src/model/kind.ts';
import { DEFAULT_RULES } from '../src/model/safety-rules.ts';
import { cleanEnv, git, importCommit } from './helpers.ts';

/** What the `i`-th seeded decision says (1-based); its id is D-i, its dates fixed. */
export type SeededDecision = (i: number) => { slug: string; title: string; decision: string; reasoning?: string; status?: 'revoked' };

/**
 * A repository (branch main) holding a store of `n` decisions written in one fast-import commit on
 * refs/memory/main — the tests' and benchmarks' large stores, made in a second rather than by
 * `n` writes. `codeCommit`: an empty first commit on main, for what compares with HEAD.
 */
export function seededStore(n: number, decisionOf: SeededDecision, opts: { prefix?: string; codeCommit?: boolean } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), opts.prefix ?? 'axme-seeded-'));
  // the test environment's git (no developer's GIT_* variables or identity)
  git(dir, ['init', '-q', '-b', 'main']);
  if (opts.codeCommit) git(dir, ['-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-q', '--allow-empty', '-m', 'start']);
  const files: Array<[string, string]> = [
    ['axme.yaml', stringifyYaml({ format: FORMAT_VERSION, kind: 'repo' })],
    ['safety/rules.yaml', stringifyYaml(DEFAULT_RULES)],
  ];
  for (let i = 1; i <= n; i++) {
    const d = Decision.parse({ id: formatId('D', i), created: '2026-01-01T00:00:00.000Z', updated: '2026-01-01T00:00:00.000Z', ...decisionOf(i) });
    files.push([`decisions/${d.slug}.md`, encodeItem(decisionSpec, d)]);
  }
  importCommit(dir, files);
  return dir;
}
