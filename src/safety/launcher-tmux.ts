import { shellJoin } from '../model/shell-quote.ts';
import type { Word } from './shell.ts';
import { skipOptions } from './wrappers.ts';

/**
 * tmux's reading for launchers.ts: the verbs that hand a shell a command line, those whose
 * operands are tmux commands of their own (a condition's branches, a hook's, a binding's), the
 * options whose value a shell runs later, and the `#(cmd)` of its formats.
 */

/** A verb whose operands are commands of the program's own: after its options (`valued` take a value) and `skip` operands (a hook's name, a key). */
export interface NestedVerb {
  valued: string[];
  skip: number;
  /** each operand is one command (`if-shell COND CMD [ELSE]`), else the operands are one command's words (`bind-key x run-shell 'cmd'`) */
  each?: boolean;
  /** the first operand is a shell command line (`if-shell`'s condition) */
  shellFirst?: boolean;
  /** the options whose value, the operand after the option's name, is a shell command line (`set -g default-command 'cmd'`) */
  shellOptions?: string[];
}

/** tmux's commands that hand a shell a command line (their short names too), each with its options that take a value; `send-keys` types one into a pane's shell. */
const TMUX_NEW_SESSION = ['-c', '-e', '-F', '-f', '-n', '-s', '-t', '-x', '-y'];
const TMUX_NEW_WINDOW = ['-c', '-e', '-F', '-n', '-t'];
const TMUX_SPLIT_WINDOW = ['-c', '-e', '-F', '-l', '-p', '-t'];
const TMUX_RESPAWN = ['-c', '-e', '-t'];
const TMUX_RUN_SHELL = ['-c', '-d', '-t'];
const TMUX_POPUP = ['-b', '-c', '-d', '-e', '-h', '-s', '-S', '-t', '-T', '-w', '-x', '-y'];
const TMUX_SEND_KEYS = ['-N', '-t'];
export const TMUX_SCRIPT_VERBS: Record<string, string[]> = {
  'new-session': TMUX_NEW_SESSION,
  new: TMUX_NEW_SESSION,
  'new-window': TMUX_NEW_WINDOW,
  neww: TMUX_NEW_WINDOW,
  'split-window': TMUX_SPLIT_WINDOW,
  splitw: TMUX_SPLIT_WINDOW,
  'respawn-pane': TMUX_RESPAWN,
  respawnp: TMUX_RESPAWN,
  'respawn-window': TMUX_RESPAWN,
  respawnw: TMUX_RESPAWN,
  'run-shell': TMUX_RUN_SHELL,
  run: TMUX_RUN_SHELL,
  'display-popup': TMUX_POPUP,
  popup: TMUX_POPUP,
  'pipe-pane': ['-t'],
  pipep: ['-t'],
  'send-keys': TMUX_SEND_KEYS,
  send: TMUX_SEND_KEYS,
};

/**
 * tmux's commands that hold tmux commands of their own: a condition's branches (`if-shell`, whose
 * condition is a shell line), a hook's command, a key binding's, a confirmation's.
 */
const IF_SHELL: NestedVerb = { valued: ['-t'], skip: 0, each: true, shellFirst: true };
const SET_HOOK: NestedVerb = { valued: ['-t'], skip: 1 };
const BIND_KEY: NestedVerb = { valued: ['-N', '-T'], skip: 1 };
const CONFIRM: NestedVerb = { valued: ['-c', '-p', '-t'], skip: 0 };
/** a new window's command (`default-command`) and the screen lock's (`lock-command`) are shell lines tmux runs later */
const SET_OPTION: NestedVerb = { valued: ['-t'], skip: Number.MAX_SAFE_INTEGER, shellOptions: ['default-command', 'lock-command'] };
export const TMUX_NESTED: Record<string, NestedVerb> = {
  'if-shell': IF_SHELL,
  if: IF_SHELL,
  'set-hook': SET_HOOK,
  'bind-key': BIND_KEY,
  bind: BIND_KEY,
  'confirm-before': CONFIRM,
  confirm: CONFIRM,
  'set-option': SET_OPTION,
  set: SET_OPTION,
  'set-window-option': SET_OPTION,
  setw: SET_OPTION,
};

/**
 * The command lines a verb holding the program's own commands stands for: its shell condition
 * (`if-shell 'test -f x' …`), then each command as `PROGRAM COMMAND` (`tmux run-shell 'cmd'`) —
 * one operand is a command's text, several are one command's words.
 */
export function nestedLines(words: Word[], verb: NestedVerb, program: string): string[] {
  const operands = words.slice(skipOptions(words, { valued: verb.valued }).index).map((w) => w.value);
  const out: string[] = [];
  if (verb.shellFirst && operands.length) out.push(operands.shift()!);
  if (verb.shellOptions?.includes(operands[0] ?? '') && operands[1]) out.push(operands[1]);
  const commands = operands.slice(verb.skip);
  if (verb.each) for (const c of commands) out.push(`${program} ${c}`);
  else if (commands.length) out.push(`${program} ${commands.length === 1 ? commands[0] : shellJoin(commands)}`);
  return out;
}

/** The shell commands of the `#(cmd)` a tmux format holds, up to the parenthesis that closes each. */
export function formatCommands(text: string): string[] {
  const out: string[] = [];
  for (let at = text.indexOf('#('); at >= 0; at = text.indexOf('#(', at + 2)) {
    let depth = 0;
    let end = at + 1;
    for (; end < text.length; end++) {
      if (text[end] === '(') depth++;
      else if (text[end] === ')' && --depth === 0) break;
    }
    out.push(text.slice(at + 2, end));
  }
  return out;
}
