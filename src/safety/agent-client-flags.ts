import type { Invocation } from './command.ts';
import type { Finding } from './git-rules.ts';

/**
 * A nested agent client started with the user's approvals or its sandbox switched off
 * (docs/safety.md, "Folders that hold the guard, and the ways around it"): running `claude -p …`,
 * `codex exec …` or `gemini -p …` from the agent is everyday, but with the switches that let that
 * agent run every tool unasked — `claude --dangerously-skip-permissions`, `--permission-mode
 * bypassPermissions`, `--allowedTools Bash` (every command line), `codex
 * --dangerously-bypass-approvals-and-sandbox` (`--yolo`), `codex -s danger-full-access` (also as
 * `-c sandbox_mode=…`), `gemini --yolo` (`-y`, `--approval-mode yolo`) — the agent hands its task to
 * one the user's own approvals no longer hold. The clients' narrower modes pass: `--permission-mode
 * plan|acceptEdits`, `--allowedTools 'Bash(npm test)'`, `codex exec --full-auto` (its sandbox
 * stays), `-s read-only|workspace-write`, `gemini --approval-mode auto_edit`.
 */

/** Each client's options that switch its approvals or sandbox off, as a test over the option and its value. */
const UNGUARDED: Readonly<Record<string, ReadonlyArray<{ option: string; value?: (v: string) => boolean }>>> = {
  claude: [
    { option: '--dangerously-skip-permissions' },
    { option: '--permission-mode', value: (v) => v === 'bypassPermissions' },
    // every command line allowed: `Bash`, `Bash(*)`, `Bash(:*)`, among a list too (`Read,Bash`)
    { option: '--allowedTools', value: everyCommand },
    { option: '--allowed-tools', value: everyCommand },
  ],
  codex: [
    { option: '--dangerously-bypass-approvals-and-sandbox' },
    { option: '--yolo' },
    { option: '--sandbox', value: (v) => v === 'danger-full-access' },
    { option: '-s', value: (v) => v === 'danger-full-access' },
    { option: '-c', value: (v) => /^sandbox_mode\s*=\s*["']?danger-full-access/.test(v) },
    { option: '--config', value: (v) => /^sandbox_mode\s*=\s*["']?danger-full-access/.test(v) },
  ],
  gemini: [{ option: '--yolo' }, { option: '-y' }, { option: '--approval-mode', value: (v) => v === 'yolo' }],
};

/** Whether a list of Claude Code's tool rules allows every command line (`Bash`, `Bash(*)`). */
function everyCommand(list: string): boolean {
  return list.split(/[\s,]+/).some((t) => /^Bash(?:\(\s*:?\*\s*\))?$/.test(t));
}

/** The finding of a nested agent client run with its approvals or sandbox off (module comment), or null. */
export function unguardedAgentRun(inv: Invocation): Finding | null {
  const options = Object.hasOwn(UNGUARDED, inv.program) ? UNGUARDED[inv.program]! : null;
  if (!options) return null;
  const args = inv.args.map((w) => w.value);
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const name = eq < 0 ? a : a.slice(0, eq);
    const hit = options.find((o) => o.option === name);
    if (!hit) continue;
    // the value after `=`, else the next word; every word up to the next option for a list (`--allowedTools Read Bash`)
    const values = eq >= 0 ? [a.slice(eq + 1)] : hit.value ? untilOption(args, i + 1) : [];
    if (!hit.value || values.some(hit.value)) {
      return {
        rule: 'axme.self',
        reason: `\`${inv.program} ${a}${eq < 0 && hit.value ? ` ${values.find(hit.value)}` : ''}\` starts an agent that runs every tool without the user's approval: run it without that option, or ask the user to`,
      };
    }
  }
  return null;
}

/** The words from `from` up to the next option (a list option's values). */
function untilOption(args: readonly string[], from: number): string[] {
  const out: string[] = [];
  for (let i = from; i < args.length && !args[i]!.startsWith('-'); i++) out.push(args[i]!);
  return out.length ? out : [];
}
