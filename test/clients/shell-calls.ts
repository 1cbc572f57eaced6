/**
 * A scripted model asks a real client to run shell commands one after another; these run the
 * client and hand back what the client told the model of each call, in order — asserting the run
 * ended well, the script was played to its end and, where the client marks it, that a call the
 * case expects denied came back as an error and the others did not.
 */
import assert from 'node:assert/strict';
import { resultOfStep as claudeResult } from './anthropic.ts';
import { describeRun, runClaude } from './claude-code.ts';
import { type CodexLab, runCodex } from './codex.ts';
import { explain, runGemini } from './gemini.ts';
import { resultOfStep as geminiResult } from './gemini-wire.ts';
import type { ScriptedModel } from './model-server.ts';
import { resultOf } from './openai.ts';
import type { ClientWorld } from './project.ts';

/** One shell call: its command, and whether the hook is expected to deny it (anything but null). */
export interface ShellCase {
  command: string;
  denied: unknown;
}

/** Claude Code's Bash tool: each call's result text (a denial is an error result). */
export async function claudeShellResults(w: ClientWorld, m: ScriptedModel, prompt: string, cases: readonly ShellCase[]): Promise<string[]> {
  m.script([...cases.map(({ command }) => ({ tool: 'Bash', args: { command, description: 'run' } })), { text: 'Done.' }]);
  const run = await runClaude(w, m, prompt);
  assert.equal(run.code, 0, describeRun(run));
  assert.equal(m.remaining(), 0, `the client stopped with ${m.remaining()} steps left\n${describeRun(run)}`);
  return cases.map((c, i) => {
    const r = claudeResult(m.turns, i);
    assert.equal(r.isError, c.denied !== null, `${c.command}: ${r.text}`);
    return r.text;
  });
}

/** Codex's exec_command: each call's output as Codex hands it back (found by the command). */
export async function codexShellResults(l: CodexLab, prompt: string, cases: readonly ShellCase[]): Promise<string[]> {
  l.model.script([...cases.map(({ command }) => ({ tool: 'exec_command', args: { cmd: command } })), { text: 'Done.' }]);
  const run = await runCodex(l.world, l.home, prompt);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(l.model.remaining(), 0, `the script was not played to its end\n${run.stderr}`);
  return cases.map(({ command }) => resultOf(l.model.turns, command) ?? `no result for ${command}`);
}

/** Gemini CLI's run_shell_command: each call's result text (a denial carries an error). */
export async function geminiShellResults(w: ClientWorld, m: ScriptedModel, prompt: string, cases: readonly ShellCase[]): Promise<string[]> {
  m.script([...cases.map(({ command }) => ({ tool: 'run_shell_command', args: { command } })), { text: 'Done.' }]);
  const run = await runGemini(w, m, prompt);
  assert.equal(run.code, 0, explain(run));
  assert.equal(m.remaining(), 0, `the client stopped with ${m.remaining()} steps left\n${explain(run)}`);
  return cases.map((c, i) => {
    const r = geminiResult(m.turns, i);
    assert.equal(r.error !== null, c.denied !== null, `${c.command}: ${r.text}`);
    return r.text;
  });
}
