import { isAbsolute, relative, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { AxmeError, isAxmeError } from '../../model/errors.ts';
import { CLIENT_IDS } from '../../setup/clients/hook-registry.ts';
import type { ClientChange } from '../../setup/clients/index.ts';
import type { InitDryRun, InitSteps, RepositoryInit } from '../../setup/init.ts';
import { actorFrom, type CliArgs, type CliIO, clockFrom, note, out, printJson, SilentExit, withKb } from '../io.ts';

/** `axme init`: the store, the oracle scan, the git hooks, the remotes and the agents' files (src/setup/init.ts). */
export function initCommand(io: CliIO) {
  return {
    command: 'init',
    describe:
      'create the knowledge store on refs/memory/main, scan the project into the oracle and connect Claude Code (hooks, MCP server, CLAUDE.md); idempotent. --workspace: a folder of repositories',
    builder: (y: Argv): Argv =>
      y
        .option('claude', {
          type: 'boolean',
          default: true,
          describe: 'write .claude/settings.json hooks, .mcp.json and the CLAUDE.md section (--no-claude: skip)',
        })
        .option('git-hooks', {
          type: 'boolean',
          default: true,
          describe: 'install the git hooks (commit-msg, pre-push, post-commit, post-merge, post-rewrite) and the notes settings (--no-git-hooks: skip)',
        })
        .option('hooks-path', {
          type: 'string',
          describe:
            "install the git hooks into this folder although other repositories run hooks from it too (a team's core.hooksPath such as ~/.githooks): it must be the folder git runs this repository's hooks from",
        })
        .option('scan', {
          type: 'boolean',
          describe:
            "scan the working tree into oracle/stack.md, structure.md, patterns.md; by default only when the store has no scanned page yet (a store started from the team's keeps its pages: axme oracle scan refreshes them); --scan: scan and commit what is new; --no-scan: skip",
        })
        .option('fetch-config', {
          type: 'boolean',
          default: true,
          describe:
            "add the knowledge refspecs to each git remote, so a plain git fetch brings teammates' knowledge; on a clone, start from the remote's knowledge (--no-fetch-config: leave the remotes alone)",
        })
        .option('agent', {
          type: 'string',
          describe: `the clients to connect (MCP server, hooks, instructions), comma-separated: ${CLIENT_IDS.map((id) => (id === 'claude-code' ? `${id} (the default)` : id)).join(', ')}, or all (Claude Code and every other client whose folder is here) (docs/clients.md)`,
        })
        .option('mcp-url', {
          type: 'string',
          describe:
            "with --agent: point the clients at a team's axme serve --http at this URL instead of a local stdio server (claude-code, cursor, vscode, gemini, codex)",
        })
        .option('mcp-token-env', {
          type: 'string',
          describe: 'with --mcp-url: the environment variable the client reads the bearer token from (e.g. AXME_TOKEN); the token is never written into a file',
        })
        .option('user', {
          type: 'boolean',
          describe:
            "with --agent windsurf or claude-desktop: add this project's server (axme-<folder>) to the client's file of the user, starting this machine's axme by absolute path",
        })
        .option('dry-run', {
          type: 'boolean',
          describe: 'print each agent file and the change init would make to it, writing nothing (the store, scan, git hooks and remotes are skipped)',
        })
        .option('local', {
          type: 'boolean',
          describe:
            "also write this machine's axme by absolute path into .claude/settings.local.json (git ignores it), for clients started without the shell's PATH; the shared files never hold a path",
        })
        .option('workspace', {
          type: 'boolean',
          describe:
            'this folder holds several repositories: create the workspace store <folder>/.axme.git (kind workspace) and initialise every member repository (docs/workspaces.md)',
        }),
    handler: (a: CliArgs) => (a.dryRun ? initDryRun(io, a) : a.workspace ? initWorkspaceCommand(io, a) : initOne(io, a)),
  };
}

/** Which init steps the flags ask for. */
async function stepsOf(a: CliArgs): Promise<InitSteps> {
  if (a.hooksPath !== undefined && (typeof a.hooksPath !== 'string' || !a.hooksPath.trim()))
    throw new AxmeError('INVALID_INPUT', "--hooks-path needs one folder: the one git runs this repository's hooks from (git rev-parse --git-path hooks)");
  if (a.hooksPath !== undefined && a.gitHooks === false)
    throw new AxmeError('INVALID_INPUT', '--hooks-path and --no-git-hooks contradict each other: give one');
  if (a.agent !== undefined && typeof a.agent !== 'string')
    throw new AxmeError('INVALID_INPUT', '--agent needs one comma-separated list of clients (give it once)');
  if (a.agent !== undefined && a.claude === false)
    throw new AxmeError('INVALID_INPUT', '--agent and --no-claude contradict each other: name the clients with --agent (leave out claude-code)');
  if (a.user && a.agent === undefined)
    throw new AxmeError(
      'INVALID_INPUT',
      '--user goes with --agent windsurf or --agent claude-desktop: the clients whose MCP servers are in a file of the user',
    );
  const remote = (await import('../../setup/clients/remote.ts')).parseRemote(a.mcpUrl, a.mcpTokenEnv);
  if (remote && a.agent === undefined)
    throw new AxmeError(
      'INVALID_INPUT',
      '--mcp-url goes with --agent <list>: name the clients to point at the server (claude-code, cursor, vscode, gemini, codex)',
    );
  const agents =
    a.agent !== undefined ? (await import('../../setup/clients/index.ts')).parseAgents(a.agent as string, { user: a.user === true, remote }) : undefined;
  return {
    claude: agents ? agents.claude : a.claude !== false,
    agents,
    gitHooks: a.gitHooks !== false,
    hooksPath: a.hooksPath as string | undefined,
    scan: a.scan === undefined ? 'if-new' : a.scan === true,
    fetchConfig: a.fetchConfig !== false,
    local: a.local === true,
  };
}

function contextOf(io: CliIO, cwd: string) {
  return { cwd, env: io.env, self: initSelf(io), note: (t: string) => note(io, t) };
}

/** The axme init records for hooks and starts from them: the one running, which must be known. */
function initSelf(io: CliIO) {
  if (!io.self)
    throw new AxmeError(
      'INVALID_INPUT',
      'axme init records the axme it runs as, and this one was not started as a script: run the axme executable (`axme init`)',
    );
  return io.self;
}

/** `axme init` without --workspace; in a workspace folder, says to add --workspace. */
async function initOne(io: CliIO, a: CliArgs): Promise<void> {
  const hint = (root: string) =>
    new AxmeError(
      'INVALID_INPUT',
      `${root} is a workspace folder, not a repository: run \`axme init --workspace\` there (it creates the workspace store and initialises every repository), or \`axme init\` inside one repository`,
      { root },
    );
  const { initRepository } = await import('../../setup/init.ts');
  try {
    await withKb(io, a, async (kb) => {
      if (kb.workspace?.self) throw hint(kb.workspace.root);
      printInit(io, a, await initRepository(kb, await stepsOf(a), contextOf(io, a.C ?? io.cwd)));
    });
  } catch (err) {
    if (isAxmeError(err, 'NOT_A_REPO')) {
      const dir = resolve(io.cwd, a.C ?? '.');
      const { detectWorkspace } = await import('../../knowledge/workspace/detect-workspace.ts');
      if (detectWorkspace({ dir }).isWorkspace) throw hint(dir);
    }
    throw err;
  }
}

function initJson(x: RepositoryInit) {
  const clients = x.clients && { clients: clientsJson(x.root ?? '', x.agentFiles, x.clients.changes), skipped: x.clients.skipped };
  return {
    ...x.store,
    agentFiles: x.agentFiles,
    gitHooks: x.gitHooks,
    gitHooksDir: x.gitHooksDir?.dir ?? null,
    oracle: x.oracle && { commit: x.oracle.commit, pages: x.oracle.pages },
    remotes: x.remotes,
    follow: x.follow,
    ...clients,
    toCommit: x.toCommit,
  };
}

/** Each client with its file and action (Claude Code: its .mcp.json). */
function clientsJson(root: string, agentFiles: Array<{ path: string; action: string }>, changes: ClientChange[]) {
  const mcp = agentFiles.find((f) => relative(root, f.path) === '.mcp.json');
  return [...(mcp ? [{ client: 'claude-code', path: mcp.path, action: mcp.action }] : []), ...changes];
}

/** A file's path as said to the user: from the top of the working tree, or in full outside it (a file of the user). */
function shownPath(root: string, path: string): string {
  const rel = relative(root, path);
  return rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}

/** A path as one shell word: as it is when it holds nothing the shell reads, else single-quoted. */
const shellWord = (p: string) => (/^[\w@%+=:,./-]+$/.test(p) ? p : `'${p.replaceAll("'", `'"'"'`)}'`);

/** The lines of the other clients: what was (or would be) done to each file, and who was skipped. */
function printClients(io: CliIO, root: string, clients: NonNullable<RepositoryInit['clients']>, prefix: string, dry: boolean): void {
  const verb = {
    created: dry ? 'Would create' : 'Created',
    updated: dry ? 'Would update' : 'Updated',
    unchanged: 'Unchanged',
    removed: dry ? 'Would remove' : 'Removed',
  };
  for (const c of clients.changes) {
    if (c.action === 'unchanged' && !dry) out(io, `${prefix}${c.client}: ${shownPath(root, c.path)} already connected`);
    else out(io, `${prefix}${c.client}: ${verb[c.action]} ${shownPath(root, c.path)}${c.reason === 'detected' ? ' (detected)' : ''}`);
    if (dry && c.entry) out(io, `${prefix}  axme entry: ${JSON.stringify(c.entry)}`);
    if (dry && c.hooks) out(io, `${prefix}  axme hooks: ${c.hooks.join(', ')}`);
    if (c.note) note(io, `${prefix}axme: ${c.client}: ${c.note}`);
  }
  for (const s of clients.skipped) out(io, `${prefix}${s.client}: skipped, ${s.reason}`);
}

/** `axme init --dry-run` (setup/init.ts planInitDryRun): the agent files' changes, nothing written. */
async function initDryRun(io: CliIO, a: CliArgs): Promise<void> {
  if (a.workspace) throw new AxmeError('INVALID_INPUT', '--dry-run does not cover --workspace yet: run it in one repository');
  const { planInitDryRun } = await import('../../setup/init.ts');
  const r: InitDryRun = planInitDryRun(await stepsOf(a), { cwd: resolve(io.cwd, a.C ?? '.'), env: io.env, self: initSelf(io) });
  if (a.json)
    return printJson(io, { dryRun: true, agentFiles: r.agentFiles, clients: clientsJson(r.root, r.agentFiles, r.clients.changes), skipped: r.clients.skipped });
  out(io, 'Dry run: nothing is written (the store, the oracle scan, the git hooks and the remotes are skipped)');
  for (const f of r.agentFiles)
    out(io, `claude-code: ${f.action === 'unchanged' ? 'Unchanged' : f.action === 'created' ? 'Would create' : 'Would update'} ${relative(r.root, f.path)}`);
  printClients(io, r.root, r.clients, '', true);
}

function printInit(io: CliIO, a: CliArgs, x: RepositoryInit, prefix = ''): void {
  const { store: r, root, agentFiles, gitHooks, oracle } = x;
  if (a.json) return printJson(io, initJson(x));
  if (r.created) out(io, `${prefix}Initialized axme knowledge in ${x.ref} (${r.written.join(', ')})`);
  else if (r.written.length) out(io, `${prefix}Repaired axme knowledge in ${x.ref}: wrote ${r.written.join(', ')}`);
  else out(io, `${prefix}axme knowledge already initialized in ${x.ref}`);
  for (const f of agentFiles)
    if (f.action !== 'unchanged') {
      const path = relative(root!, f.path);
      const own = x.toCommit.includes(path) ? '' : " (this machine's own: git ignores it)";
      out(io, `${prefix}${f.action === 'created' ? 'Created' : 'Updated'} ${path}${own}`);
    }
  if (x.clients) printClients(io, x.clients.root, x.clients, prefix, false);
  for (const h of gitHooks)
    if (h.action !== 'unchanged')
      out(
        io,
        `${prefix}${h.action === 'chained' ? 'Installed (running the existing hook first)' : h.action === 'created' ? 'Installed' : 'Updated'} git hook ${h.hook} (${h.path})`,
      );
  if (x.gitHooksDir?.shared)
    note(
      io,
      `${prefix}axme: the git hooks are in ${x.gitHooksDir.dir}, a folder shared with other repositories: every repository that runs its hooks from there runs axme's git hooks too (axme uninstall removes them)`,
    );
  for (const m of x.remotes)
    if (m.added.length) out(io, `${prefix}Configured remote ${m.remote}: a plain git fetch brings its knowledge too (${m.added.join(', ')})`);
  if (oracle?.commit)
    out(
      io,
      `${prefix}Scanned the project into ${oracle.pages
        .filter((p) => p.changed)
        .map((p) => `oracle/${p.slug}.md`)
        .join(', ')}`,
    );
  if (x.toCommit.length) {
    const files = x.toCommit.map(shellWord).join(' ');
    out(io, `${prefix}Next: commit ${files} so that teammates get the same setup: git add ${files} && git commit -m "Add axme"`);
  }
  if (a.claude !== false && !root && !x.clients)
    note(
      io,
      `${prefix}axme: a bare repository has no working tree: no agent's files were written (${a.agent === undefined ? 'Claude Code' : String(a.agent)})`,
    );
}

/** `axme init --workspace` (setup/init.ts initWorkspace): the store, then each member as it is set up; exit 1 when one failed. */
async function initWorkspaceCommand(io: CliIO, a: CliArgs): Promise<void> {
  const { initWorkspace } = await import('../../setup/init.ts');
  const dir = resolve(io.cwd, a.C ?? '.');
  const text = !a.json;
  const steps = await stepsOf(a);
  const r = await initWorkspace(
    steps,
    {
      ...contextOf(io, dir),
      now: clockFrom(io.env),
      actor: actorFrom(io.env),
      onStore: (ws) => {
        if (!text) return;
        const what = ws.created
          ? `Initialized the axme workspace store ${ws.store}`
          : ws.written.length
            ? `Repaired the axme workspace store ${ws.store}: wrote ${ws.written.join(', ')}`
            : `axme workspace store already initialized in ${ws.store}`;
        out(io, `${what} (${ws.markers.join(', ') || 'forced'})`);
        for (const f of ws.agentFiles) if (f.action !== 'unchanged') out(io, `${f.action === 'created' ? 'Created' : 'Updated'} ${relative(ws.root, f.path)}`);
      },
      onMember: (m) => {
        if (m.error) note(io, `axme: ${m.name}: not initialized: ${m.error.message}`);
        else if (text) printInit(io, a, m.result!, `${m.name}: `);
      },
    },
    (cwd, use) => withKb(io, { ...a, C: cwd }, use),
  );
  const total = r.members.length;
  if (a.json) {
    printJson(io, {
      workspace: r.store,
      repos: r.members.map((m) => ({ name: m.name, path: m.path, ...(m.result ? initJson(m.result) : { error: m.error }) })),
    });
  } else out(io, `Workspace ${r.store.root}: ${total - r.failed} of ${total} repositories initialized (${r.members.map((m) => m.name).join(', ')})`);
  if (r.failed) throw new SilentExit(1);
}
