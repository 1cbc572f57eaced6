import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { shellQuote } from '../model/shell-quote.ts';

/**
 * One-time grants for Claude Code's prefix script (docs/safety.md, "git's settings"): the prefix
 * sees only the command's text, so the hook, having judged the call, leaves in a folder commands in
 * the sandbox cannot write (the git dir's `axme/`, guarded) what axme itself runs outside for it —
 * its own git line, never the command's text. A grant is bound to the command's text, used once,
 * and gone with the next shell call's hook when unused (a call the user refused): Claude Code runs a
 * command that writes (the only ones granted) alone, its hook just before it.
 */
export interface ConfigGrantFile {
  /** the command as the model wrote it (one line): the prefix finds it in what Claude Code hands over */
  command: string;
  /** `instead`: the script runs in place of the command; `after`: once the command succeeded in the sandbox; `note`: before it */
  kind: 'instead' | 'after' | 'note';
  /** axme's shell text (one line) */
  script: string;
}

/** FNV-1a of the text: the grant's file name (node:crypto would cost the hook its load). */
const fnv = (text: string): string => {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
};

/** Writes the grant into `dir` (atomically). */
export function writeConfigGrant(dir: string, grant: ConfigGrantFile): void {
  if ([grant.command, grant.script].some((t) => /[\n\r]/.test(t))) throw new Error('a grant is one line of command and one of script');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${fnv(grant.command)}.grant`);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${grant.command}\n${grant.kind}\n${grant.script}\n`, { mode: 0o600 });
  renameSync(tmp, file);
}

/** Removes the grants left in `dir` (by calls that never ran). */
export function dropGrants(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names) rmSync(join(dir, n), { force: true });
}

/**
 * The prefix script's lines that use a grant of `dir` bound to the command in `$1`: the first whose
 * command `$1` holds is removed, then run (`instead`: in place of the command, whose status it
 * exits with; `note`: before it) or kept in `axme_after` (run after the command succeeded). Only the
 * shell's builtins unless a grant is there (`rm`, once).
 */
export function grantLines(dir: string): string {
  return [
    'axme_after=',
    `for axme_g in ${shellQuote(dir)}/*.grant; do`,
    '  [ -f "$axme_g" ] || continue',
    '  { IFS= read -r axme_c && IFS= read -r axme_w && IFS= read -r axme_r; } < "$axme_g" || continue',
    '  case $1 in *"$axme_c"*) ;; *) continue ;; esac',
    '  rm -f "$axme_g"',
    '  case $axme_w in instead) eval "$axme_r"; exit ;; after) axme_after=$axme_r ;; note) eval "$axme_r" ;; esac',
    '  break',
    'done',
  ].join('\n');
}

/** The shell text run after a command that succeeded in the sandbox: the grant's `after` script, when there is one. */
export const AFTER_GRANT = '[ -z "$axme_after" ] || eval "$axme_after"';
