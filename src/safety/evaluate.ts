import { posix } from 'node:path';
import { loosensRules } from '../model/rule-loosening.ts';
import type { RuleType } from '../model/safety-rules.ts';
import type { EvalContext } from './eval-context.ts';
import { evaluateFileTool, READ_TOOLS, WRITE_TOOLS } from './file-tools.ts';
import type { PrGate } from './git-rules.ts';
import type { Policy } from './policy.ts';
import { type PrLookup, type PrState, prFinding } from './pr-gate.ts';
import { ProjectScripts } from './project-scripts.ts';
import { walkScript } from './walk-script.ts';
import type { Walk } from './walk-state.ts';
import { OUT_OF_BUDGET, workBudget } from './work-budget.ts';
import { WrittenFiles } from './written-scripts.ts';

/*
 * The safety engine's entry: a tool call and a command line decided against a policy. The walk over
 * a script is walk-script.ts, the checks of each command command-checks.ts, the walk's state
 * walk-state.ts, what the engine is handed eval-context.ts.
 */

/** A tool call as the agent harness reports it (Claude Code's `tool_name` and `tool_input`). */
export interface ToolCall {
  tool: string;
  input: Record<string, unknown>;
}

export type { EvalContext, PrLookup, PrState };

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
    walkScript,
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
