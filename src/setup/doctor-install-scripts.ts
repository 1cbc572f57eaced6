import { homedir } from 'node:os';
import { join } from 'node:path';
import { openKnowledgeBase } from '../knowledge/core/kb.ts';
import { branchAt } from '../knowledge/core/location.ts';
import { readStorePolicy } from '../knowledge/rules/store-policy.ts';
import { MEMORY_REF } from '../model/refs.ts';
import { evaluateCommand } from '../safety/evaluate.ts';
import { INSTALL_SCRIPTS, scriptsOf } from '../safety/package-scripts.ts';
import { defaultPolicy, type Policy } from '../safety/policy.ts';
import { locateRepo, readRefSync } from '../store/locate.ts';
import type { DoctorCheck } from './clients/adapter.ts';
import { guardedPaths } from './paths.ts';
import { projectFileText, projectFolderNames } from './project-files.ts';

/** The command the check asks the guard about: what a teammate's setup and an agent run first. */
const INSTALL = 'npm install';

/**
 * Doctor's `install scripts` check: what the guard answers an agent's `npm install` in this
 * checkout, read as the pre-tool-use hook reads it (the package.json's `preinstall`, `install`,
 * `postinstall`, `prepare`… judged as their text, with the store's rules): a problem where it is
 * denied — a script that moves git's hooks (`git config core.hooksPath hooks`), publishes, pushes —
 * saying which script and what to do, before an agent session finds out.
 */
export async function installScriptsCheck(opts: { root: string; env: NodeJS.ProcessEnv }): Promise<DoctorCheck> {
  const name = 'install scripts';
  const file = join(opts.root, 'package.json');
  const text = projectFileText(file);
  if (text === null) return { name, status: 'ok', detail: 'no package.json here: npm install runs no script of the project' };
  const scripts = typeof text === 'string' ? scriptsOf(text) : null;
  if (!scripts) return { name, status: 'ok', detail: 'package.json cannot be read (too big, or no JSON): the guard judges npm install by its own words' };
  const present = INSTALL_SCRIPTS.filter((s) => scripts.has(s));
  if (!present.length) return { name, status: 'ok', detail: 'package.json has no install script (preinstall, install, postinstall, prepare)' };
  const home = opts.env.HOME || homedir();
  const loc = locateRepo(opts.root, opts.env);
  const verdict = await evaluateCommand(INSTALL, await policyAt(opts.root, opts.env), {
    cwd: opts.root,
    home,
    root: loc?.worktree ?? opts.root,
    commonDir: loc?.commonDir,
    branchOf: (dir, gitDir) => branchAt(dir, opts.env, gitDir),
    lookupPr: async () => 'unknown',
    protectedPaths: guardedPaths(loc, home, { env: opts.env }),
    fileText: projectFileText,
    folderNames: projectFolderNames,
  });
  if (verdict.decision === 'allow') return { name, status: 'ok', detail: `${present.join(', ')}: the guard lets ${INSTALL} run them` };
  return {
    name,
    status: 'problem',
    detail: `${INSTALL} is ${verdict.decision === 'deny' ? 'denied' : 'put to a person'} in agent sessions (and yarn, pnpm install alike): ${verdict.reason}`,
    fix: `run ${INSTALL} yourself outside the agent session, or have agents run ${INSTALL} --ignore-scripts; better, move that step out of the install scripts (a setup step a person runs once)`,
  };
}

/** The rules in force here: the store's, or the built-in ones where there is no store yet. */
async function policyAt(root: string, env: NodeJS.ProcessEnv): Promise<Policy> {
  const loc = locateRepo(root, env);
  if (!loc || readRefSync(loc.commonDir, MEMORY_REF) === null) return defaultPolicy();
  const kb = await openKnowledgeBase({ cwd: root, env, backend: 'cli' });
  try {
    return (await readStorePolicy(kb)).policy;
  } catch {
    return defaultPolicy();
  } finally {
    await kb.repo.close();
  }
}
