import { argvLine } from './argv-line.ts';

/**
 * The environment variables that make a program run code it was not handed on its command line
 * (docs/safety.md, "Code a program runs from its options or its environment"), each as the command line that
 * code is: a shell's start-up file (`BASH_ENV`, `ENV`: sourced by every non-interactive bash, by
 * an interactive sh), Python's (`PYTHONSTARTUP`), the modules node, Ruby and Perl load first
 * (`NODE_OPTIONS=--require F` / `--import F`, a `data:` URL's code; `RUBYOPT=-rF`; Perl's debugger
 * `PERL5DB`), the libraries the loader maps into every program (`LD_PRELOAD`, `LD_AUDIT`,
 * `DYLD_INSERT_LIBRARIES`: run as programs), the commands bash, rsync, cvs and kubectl run
 * (`PROMPT_COMMAND`, `RSYNC_RSH`, `CVS_RSH`, `KUBECTL_EXTERNAL_DIFF`, npm's script shell), the
 * substitutions of the prompts bash expands (`PS4='$(…)' bash -x`, `PS1`), tar's
 * options (`TAR_OPTIONS`: its `--checkpoint-action=exec=…` among them), and git's trace files
 * (`GIT_TRACE*=PATH` appends to PATH). git-settings.ts checks what it returns where the variable is
 * set, as a command of the line: so a file the same line wrote is read as the script it is
 * (`echo 'rm -rf ~' > /tmp/e; BASH_ENV=/tmp/e bash -c x` is `. /tmp/e`), a process substitution's
 * text too (`BASH_ENV=<(echo 'rm -rf ~')`), and a library a download wrote is a download run.
 */
const STARTUP_VARIABLES: Record<string, (value: string) => string | null> = {
  BASH_ENV: (v) => `. ${v}`,
  ENV: (v) => `. ${v}`,
  PYTHONSTARTUP: (v) => `python3 ${v}`,
  NODE_OPTIONS: nodeOptions,
  RUBYOPT: (v) => lines([...v.matchAll(/(?:^|\s)-r\s*(\S+)/g)].map((m) => `ruby ${m[1]!}`)),
  PERL5DB: (v) => argvLine(['perl', '-e', v]),
  LD_PRELOAD: libraries,
  LD_AUDIT: libraries,
  DYLD_INSERT_LIBRARIES: libraries,
  PROMPT_COMMAND: (v) => v,
  // the prompts bash expands, `$(…)` and backticks run: PS4 before each line `-x` traces, PS0-PS2 in an interactive shell
  PS0: prompt,
  PS1: prompt,
  PS2: prompt,
  PS4: prompt,
  RSYNC_RSH: (v) => v,
  CVS_RSH: (v) => v,
  KUBECTL_EXTERNAL_DIFF: (v) => v,
  npm_config_script_shell: (v) => v,
  NPM_CONFIG_SCRIPT_SHELL: (v) => v,
  TAR_OPTIONS: (v) => `tar ${v}`,
};

/** A prompt's command substitutions, run where bash expands it: the prompt as the argument of `:` (no substitution: none). */
function prompt(v: string): string | null {
  return /\$\(|`/.test(v) ? `: ${v}` : null;
}

/** `GIT_TRACE`, `GIT_TRACE_PACKET`, `GIT_TRACE2_EVENT`…: a path (not a number or a boolean) is a file git appends its trace to. */
const TRACE = /^GIT_TRACE(?:2)?(?:_[A-Z_]+)?$/;

/** The lines of a list, or null for none. */
function lines(list: readonly string[]): string | null {
  return list.length ? list.join('\n') : null;
}

/** The files `--require`/`-r`, `--import`, `--loader` name, run as node runs them; a `data:` URL's code as `node -e`. */
function nodeOptions(v: string): string | null {
  const out: string[] = [];
  // a `data:` URL's code runs to the end of the value (its blanks are the code's, as node splits no quoted word)
  for (const m of v.matchAll(/(?:^|\s)(?:--require|-r|--import|--loader|--experimental-loader)(?:=|\s+)(data:.*$|"[^"]*"|'[^']*'|\S+)/gs)) {
    const target = m[1]!.replace(/^(["'])(.*)\1$/s, '$2');
    const data = /^data:[^,]*,(.*)$/s.exec(target);
    out.push(data ? argvLine(['node', '-e', safeDecode(data[1]!)]) : argvLine(['node', target]));
  }
  return lines(out);
}

/** A URL's percent escapes undone where they are well formed. */
function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The libraries of a loader's list (`:` or blanks between them), each run as a program. */
function libraries(v: string): string | null {
  return lines(v.split(/[:\s]+/).filter(Boolean));
}

/** The command line the variable `name` set to `value` makes a program run, or null where it makes none. */
export function startupCommand(name: string, value: string): string | null {
  if (!value.trim()) return null;
  if (Object.hasOwn(STARTUP_VARIABLES, name)) return STARTUP_VARIABLES[name]!(value);
  if (TRACE.test(name) && !/^(\d+|true|false|yes|no|on|off)$/i.test(value)) return `: >> ${argvLine([value])}`;
  return null;
}
