// The in-jail runner of the effects layer (test/effects/jail.ts starts it inside bubblewrap). It
// reads one case a line on stdin ({"id","command","check"?,"family"?,"binary"?,"last"?}) and runs it the way `route` says,
// exactly as a client would: ask the installed hook (a deny or ask ends it), else run what the
// client would run. It answers one JSON line per case and waits for the next line, so the test
// checks the world between two cases. The first line it writes says what this project provides.
//
// Routes: baseline (bash -c, no axme: proves each case does harm), sandbox (`axme sandbox -c`),
// gemini / codex / claude-code (the hook from the files `axme init` wrote, then the command).
//
// The hook's answer: the hook's own entry (runHook of dist/hook.cjs, what the binary's hookMain
// calls) in this process, with the payload the client would write to its stdin; and through the
// installed hook command (the binary) where the case asks for it (`binary`) or where its family
// has not yet had an answer of that kind (stop / let through) from the binary. Where both ran,
// the binary's answer is the one acted on, and the two must agree (`hookBy`, `disagree`).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';

const [route, project, axme] = process.argv.slice(2);
const OUTPUT_CAP = 256 * 1024;
const CASE_TIMEOUT_MS = 60_000;

/** Runs `file args` in the project and collects its output (the whole process group is killed on timeout). */
function run(file, args, opts = {}) {
  return new Promise((done) => {
    const child = spawn(file, args, { cwd: project, env: { ...process.env, ...opts.env }, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    }, opts.timeout ?? CASE_TIMEOUT_MS);
    child.stdout.setEncoding('utf8').on('data', (d) => {
      if (stdout.length < OUTPUT_CAP) stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d) => {
      if (stderr.length < OUTPUT_CAP) stderr += d;
    });
    child.on('error', (e) => {
      stderr += String(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      // anything the command left running in its group goes with it
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
      done({ code: code ?? (signal ? 128 : -1), signal, stdout, stderr, timedOut });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(opts.input ?? '');
  });
}

const json = (path) => {
  try {
    return JSON.parse(readFileSync(`${project}/${path}`, 'utf8'));
  } catch {
    return null;
  }
};

/** The hook commands and the prefix `axme init` wrote, read once as a client reads them at session start. */
function clientFiles() {
  const first = (groups) => (Array.isArray(groups) ? groups.flatMap((g) => g.hooks ?? []).find((h) => h.type === 'command')?.command : undefined);
  const codexHooks = json('.codex/hooks.json');
  const local = json('.claude/settings.local.json');
  return {
    gemini: first(json('.gemini/settings.json')?.hooks?.BeforeTool),
    codex: first(codexHooks?.hooks?.PreToolUse),
    'claude-code': first(json('.claude/settings.json')?.hooks?.PreToolUse),
    prefix: local?.env?.CLAUDE_CODE_SHELL_PREFIX,
  };
}

const files = clientFiles();
const session = `effects-${route}-${process.pid}`;

const payloads = {
  gemini: (command) => ({
    session_id: session,
    transcript_path: '',
    cwd: project,
    hook_event_name: 'BeforeTool',
    timestamp: new Date().toISOString(),
    tool_name: 'run_shell_command',
    tool_input: { command, description: 'effects case' },
  }),
  codex: (command) => ({
    session_id: session,
    transcript_path: null,
    cwd: project,
    hook_event_name: 'PreToolUse',
    model: 'gpt-5-codex',
    tool_name: 'Bash',
    tool_input: { command },
  }),
  'claude-code': (command) => ({
    session_id: session,
    transcript_path: '',
    cwd: project,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command, description: 'effects case' },
  }),
};

// what each client sets for its hooks and for the commands it runs
const hookEnv = { gemini: { GEMINI_PROJECT_DIR: project, CLAUDE_PROJECT_DIR: project }, codex: {}, 'claude-code': { CLAUDE_PROJECT_DIR: project } };
const commandEnv = {
  // Gemini CLI 0.61 runs shell commands with git's hooks switched off (src/setup/clients/gemini.hook.ts)
  gemini: { GEMINI_CLI: '1', GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'core.hooksPath', GIT_CONFIG_VALUE_0: '' },
  codex: {},
  'claude-code': { CLAUDECODE: '1', CLAUDE_PROJECT_DIR: project },
};

/** The hook's answer as the client reads it: deny, ask, or let through (with the command to run instead, if any). */
function readAnswer(client, h) {
  if (h.timedOut) return { decision: 'deny', why: 'hook timed out' };
  if (h.code === 2) return { decision: 'deny', why: h.stderr.trim() };
  // any other failure is a non-blocking error to the clients: the call goes on unchanged
  if (h.code !== 0) return { decision: 'hook-error', why: h.stderr.trim() };
  const text = h.stdout.trim();
  if (!text) return { decision: 'pass' };
  let o;
  try {
    o = JSON.parse(text);
  } catch {
    return { decision: 'hook-error', why: `not JSON: ${text.slice(0, 200)}` };
  }
  const out = o.hookSpecificOutput ?? {};
  if (client === 'gemini') {
    if (o.decision === 'deny' || o.decision === 'block') return { decision: 'deny', why: o.reason };
    if (o.decision === 'ask') return { decision: 'ask', why: o.reason };
    const replaced = out.tool_input?.command;
    return typeof replaced === 'string' ? { decision: 'rewrite', command: replaced } : { decision: 'pass' };
  }
  if (o.decision === 'block' || out.permissionDecision === 'deny') return { decision: 'deny', why: out.permissionDecisionReason ?? o.reason };
  if (out.permissionDecision === 'ask') return { decision: 'ask', why: out.permissionDecisionReason };
  const replaced = out.updatedInput?.command;
  if (typeof replaced === 'string') return { decision: 'rewrite', command: replaced };
  if (Array.isArray(replaced)) return { decision: 'rewrite', argv: replaced.map(String) };
  return { decision: 'pass' };
}

/** What the client runs for `command` once its hook let it through. */
function clientRun(client, command, answer) {
  const env = commandEnv[client];
  if (answer.argv) return { file: answer.argv[0], args: answer.argv.slice(1), env };
  const line = answer.command ?? command;
  if (client === 'gemini') return { file: 'bash', args: ['-c', line], env };
  // Codex runs each command in a login shell
  if (client === 'codex') return { file: 'bash', args: ['-lc', line], env };
  // Claude Code runs `'<prefix>' '<command>'` when CLAUDE_CODE_SHELL_PREFIX is set
  return files.prefix ? { file: files.prefix, args: [line], env, prefixed: true } : { file: 'bash', args: ['-c', line], env };
}

// the built hook bundle beside the CLI, loaded once: the same code the binary runs
const dist = dirname(axme);
let hookBundle;
const hookCode = () => (hookBundle ??= createRequire(import.meta.url)(join(dist, 'hook.cjs')));

/** The installed hook command's own words: which client's protocol it speaks (Claude Code's when it names none). */
function hookClient(command) {
  const m = /\bhook pre-tool-use(?: --client[ =](\S+))?/.exec(command ?? '');
  if (!m) throw new Error(`the ${route} hook command does not run \`axme hook pre-tool-use\`: ${command}`);
  return m[1] ?? 'claude-code';
}

/** The hook answered in this process: runHook with the same payload, environment and folder as the binary's. */
async function hookInProcess(input) {
  const hook = hookCode();
  const env = { ...process.env, ...hookEnv[route] };
  let stdout = '';
  let stderr = '';
  const io = hook.processHookIO({
    client: hookClient(files[route]),
    stdin: input,
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    env,
    cwd: project,
    loadStoreWork: () => import(join(dist, 'hook-store-work.js')),
    loadTipSearch: () => createRequire(import.meta.url)(join(dist, 'cli-loader.cjs')).loadTipSearch(dist, env),
    installDir: dist,
  });
  const code = await hook.runHook('pre-tool-use', io, Number(env.AXME_HOOK_DEADLINE_MS) || undefined);
  return { code, stdout, stderr, timedOut: false };
}

const stops = (answer) => answer.decision === 'deny' || answer.decision === 'ask';
/** The families (with stop / let through) the binary has answered for so far. */
const binarySeen = new Set();
const sameAnswer = (a, b) => a.decision === b.decision && a.why === b.why && a.command === b.command && JSON.stringify(a.argv) === JSON.stringify(b.argv);

/** The hook's answer to `c`: in this process, and from the binary too where `c` or its family's sample asks. */
async function hookAnswer(c) {
  const input = `${JSON.stringify(payloads[route](c.command))}\n`;
  const inner = await hookInProcess(input);
  const innerAnswer = readAnswer(route, inner);
  const kind = `${c.family ?? 'none'}:${stops(innerAnswer) ? 'stop' : 'let through'}`;
  if (!c.binary && binarySeen.has(kind)) return { h: inner, answer: innerAnswer, hookBy: 'process' };
  const h = await run('sh', ['-c', files[route]], { env: hookEnv[route], input, timeout: 30_000 });
  const answer = readAnswer(route, h);
  binarySeen.add(`${c.family ?? 'none'}:${stops(answer) ? 'stop' : 'let through'}`);
  const disagree = sameAnswer(answer, innerAnswer) ? undefined : { binary: answer, process: innerAnswer };
  return { h, answer, hookBy: 'binary', disagree };
}

/** A POSIX shell word, quoted as axme quotes the command it puts in the sandbox's command line (src/model/shell-quote.ts). */
const shellQuote = (arg) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`);

/** The line `axme sandbox -c <command> --print` gave last, cut where the command goes (twice: in bubblewrap, and the fallback). */
let sandboxLine = null;

/** The families of which `axme sandbox -c` itself has run a case. */
const ranByCommand = new Set();

/**
 * What the sandbox route runs for `c`. For the sample (as the hooks' sample: `binary`, each
 * family's first) and while no line is known, the line `axme sandbox -c <command> --print` prints
 * now, checked against the one made here; `axme sandbox -c <command>` itself runs each family's
 * first case, each corpus' last (`last`) and any case no line was printed for, and the other
 * sampled cases run the printed line as that command runs it (`bash -c <line>`). Every other case
 * runs the line made here: the one printed last with this command put in its place (with bash, as
 * Codex and Gemini CLI run the line the hook hands back). The sandbox's policy is made of the paths
 * as they are, so a case that changed it since (an everyday one writes files) shows at the next
 * sampled one.
 */
async function sandboxTarget(c, out) {
  const family = c.family ?? 'none';
  const cli = () => {
    ranByCommand.add(family);
    out.ranBy = 'axme sandbox -c';
    return { file: process.execPath, args: [axme, 'sandbox', '-c', c.command] };
  };
  out.hookBy = 'binary';
  const kind = `${family}:let through`;
  const made = (command) => sandboxLine?.join(`-c ${shellQuote(command)}`);
  if (!c.binary && binarySeen.has(kind) && sandboxLine) {
    out.hookBy = 'process';
    return { file: '/bin/bash', args: ['-c', made(c.command)] };
  }
  binarySeen.add(kind);
  const printed = await run(process.execPath, [axme, 'sandbox', '-c', c.command, '--print'], { timeout: 30_000 });
  const line = printed.stdout.replace(/\n$/, '');
  if (printed.code !== 0) {
    sandboxLine = null;
    return cli();
  }
  if (sandboxLine && made(c.command) !== line) out.disagree = { binary: line, process: made(c.command) };
  const parts = line.split(`-c ${shellQuote(c.command)}`);
  sandboxLine = parts.length === 3 ? parts : null;
  if (!ranByCommand.has(family) || c.last || !sandboxLine) return cli();
  return { file: '/bin/bash', args: ['-c', line] };
}

async function runCase(c) {
  const out = { id: c.id, route };
  let target;
  if (route === 'baseline') target = { file: 'bash', args: ['-c', c.command] };
  else if (route === 'sandbox') target = await sandboxTarget(c, out);
  else {
    const { h, answer, hookBy, disagree } = await hookAnswer(c);
    out.hookBy = hookBy;
    if (disagree) out.disagree = disagree;
    out.decision = answer.decision;
    out.why = answer.why;
    out.hook = { code: h.code, stdout: h.stdout, stderr: h.stderr };
    if (answer.decision === 'deny' || answer.decision === 'ask') return out;
    target = clientRun(route, c.command, answer);
    out.ranAs = answer.command ?? (answer.argv ? answer.argv.join(' ') : undefined);
    out.prefixed = !!target.prefixed;
  }
  const r = await run(target.file, target.args, { env: target.env });
  Object.assign(out, { ran: true, code: r.code, stdout: r.stdout, stderr: r.stderr, timedOut: r.timedOut });
  if (c.check) {
    const k = await run('bash', ['-c', c.check], { timeout: 30_000 });
    out.check = { code: k.code, stdout: k.stdout.slice(0, 2000), stderr: k.stderr.slice(0, 2000) };
  }
  return out;
}

/** What this jail and this project provide, sent first. */
async function facts() {
  const nested = await run(
    'bwrap',
    ['--unshare-all', '--die-with-parent', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', 'true'],
    { timeout: 30_000 },
  );
  // only the sandbox route runs the command
  const help = route === 'sandbox' ? await run(process.execPath, [axme, 'sandbox', '--help'], { timeout: 30_000 }) : null;
  return {
    ready: true,
    nestedBwrap: { code: nested.code, stderr: nested.stderr.trim() },
    sandboxCommand: help?.code === 0,
    sandboxHelp: help ? (help.stdout + help.stderr).slice(0, 400) : 'not asked on this route',
    hooks: { gemini: !!files.gemini, codex: !!files.codex, 'claude-code': !!files['claude-code'] },
    prefix: files.prefix ?? null,
    prefixExists: !!files.prefix && existsSync(files.prefix),
  };
}

process.stdout.write(`${JSON.stringify(await facts())}\n`);
// cases one at a time: the next line is read only after the test has checked the world
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
for (;;) {
  const next = await lines.next();
  if (next.done) break;
  if (!next.value.trim()) continue;
  const c = JSON.parse(next.value);
  let result;
  try {
    result = await runCase(c);
  } catch (e) {
    result = { id: c.id, route, error: String(e?.stack ?? e) };
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
// every answer was read before the test closed stdin; whatever the hook code left open (a timer, a git child) must not hold the jail
process.exit(0);
