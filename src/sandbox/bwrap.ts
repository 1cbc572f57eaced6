import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { childProcess } from '../model/builtins.ts';
import { findOnPath } from '../model/on-path.ts';
import { SANDBOX_OUTER_PIDS_ENV, SANDBOX_PROXY_LINK, SANDBOX_PROXY_PORT, SANDBOX_SHELL } from '../model/sandbox.ts';
import { shellJoin, shellQuote } from '../model/shell-quote.ts';
import type { SandboxPolicy } from './policy.ts';

/**
 * The sandbox on Linux: bubblewrap (`bwrap`), the runtime Flatpak and Claude Code's own sandbox
 * use, run directly — a process a few milliseconds long, so the sandbox adds little to each shell
 * call (docs/safety.md says why not a runtime in Node). The whole file system is bound read-only,
 * then the policy's writable folders read-write, its guarded paths read-only again, its secrets
 * masked, the machine's servers cut off; the command gets its own PID namespace and, when the policy
 * says so, no network.
 */

/** The bubblewrap executable on PATH (or AXME_BWRAP), or null. */
export const findBwrap = (env: NodeJS.ProcessEnv): string | null => findOnPath(env.AXME_BWRAP || 'bwrap', env);

/** socat on PATH (the allowlisted sandbox's bridge to its proxy), or null. */
export const findSocat = (env: NodeJS.ProcessEnv): string | null => findOnPath('socat', env);

/**
 * The arguments that make bubblewrap apply `policy`, up to (not including) the command, but for the
 * machine's sockets and socket folders the policy found: those come and go, and bwrapRun covers each
 * that is still there when it starts.
 */
export function bwrapArgs(policy: SandboxPolicy, cwd: string | null): string[] {
  const args = ['--die-with-parent', '--new-session', '--unshare-pid', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];
  if (policy.network !== 'allow') args.push('--unshare-net');
  if (policy.network === 'allowlist') {
    const proxy = `http://127.0.0.1:${SANDBOX_PROXY_PORT}`;
    for (const v of ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'http_proxy', 'https_proxy', 'all_proxy']) args.push('--setenv', v, proxy);
    for (const v of ['NO_PROXY', 'no_proxy']) args.push('--setenv', v, 'localhost,127.0.0.1,::1');
    // a link, not a bind: a socket gone (or not yet there) fails no start, and a proxy started anew answers at the same path
    if (policy.proxySocket) args.push('--symlink', policy.proxySocket, SANDBOX_PROXY_LINK);
  }
  for (const w of policy.writable) args.push('--bind', w, w);
  for (const r of policy.readOnly) args.push('--ro-bind', r, r);
  for (const w of policy.writableAgain) args.push('--bind', w, w);
  for (const f of policy.hiddenFiles) args.push('--ro-bind', '/dev/null', f);
  for (const d of policy.hiddenDirs) args.push('--tmpfs', d, '--remount-ro', d);
  // the machine's servers: their folders empty (and the command's own to write), their sockets refused, the variables naming them gone
  for (const d of policy.servers.dirs) args.push('--tmpfs', d);
  for (const s of policy.servers.again) args.push('--bind', s, s);
  for (const v of policy.servers.unsetEnv) args.push('--unsetenv', v);
  if (cwd !== null) args.push('--chdir', cwd);
  return args;
}

/** A byte a hidden word keeps as it is: punctuation no name is found by (`/`, `.`, `-`, `_`). */
const PLAIN_BYTE = new Set([...'/.-_'].map((c) => c.charCodeAt(0)));

/**
 * `word` as a shell word that printf's `%b` turns back into it, its letters, digits and every other
 * byte written as a `\xHH` escape: no process's command line then holds a name a user may look for
 * (`pkill -f docker`, `.sock`, the project's folder; at most two hex digits stand together). An
 * option of bubblewrap's (`--ro-bind`) stays as written.
 */
function hiddenWord(word: string): string {
  if (/^--[a-z][a-z-]*$/.test(word)) return word;
  return `'${[...Buffer.from(word, 'utf8')].map((b) => (PLAIN_BYTE.has(b) ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`)).join('')}'`;
}

/**
 * Bash text that runs `inner` (shell text) in bubblewrap with `policy`, in `cwd` (null: the shell's
 * `$PWD`), and exits with its status.
 *
 * bubblewrap's command line is `bwrap --args 7 -- <inner>`: every path of the policy reaches it
 * through a pipe on its fd 7 instead (`--args`, NUL-separated, written by the shell's `printf`), so
 * a user's `pkill -f docker`, `.sock` or a project's name run outside matches no bubblewrap, and
 * ends no agent's command. Where the text is itself a process's argument (`inArgument`: `bash -c
 * <text>`, the line Codex and Gemini CLI run) it holds the paths as hiddenWord escapes only; a
 * script's text (Claude Code's prefix) holds them as written. No `$(` nor `<(` (Gemini CLI refuses a
 * command holding one); the command keeps the shell's stdin (saved on fd 6 first).
 *
 * The servers' sockets and folders the policy found (`/proc/net/unix`) come and go: each is covered
 * only if it is still there, tested by the shell's builtins (no process started). One gone between
 * that test and bubblewrap's mount (a dev server stopped in that millisecond) makes bubblewrap's
 * set-up fail on a read-only folder before the command starts: bubblewrap's status report
 * (`--json-status-fd`) holds an `exit-code` only once the command has started, so a start that
 * failed (status 1, no `exit-code`) is tried again, the sockets tested anew, at most three times.
 * A command that started is never run twice. The report is read by the shell itself (`lastpipe`),
 * so a start forks two processes, the `printf` and bubblewrap.
 *
 * bubblewrap is the shell's child, not its replacement (the retry needs the shell): a signal to the
 * shell that ends it ends bubblewrap (`--die-with-parent`); the status is bubblewrap's, the command's
 * own or 128 + the signal that ended it. `afterSuccess` (shell text) runs outside the sandbox once
 * the command exited 0, its status the line's (setup/sandbox-git-config.ts: a tracking recorded).
 */
export function bwrapRun(bwrap: string, policy: SandboxPolicy, cwd: string | null, inner: string, afterSuccess?: string, inArgument = true): string {
  const [word, format] = inArgument ? [hiddenWord, '%b'] : [shellQuote, '%s'];
  // a hidden path is tested as printf turns it back
  const exists = (test: string) => (inArgument ? `printf -v axme_q %b "$p"; [ ${test} "$axme_q" ]` : `[ ${test} "$p" ]`);
  const loop = (paths: string[], test: string, mount: string) =>
    paths.length ? `for p in ${paths.map(word).join(' ')}; do ${exists(test)} && axme_m+=(${mount} "$p"); done; ` : '';
  const args =
    `{ printf '${format}\\0' ${bwrapArgs(policy, cwd).map(word).join(' ')} "\${axme_m[@]}"; ` +
    `printf '%s\\0'${cwd === null ? ' --chdir "$PWD"' : ''} --setenv ${SANDBOX_OUTER_PIDS_ENV} "$axme_pids" --json-status-fd 8; }`;
  // fd 7: the arguments; fd 8: bubblewrap's status report, into the pipe to the reader; fd 9: the shell's stdout, the command's
  const attempt =
    `axme_m=(); ${loop(policy.servers.socketFolders, '-d', '--tmpfs')}${loop(policy.servers.sockets, '-S', '--ro-bind /dev/null')}` +
    `${args} | ${shellQuote(bwrap)} --args 7 -- ${inner} 7<&0 0<&6 6<&- 8>&1 >&9 9>&- | ${STARTED}`;
  return (
    `${OUTER_PIDS}exec 9>&1; { exec 6<&0; } 2>/dev/null || exec 6</dev/null; shopt -s lastpipe; axme_t=; while :; do ${attempt}; ` +
    'axme_s=${PIPESTATUS[1]} axme_x=${PIPESTATUS[2]}; case $axme_s$axme_x$axme_t in 11|11.) axme_t=$axme_t.; ' +
    `echo ${shellQuote(RETRY_NOTE)} >&2;; *) ${afterSuccess ? `if [ "$axme_s" = 0 ]; then ${afterSuccess}; axme_s=$?; fi; ` : ''}exit "$axme_s";; esac; done`
  );
}

/** Reads bubblewrap's status report to its end: 0 when it says the command started (an `exit-code` is reported only then), 1 when not. In the shell itself with `lastpipe`, in a subshell without. */
const STARTED = '{ axme_x=1; while read -r axme_a axme_b axme_c; do case $axme_b in \'"exit-code":\') axme_x=0;; esac; done; [ "$axme_x" = 0 ]; }';

const RETRY_NOTE = 'axme: the sandbox did not start (above: most likely a socket it covers went away as it started); starting it again';

/**
 * Shell text that sets `axme_pids` to the ids of the processes above this shell, nearest first (at
 * most 8), each parent read from `/proc/<id>/status`'s `PPid:` line with the shell's builtins (dash
 * reads a byte a syscall: `status` reaches it in a quarter of `stat`'s bytes, 0.2 ms for the walk):
 * handed into the sandbox as SANDBOX_OUTER_PIDS_ENV, whose process namespace hides them, so a git
 * hook there still finds the agent session its harness owns. No `$(`: Gemini CLI refuses a command
 * holding one.
 */
const OUTER_PIDS =
  'axme_p=$$; axme_pids=; for axme_i in 1 2 3 4 5 6 7 8; do axme_q=; ' +
  'while read -r axme_k axme_v; do case $axme_k in PPid:) axme_q=$axme_v; break;; esac; done 2>/dev/null < /proc/$axme_p/status; ' +
  'case $axme_q in ""|0|1|*[!0-9]*) break;; esac; axme_p=$axme_q; axme_pids="$axme_pids $axme_p"; done; ';

/**
 * What runs inside the sandbox: `shell -c command`, where `shell` and `command` are shell words of
 * the caller's line. With an allowlisted network, first a bridge from the sandbox's own loopback
 * (port SANDBOX_PROXY_PORT, where HTTP_PROXY points) to the proxy's socket outside, detached from
 * the command (its `wait` never waits for it) and gone with the sandbox; the command starts once
 * the bridge listens. Without socat the bridge fails and the command reaches no network. socat
 * reads its addresses from its command line, which a user's `pkill -f` outside matches: it names
 * the socket by SANDBOX_PROXY_LINK, the link bwrapArgs makes in the sandbox's own `/dev`, never by
 * its path.
 */
export function sandboxInner(policy: SandboxPolicy, shell: string, command: string): string {
  if (policy.network !== 'allowlist' || !policy.proxySocket) return `${shell} -c ${command}`;
  const port = SANDBOX_PROXY_PORT;
  const bridge = [
    `(socat TCP-LISTEN:${port},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${SANDBOX_PROXY_LINK} </dev/null >/dev/null 2>&1 &)`,
    `i=0; until (: </dev/tcp/127.0.0.1/${port}) 2>/dev/null || [ $i -ge 400 ]; do i=$((i+1)); sleep 0.005; done`,
    'exec "$0" -c "$1"',
  ].join('; ');
  return `${SANDBOX_SHELL} -c ${shellQuote(bridge)} ${shell} ${command}`;
}

/**
 * One shell command line that runs `command` in the sandbox (what a client is told to run
 * instead). A client's own sandbox (Codex's `workspace-write` or `read-only`, Gemini CLI's
 * container) forbids the namespaces bubblewrap makes: there a first empty sandbox fails, and the
 * command runs as written inside the client's. Where bubblewrap works (the hook checked it can,
 * outside any client sandbox), nothing in the command can make that first one fail: it runs
 * before the command's own text.
 */
export function sandboxedCommandLine(bwrap: string, policy: SandboxPolicy, cwd: string, command: string, afterSuccess?: string): string {
  const probe = shellJoin([bwrap, '--ro-bind', '/', '/', '--', '/bin/true']);
  const plain = `${SANDBOX_SHELL} -c ${shellQuote(command)}`;
  return `if ${probe} 2>/dev/null; then ${bwrapRun(bwrap, policy, cwd, sandboxInner(policy, SANDBOX_SHELL, shellQuote(command)), afterSuccess)}; fi; ${plain}`;
}

/** Why bubblewrap cannot start a sandbox here (user namespaces off, a seccomp filter…), or null when it can. */
export function probeBwrap(bwrap: string): string | null {
  const r = childProcess().spawnSync(
    bwrap,
    ['--die-with-parent', '--unshare-pid', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--', '/bin/true'],
    { encoding: 'utf8', timeout: 10_000 },
  );
  if (r.error) return r.error.message;
  if (r.status === 0) return null;
  return (r.stderr || `exit ${r.status}`).trim().split('\n')[0]!;
}

interface ProbeRecord {
  bwrap: string;
  mtimeMs: number;
  problem: string | null;
}

/**
 * probeBwrap's answer, remembered in `file` (machine-local, in `.git/axme/`) for this bubblewrap
 * binary: asked again only when the binary changes. A record that cannot be written is not an error.
 */
export function cachedProbe(bwrap: string, file: string | null): string | null {
  let mtimeMs = 0;
  try {
    mtimeMs = statSync(bwrap).mtimeMs;
  } catch {
    return `${bwrap} is gone`;
  }
  if (file) {
    try {
      const rec = JSON.parse(readFileSync(file, 'utf8')) as ProbeRecord;
      if (rec.bwrap === bwrap && rec.mtimeMs === mtimeMs) return rec.problem;
    } catch {
      // none yet
    }
  }
  const problem = probeBwrap(bwrap);
  if (file) {
    try {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, `${JSON.stringify({ bwrap, mtimeMs, problem } satisfies ProbeRecord)}\n`);
    } catch {
      // probed again next time
    }
  }
  return problem;
}
