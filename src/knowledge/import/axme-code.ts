import { existsSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { z } from 'zod';
import { AxmeError } from '../../model/errors.ts';
import { parseYaml } from '../../model/frontmatter.ts';
import type { ItemBase, KindName } from '../../model/kind.ts';
import type { Memory } from '../../model/memory.ts';
import { itemPath, RULES_PATH } from '../../model/paths.ts';
import { SafetyRules } from '../../model/safety-rules.ts';
import { parseInput } from '../../model/validate.ts';
import { findDuplicate } from '../core/identity.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { mutate } from '../core/mutate.ts';
import { assertPersonMayLoosenRules, rulesLoosening } from '../core/rules-loosening.ts';
import { putFile, putItem, stage } from '../core/staging.ts';
import { folderLabel, type ImportProblem, requireFolder, resolveFolder } from './import-folder.ts';
import { type AxmeCodePlan, readAxmeCode } from './read-axme-code.ts';

export const ImportAxmeCodeInput = z.object({
  path: z.string().min(1).max(4096).default('.axme-code').describe('the AXME Code folder to import (default: .axme-code in the current folder)'),
  dry_run: z.boolean().default(false).describe('show what would come in; write nothing'),
});
export type ImportAxmeCodeInput = z.input<typeof ImportAxmeCodeInput>;

/** One item of the import: `new` (written, or would be with --dry-run) or `exists` (already in the store: not written again). */
export interface ImportedItem {
  kind: KindName;
  id?: string;
  slug: string;
  outcome: 'new' | 'exists';
}

export interface ImportResult {
  /** the `.axme-code` folder read */
  source: string;
  /** the store written: `repository`, or `workspace <folder>` for AXME's workspace-level store */
  store: string;
  dry_run: boolean;
  /** the one commit written (null: dry run, or nothing new) */
  commit: string | null;
  items: ImportedItem[];
  /** safety/rules.yaml: new (replaces the store's rules), exists (the same rules), none (no file) */
  rules: 'new' | 'exists' | 'none';
  /** what the imported rules let through that the store's did not, one phrase each (rules-loosening.ts); empty when they loosen nothing. A person's import takes them: this tells the person what they took */
  loosened: string[];
  /** worklog entries carried into the commit message body */
  worklog: number;
  /** files (or blocks) left out, and why */
  problems: ImportProblem[];
}

/** Worklog lines kept in the commit body; older ones are named by count (they stay in worklog.jsonl). */
const WORKLOG_LINES = 1000;

/**
 * Imports an AXME Code `.axme-code/` folder in ONE commit: decisions, memories, backlog, questions,
 * plans, handoffs, oracle pages, the safety rules; the worklog narrative goes into the commit's
 * message body. IDs are kept. An item already in the store (same path and ID; a memory: same
 * path or an active one of its type with the same title) is not written again, so a second import
 * commits nothing. An ID or path the store holds for another item is refused, listing every
 * collision, and nothing is written. Unknown and malformed files are reported, the rest imported.
 * In a workspace, the workspace folder's `.axme-code` goes to the workspace store.
 */
export async function importAxmeCode(kb: KnowledgeBase, input: ImportAxmeCodeInput, opts: { cwd?: string } = {}): Promise<ImportResult> {
  const data = parseInput(ImportAxmeCodeInput, input, 'import');
  const root = resolveFolder(data.path, opts.cwd);
  checkFolder(root);
  const { target, store } = await targetOf(kb, root);
  const plan = readAxmeCode(root);

  const r = await mutate(target, async (state) => {
    const st = stage(state);
    const items: ImportedItem[] = [];
    const collisions: string[] = [];
    const stageAll = <T extends ItemBase & { id?: string; aliases?: string[] }>(kind: KindName, list: T[], exists: (item: T) => boolean) => {
      for (const item of list) {
        const entry: ImportedItem = { kind, ...(item.id ? { id: item.id } : {}), slug: item.slug, outcome: 'new' };
        const current = st.state.items[kind] as unknown as T[];
        const atPath = current.find((x) => x.slug === item.slug);
        const byId = item.id ? current.find((x) => x.slug !== item.slug && (x.id === item.id || x.aliases?.includes(item.id!))) : undefined;
        if (atPath && item.id && atPath.id !== item.id)
          collisions.push(`${kind} ${item.id} (${item.slug}): the store's ${itemPath(kind, item.slug)} is ${atPath.id}`);
        else if (byId) collisions.push(`${kind} ${item.id} (${item.slug}): the store's ${byId.id} is ${itemPath(kind, byId.slug)}`);
        else if (atPath || exists(item)) entry.outcome = 'exists';
        else putItem(st, kind, item, 'import.axme-code', `${kind} ${item.id ?? item.slug}`);
        items.push(entry);
      }
    };
    const none = () => false;
    stageAll('decision', plan.decisions, none);
    stageAll(
      'memory',
      plan.memories,
      (m: Memory) => findDuplicate<Memory>(target, st, 'memory', m.title, (x) => x.type === m.type && x.status === 'active') !== undefined,
    );
    stageAll('backlog', plan.backlog, none);
    stageAll('question', plan.questions, none);
    stageAll('plan', plan.plans, none);
    stageAll('handoff', plan.handoffs, none);
    stageAll('oracle', plan.oracle, none);
    if (collisions.length) {
      throw new AxmeError(
        'WRONG_STATE',
        `the store already holds other items under ${collisions.length === 1 ? 'this ID' : 'these IDs'}, so nothing was imported:\n${collisions.map((c) => `- ${c}`).join('\n')}\nRenumber or rename them in ${root} (or in the store) and import again`,
        { collisions },
      );
    }
    let rules: ImportResult['rules'] = 'none';
    let loosened: string[] = [];
    if (plan.rules !== null) {
      const f = state.snapshot.files.get(RULES_PATH);
      const current = f ? (await target.repo.backend.readBlob(f.oid)).toString('utf8') : null;
      rules = current !== null && sameRules(current, plan.rules) ? 'exists' : 'new';
      if (rules === 'new') {
        // rules that let more through than the store's are a person's to take, as a sync's or a revert's
        const next = SafetyRules.parse(parseYaml(plan.rules) ?? {});
        assertPersonMayLoosenRules(kb, state.rules, next, 'importing these safety rules', `axme import axme-code ${root}`);
        loosened = rulesLoosening(state.rules, next);
        putFile(st, RULES_PATH, plan.rules, 'import.axme-code', 'safety rules');
      }
    }
    const result = { items, rules, loosened };
    if (data.dry_run || st.files.size === 0) return { result };
    return {
      result,
      files: st.files,
      staged: st,
      subject: `import: AXME Code ${basename(dirname(root)) || basename(root)} (${countNew(items, rules)} new)`,
      event: 'import.axme-code',
      body: body(root, plan, items, rules),
    };
  });
  return {
    source: root,
    store,
    dry_run: data.dry_run,
    commit: r.commit,
    items: r.result.items,
    rules: r.result.rules,
    loosened: r.result.loosened,
    worklog: plan.worklog.length,
    problems: plan.problems,
  };
}

function countNew(items: ImportedItem[], rules: ImportResult['rules']): number {
  return items.filter((i) => i.outcome === 'new').length + (rules === 'new' ? 1 : 0);
}

function sameRules(a: string, b: string): boolean {
  try {
    return JSON.stringify(SafetyRules.parse(parseYaml(a) ?? {})) === JSON.stringify(SafetyRules.parse(parseYaml(b) ?? {}));
  } catch {
    return false;
  }
}

/** The commit message body: what came from where (never a path of this machine), then AXME's worklog narrative (axme has no item for it). */
function body(root: string, plan: AxmeCodePlan, items: ImportedItem[], rules: ImportResult['rules']): string {
  const lines = [
    `Imported from ${folderLabel(root)}: ${items.filter((i) => i.outcome === 'new').length} items${rules === 'new' ? ' and the safety rules' : ''}.`,
  ];
  if (plan.problems.length) lines.push('', 'Left out:', ...plan.problems.map((p) => `- ${p.path}: ${p.reason}`));
  if (plan.worklog.length) {
    const kept = plan.worklog.slice(-WORKLOG_LINES);
    lines.push('', 'AXME Code worklog:');
    if (kept.length < plan.worklog.length) lines.push(`- (${plan.worklog.length - kept.length} earlier entries are in ${folderLabel(root)}/worklog.jsonl)`);
    lines.push(...kept);
  }
  return lines.join('\n');
}

/** The folder must be an AXME Code store: a folder holding at least one of the files AXME Code writes. */
function checkFolder(root: string): void {
  const expected = `expected an AXME Code folder (usually <project>/.axme-code) holding decisions/, memory/, backlog/, open-questions.md, plans/, oracle/, safety/rules.yaml or worklog.jsonl`;
  requireFolder(root, expected, 'axme import axme-code <path>');
  const known = ['decisions', 'memory', 'backlog', 'open-questions.md', 'plans', 'oracle', 'safety', 'worklog.jsonl'];
  if (!known.some((k) => existsSync(join(root, k)))) {
    const inner = join(root, '.axme-code');
    throw new AxmeError('INVALID_INPUT', `${root} is not an AXME Code folder: ${expected}${existsSync(inner) ? `. Did you mean ${inner}?` : ''}`, {
      path: root,
    });
  }
}

/**
 * Where the import goes. In a workspace, the workspace folder's `.axme-code` (AXME's
 * workspace-level store) goes to the workspace store; a member repository's `.axme-code` must be
 * imported from that repository (refused from another one, so nothing lands in the wrong store).
 * Outside a workspace: the store of the repository the command runs in.
 */
async function targetOf(kb: KnowledgeBase, root: string): Promise<{ target: KnowledgeBase; store: string }> {
  const ws = kb.workspace;
  const owner = dirname(root);
  if (!ws) return { target: kb, store: 'repository' };
  if (resolve(owner) === resolve(ws.root)) return { target: ws.self ? kb : await ws.open(), store: `workspace ${ws.root}` };
  const rel = relative(ws.root, owner).split('\\').join('/');
  if (!rel.startsWith('..') && !isAbsolute(rel) && (ws.self || (ws.member !== null && rel !== ws.member && !rel.startsWith(`${ws.member}/`)))) {
    throw new AxmeError(
      'INVALID_INPUT',
      `${root} belongs to ${rel}, not to the store this command writes (${ws.self ? `the workspace store of ${ws.root}` : ws.member}): run the import in ${owner} (axme -C ${owner} import axme-code)`,
      { path: root },
    );
  }
  return { target: kb, store: 'repository' };
}
