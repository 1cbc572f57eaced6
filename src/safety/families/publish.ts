import { informational } from '../informational.ts';
import { runnerInner } from '../runners.ts';
import { type Hit, type ToolCheck, type ToolEnv, values } from './args.ts';
import { FORGE_PUBLISH } from './infra-forges.ts';
import { CLOUD_ROLLOUTS } from './publish-clouds.ts';
import { DEPLOY_TOOLS } from './publish-deploy.ts';
import { LANG_TOOLS } from './publish-langs.ts';
import { NODE_TOOLS } from './publish-node.ts';
import { REGISTRY_TOOLS } from './publish-registries.ts';
import { SITE_TOOLS } from './publish-sites.ts';
import { STORE_TOOLS } from './publish-stores.ts';
import { WITHDRAW_SOME_VERBS } from './publish-withdraw.ts';
import type { FamilyCheck, FamilyContext } from './types.ts';

/**
 * The publish family (docs/safety.md): commands that put something where others take it from and
 * that cannot be taken back — a package version on a registry (npm, crates.io, PyPI, RubyGems,
 * Maven, NuGet), an image or chart on a container registry, a GitHub release, a deploy workflow,
 * a production deploy, an app store upload. One check per program (publish-node.ts,
 * publish-registries.ts, publish-langs.ts, publish-deploy.ts, publish-clouds.ts, publish-stores.ts, publish-sites.ts); runners such as
 * `npx`, `pnpm dlx`, `uv run` and `python -m` have the program they start checked in turn
 * (runners.ts). `--dry-run` (and the tools' snapshot modes) stay allowed.
 */
export const checkPublish: FamilyCheck = (_cmd, inv, ctx) => (inv ? envFor(ctx).run(inv.program, values(inv)) : null);

/** Whether the publish family has a check of its own for this program (the unknown-command rule leaves it alone). */
export function knowsPublish(program: string): boolean {
  return TOOLS.has(normalize(program));
}

const TOOLS = new Map<string, ToolCheck>(Object.entries({ ...NODE_TOOLS, ...REGISTRY_TOOLS, ...LANG_TOOLS, ...DEPLOY_TOOLS, ...STORE_TOOLS, ...SITE_TOOLS }));

/**
 * Programs whose rollouts or uploads this family names (`aws lambda update-function-code`, `python
 * setup.py upload`) while the
 * unknown-command rule still reads their other verbs (`aws cloudformation deploy`, `heroku
 * container:release`): not in knowsPublish.
 */
const SOME_VERBS = new Map<string, ToolCheck>(Object.entries({ ...CLOUD_ROLLOUTS, ...WITHDRAW_SOME_VERBS, ...FORGE_PUBLISH }));

/** How many runners deep `npx uvx …` is followed. */
const MAX_DEPTH = 4;

/**
 * The check of a program and, when it does not publish itself, of the program it starts as a
 * runner (runners.ts: `npx lerna publish`, `uv run twine upload`), in turn. `--help`, `--version`,
 * `--dry-run` publish nothing (informational.ts); a runner's program is checked with its own flags.
 */
function envFor(ctx: FamilyContext): ToolEnv {
  let depth = 0;
  const env: ToolEnv = {
    ctx,
    run: (program: string, args: string[]): Hit | null => {
      const name = normalize(program);
      if (depth > MAX_DEPTH || informational(name, args)) return null;
      depth++;
      try {
        const hit = TOOLS.get(name)?.(args, env) ?? SOME_VERBS.get(name)?.(args, env);
        if (hit) return hit;
        const inner = runnerInner(name, args);
        return inner ? env.run(inner[0], inner[1]) : null;
      } finally {
        depth--;
      }
    },
  };
  return env;
}

/** `python3.12` and `py` are python; `gradlew.bat`, `mvnw.cmd`, `nuget.exe` are their programs. */
export function normalize(program: string): string {
  if (program.startsWith('python') && /^python[\d.]*$/.test(program)) return 'python';
  if (program === 'py') return 'python';
  const dot = program.lastIndexOf('.');
  if (dot > 0) {
    const ext = program.slice(dot + 1);
    if (ext === 'exe' || ext === 'cmd' || ext === 'bat') return program.slice(0, dot);
  }
  return program;
}
