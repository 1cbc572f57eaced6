import { familyFinding } from './families/index.ts';
import { guardedAbsolute, writeHit } from './families/system-paths.ts';
import { historyPart } from './history-files.ts';
import type { Access } from './path-access.ts';
import { pathFinding, secretNameFinding, TREE_SECRET_PATHS } from './path-rules.ts';
import { globAlternatives, matchInside, resolvePath } from './paths.ts';
import type { Policy } from './policy.ts';

/**
 * The file tools (Read, Write, Edit, MultiEdit, NotebookEdit, NotebookRead, LS, Glob, Grep) on
 * the shell's path rules (path-rules.ts): denied paths and listed credentials are neither read
 * nor written, a file named as a secret is not read (Write may make it, Edit reads it), read-only
 * paths and axme's own state not changed, and a write into system paths or home dotfiles is
 * decided by the system family as the same write from the shell would be (families/system-paths.ts).
 */

export const READ_TOOLS = new Set(['Read', 'NotebookRead', 'LS', 'Glob', 'Grep']);
export const WRITE_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);
/** The read tools that show files' names, not what they hold. */
const LISTING_TOOLS = new Set(['LS', 'Glob']);
/** The tools that, naming no path, work on the folder the call runs in. */
const FOLDER_TOOLS = new Set(['LS', 'Glob', 'Grep']);

export interface FileToolContext {
  cwd: string;
  home: string;
  root?: string | undefined;
  /** the common git folder of a linked worktree (its history lies there) */
  commonDir?: string | undefined;
  realpath?: ((path: string) => string | null) | undefined;
  protectedPaths?: string[] | undefined;
}

export interface FileToolVerdict {
  decision: 'allow' | 'deny' | 'ask';
  reason: string;
  rule: string | null;
}

const ALLOW: FileToolVerdict = { decision: 'allow', reason: '', rule: null };
const deny = (rule: string, reason: string): FileToolVerdict => ({ decision: 'deny', reason, rule });

/** Decides a file tool's call; see the module comment. */
export function evaluateFileTool(call: { tool: string; input: Record<string, unknown> }, policy: Policy, ctx: FileToolContext): FileToolVerdict {
  const writes = WRITE_TOOLS.has(call.tool);
  const input = call.input;
  const named = [input.file_path, input.notebook_path, input.path];
  // a path the client's schema has as a string, given as anything else (a list, a number): unreadable, so denied
  if (named.some((x) => x !== undefined && x !== null && typeof x !== 'string'))
    return deny('input', `the ${call.tool} call names a file path that is not a string`);
  const raw = named.filter((x): x is string => typeof x === 'string' && x !== '');
  const pctx = { cwd: ctx.cwd, home: ctx.home, root: ctx.root };
  const rctx = { ...pctx, policy, protectedPaths: ctx.protectedPaths };
  const candidates: Array<{ path: string; glob: boolean; found?: boolean }> = raw.map((p) => ({ path: resolvePath(p, pctx), glob: false }));
  // Glob's pattern and Grep's glob filter name the files the tool will open; Grep's is ripgrep's
  // `-g`, which expands braces and whose wildcards match a leading dot (`{.env.local,x}`, `[.]env.local`)
  const base = typeof input.path === 'string' && input.path ? resolvePath(input.path, pctx) : ctx.cwd;
  for (const key of call.tool === 'Glob' ? ['pattern'] : call.tool === 'Grep' ? ['glob'] : []) {
    const g = input[key];
    if (typeof g !== 'string' || !g) continue;
    for (const alt of globAlternatives(g))
      candidates.push({
        path: resolvePath(alt.startsWith('**') || alt.includes('/') ? alt : `**/${alt}`, { ...pctx, cwd: base }),
        glob: true,
        found: call.tool === 'Grep',
      });
  }
  // the listing and search tools look at the folder the call runs in when they name none; the others read or write a file they must name
  if (!candidates.length && !FOLDER_TOOLS.has(call.tool)) return deny('input', `the ${call.tool} call names no file path`);
  // Grep reads every file below its path: a folder holding protected files is off limits
  if (call.tool === 'Grep') {
    const denied = matchInside(base, policy.deniedPaths, pctx);
    const inside = denied ?? matchInside(base, TREE_SECRET_PATHS, pctx);
    if (inside)
      return deny(
        `${denied ? 'filesystem.deniedPaths' : 'secrets.paths'}: ${inside.pattern}`,
        `searching ${base} would read protected files (${inside.pattern}); search a folder that does not hold them`,
      );
  }
  // Write puts content in; Edit and MultiEdit match the old text (which tells what the file holds), NotebookEdit its cells; LS and Glob show names
  const access: Access = call.tool === 'Write' ? 'write' : writes ? 'edit' : LISTING_TOOLS.has(call.tool) ? 'meta' : 'read';
  for (const c of candidates) {
    const real = !c.glob && ctx.realpath ? ctx.realpath(c.path) : null;
    for (const p of real && real !== c.path ? [c.path, real] : [c.path]) {
      const f = pathFinding(p, access, c.glob, rctx);
      if (f) {
        const pattern = f.rule.slice(f.rule.indexOf(': ') + 2);
        // a listed path says how the rule is changed; the others say why they hold
        return deny(
          f.rule,
          f.rule.startsWith('filesystem.deniedPaths')
            ? `${p} is a protected path (${pattern}); agents may not ${writes ? 'write' : 'read'} it. Ask the user, or change the rule with axme safety remove fs_deny "${pattern}"`
            : f.reason,
        );
      }
      // a file of the history (`.git/HEAD`, `packed-refs`, the objects, branches and tags) is the shell's removal to change: never
      const history = writes ? historyPart(p, { root: ctx.root, commonDir: ctx.commonDir }) : null;
      if (history)
        return deny('rm.root', `\`${call.tool}\` of the project's history (${history}) loses commits; it is never allowed. Use git to change what you mean`);
      if (writes && policy.families.system !== 'off') {
        const g = guardedAbsolute(p, { policy, cwd: ctx.cwd, home: ctx.home, root: ctx.root });
        if (g) {
          const finding = familyFinding('system', writeHit(call.tool, `\`${call.tool}\` writes`, g), policy);
          return { decision: finding.action === 'ask' ? 'ask' : 'deny', rule: finding.rule, reason: `axme safety: ${finding.reason}` };
        }
      }
    }
    // a secret by its name, once a link was followed to what it names: the link's or its target's
    const named = secretNameFinding(c.path, access, c.glob, c.found) ?? (real && real !== c.path ? secretNameFinding(real, access) : null);
    if (named) return deny(named.rule, named.reason);
  }
  return ALLOW;
}
