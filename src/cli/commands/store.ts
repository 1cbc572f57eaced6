import type { Argv } from 'yargs';
import { checkStore } from '../../knowledge/check-store.ts';
import { relative, resolve } from 'node:path';
import { initStore } from '../../knowledge/init-store.ts';
import { configureKnowledgeRemotes } from '../../knowledge/sync.ts';
import { itemHistory } from '../../knowledge/item-history.ts';
import { worklog } from '../../knowledge/worklog.ts';
import type { KindName } from '../../model/kind.ts';
import { SPECS } from '../../model/paths.ts';
import { actorFrom, clockFrom, note, out, printJson, SilentExit, withKb, type CliIO } from '../io.ts';
import type { KnowledgeBase } from '../../knowledge/kb.ts';
import { detectWorkspace } from '../../knowledge/workspace/detect-workspace.ts';
import { initWorkspaceStore } from '../../knowledge/workspace/init-workspace.ts';
import { AxmeError, isAxmeError } from '../../model/errors.ts';
import { diagnosticLine } from '../render.ts';
import { atOption } from './shared.ts';

type Args = Record<string, unknown> & { C?: string; json?: boolean };

/** init, log, history, fsck: commands about the store as a whole. */
export function storeCommands(io: CliIO) {
  return [
    {
      command: 'init',
      describe: 'create the knowledge store on refs/memory/main, scan the project into the oracle and connect Claude Code (hooks, MCP server, CLAUDE.md); idempotent. --workspace: a folder of repositories',
      builder: (y: Argv): Argv =>
        y
          .option('claude', { type: 'boolean', default: true, describe: 'write .claude/settings.json hooks, .mcp.json and the CLAUDE.md section (--no-claude: skip)' })
          .option('git-hooks', { type: 'boolean', default: true, describe: 'install the git hooks (commit-msg, pre-push, post-commit, post-rewrite) and the notes settings (--no-git-hooks: skip)' })
          .option('scan', { type: 'boolean', default: true, describe: 'scan the working tree into oracle/stack.md, structure.md, patterns.md (--no-scan: skip)' })
          .option('fetch-config', { type: 'boolean', default: true, describe: "add the knowledge refspecs to each git remote, so a plain git fetch brings teammates' knowledge (--no-fetch-config: skip)" })
          .option('workspace', { type: 'boolean', describe: 'this folder holds several repositories: create the workspace store <folder>/.axme.git (kind workspace) and initialise every member repository (docs/workspaces.md)' }),
      handler: (a: Args) => (a.workspace ? initWorkspace(io, a) : initOne(io, a)),
    },
    {
      command: 'log',
      describe: 'the worklog: every change to the knowledge, newest first',
      builder: (y: Argv) =>
        atOption(y)
          .option('limit', { alias: 'n', type: 'number', describe: 'at most this many entries' })
          .option('since', { type: 'string', describe: 'only changes after this date ("2026-01-31", "2 days ago")' }),
      handler: (a: Args) =>
        withKb(io, a, async (kb) => {
          const entries = await worklog(kb, { limit: a.limit as number | undefined, since: a.since as string | undefined, at: a.at as string | undefined });
          if (a.json) return printJson(io, entries);
          for (const e of entries) out(io, `${e.commit.slice(0, 12)}  ${e.date}  ${(e.actor ?? '-').padEnd(7)}  ${e.subject}`);
        }),
    },
    {
      command: 'history <ref>',
      describe: "one item's versions: ID, slug, alias or memory-tree path (e.g. safety/rules.yaml)",
      builder: (y: Argv) =>
        atOption(y)
          .positional('ref', { type: 'string' })
          .option('kind', { choices: Object.keys(SPECS), describe: 'when a slug names items of several kinds' })
          .option('patch', { alias: 'p', type: 'boolean', describe: 'show the diff of each version' }),
      handler: (a: Args) =>
        withKb(io, a, async (kb) => {
          const r = await itemHistory(kb, { ref: String(a.ref), kind: a.kind as KindName | undefined, at: a.at as string | undefined, patch: !!a.patch });
          if (a.json) return printJson(io, r);
          for (const v of r.versions) {
            out(io, `${v.commit.slice(0, 12)}  ${v.date}  ${(v.actor ?? '-').padEnd(7)}  ${v.change.padEnd(7)}  ${v.subject}`);
            if (v.patch) out(io, v.patch);
          }
        }),
    },
    {
      command: 'fsck',
      describe: 'check the store: objects, schemas, unique IDs, supersession links',
      builder: (y: Argv) => atOption(y),
      handler: (a: Args) =>
        withKb(io, a, async (kb) => {
          const r = await checkStore(kb, { at: a.at as string | undefined });
          if (a.json) printJson(io, r);
          else {
            for (const f of r.findings) out(io, diagnosticLine(f));
            const counts = Object.entries(r.counts).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${k}`).join(', ');
            note(io, `${r.ok ? 'ok' : 'FAILED'}: ${r.objects} objects checked at ${r.commit.slice(0, 12)}${counts ? ` (${counts})` : ''}`);
          }
          if (!r.ok) throw new SilentExit(1);
        }),
    },
  ];
}

type InitReport = Awaited<ReturnType<typeof initRepository>>;

/** `axme init` without --workspace; in a workspace folder, says to add --workspace. */
async function initOne(io: CliIO, a: Args): Promise<void> {
  const hint = (root: string) => new AxmeError('INVALID_INPUT', `${root} is a workspace folder, not a repository: run \`axme init --workspace\` there (it creates the workspace store and initialises every repository), or \`axme init\` inside one repository`, { root });
  try {
    await withKb(io, a, async (kb) => {
      if (kb.workspace?.self) throw hint(kb.workspace.root);
      printInit(io, a, await initRepository(io, a, kb));
    });
  } catch (err) {
    const dir = resolve(io.cwd, a.C ?? '.');
    if (isAxmeError(err, 'NOT_A_REPO') && detectWorkspace({ dir }).isWorkspace) throw hint(dir);
    throw err;
  }
}

/** `axme init` in one repository: the store, the oracle scan, the Claude Code files, the git hooks. */
async function initRepository(io: CliIO, a: Args, kb: KnowledgeBase) {
  const r = await initStore(kb);
  const { agentFilesRoot, axmeCommand, installAgentFiles } = await import('../../setup/agent-files.ts');
  const { installGitHooks } = await import('../../setup/git-hooks.ts');
  const treeRoot = agentFilesRoot(a.C ?? io.cwd, io.env);
  let oracle: { commit: string | null; pages: Array<{ slug: string; changed: boolean }>; text: string } | null = null;
  if (a.scan !== false && treeRoot) {
    // before the Claude Code files are written: the scan describes the project, not axme's setup
    const { scanOracle } = await import('../../knowledge/oracle/scan-oracle.ts');
    try {
      oracle = await scanOracle(kb, { skipEmpty: true });
    } catch (err) {
      // the store exists: a scan that cannot run must not fail init (the setup below still runs)
      note(io, `axme: the oracle scan did not run (${(err as Error).message}); run \`axme oracle scan\` later`);
    }
  }
  const root = a.claude === false ? null : treeRoot;
  const command = axmeCommand({ ...io.self, env: io.env });
  const agentFiles = root ? installAgentFiles(root, command) : [];
  const gitHooks = a.gitHooks === false || !treeRoot ? [] : await installGitHooks({ cwd: a.C ?? io.cwd, env: io.env }, treeRoot, command);
  const remotes = a.fetchConfig === false ? [] : await configureKnowledgeRemotes(kb);
  return { r, ref: kb.ref, root, agentFiles, gitHooks, oracle, remotes };
}

function initJson(x: InitReport) {
  return { ...x.r, agentFiles: x.agentFiles, gitHooks: x.gitHooks, oracle: x.oracle && { commit: x.oracle.commit, pages: x.oracle.pages }, remotes: x.remotes };
}

function printInit(io: CliIO, a: Args, x: InitReport, prefix = ''): void {
  const { r, root, agentFiles, gitHooks, oracle } = x;
  if (a.json) return printJson(io, initJson(x));
  if (r.created) out(io, `${prefix}Initialized axme knowledge in ${x.ref} (${r.written.join(', ')})`);
  else if (r.written.length) out(io, `${prefix}Repaired axme knowledge in ${x.ref}: wrote ${r.written.join(', ')}`);
  else out(io, `${prefix}axme knowledge already initialized in ${x.ref}`);
  for (const f of agentFiles) if (f.action !== 'unchanged') out(io, `${prefix}${f.action === 'created' ? 'Created' : 'Updated'} ${relative(root!, f.path)}`);
  for (const h of gitHooks) if (h.action !== 'unchanged') out(io, `${prefix}${h.action === 'chained' ? 'Installed (running the existing hook first)' : h.action === 'created' ? 'Installed' : 'Updated'} git hook ${h.hook}`);
  for (const m of x.remotes) if (m.added.length) out(io, `${prefix}Configured remote ${m.remote}: a plain git fetch brings its knowledge too (${m.added.join(', ')})`);
  if (oracle?.commit) out(io, `${prefix}Scanned the project into ${oracle.pages.filter((p) => p.changed).map((p) => `oracle/${p.slug}.md`).join(', ')}`);
  if (a.claude !== false && !root) note(io, `${prefix}axme: a bare repository has no working tree: Claude Code files were not written`);
}

/**
 * `axme init --workspace`: the workspace store, the Claude Code files in the workspace folder
 * (sessions may start there), then `axme init` in every member repository with the same flags.
 * A member that fails is reported and the others are still initialised; the exit code is then 1.
 */
async function initWorkspace(io: CliIO, a: Args): Promise<void> {
  const dir = resolve(io.cwd, a.C ?? '.');
  const ws = await initWorkspaceStore({ dir, env: io.env, now: clockFrom(io.env), actor: actorFrom(io.env) });
  const { axmeCommand, installAgentFiles } = await import('../../setup/agent-files.ts');
  const agentFiles = a.claude === false ? [] : installAgentFiles(ws.root, axmeCommand({ ...io.self, env: io.env }));
  const text = !a.json;
  if (text) {
    const what = ws.created ? `Initialized the axme workspace store ${ws.store}` : ws.written.length ? `Repaired the axme workspace store ${ws.store}: wrote ${ws.written.join(', ')}` : `axme workspace store already initialized in ${ws.store}`;
    out(io, `${what} (${ws.detection.markers.join(', ') || 'forced'})`);
    for (const f of agentFiles) if (f.action !== 'unchanged') out(io, `${f.action === 'created' ? 'Created' : 'Updated'} ${relative(ws.root, f.path)}`);
  }
  const repos: Array<Record<string, unknown>> = [];
  let failed = 0;
  for (const m of ws.detection.members) {
    const args = { ...a, C: m.path };
    try {
      const x = await withKb(io, args, (kb) => initRepository(io, args, kb));
      repos.push({ name: m.name, path: m.path, ...initJson(x) });
      if (text) printInit(io, args, x, `${m.name}: `);
    } catch (err) {
      failed++;
      const e = err as Error & { code?: string };
      repos.push({ name: m.name, path: m.path, error: { code: e.code ?? 'INTERNAL', message: e.message } });
      note(io, `axme: ${m.name}: not initialized: ${e.message}`);
    }
  }
  const { detection, ...store } = ws;
  if (a.json) printJson(io, { workspace: { ...store, markers: detection.markers, agentFiles }, repos });
  else out(io, `Workspace ${ws.root}: ${ws.detection.members.length - failed} of ${ws.detection.members.length} repositories initialized (${ws.detection.members.map((m) => m.name).join(', ')})`);
  if (failed) throw new SilentExit(1);
}
