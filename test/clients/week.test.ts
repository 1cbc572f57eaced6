/**
 * A week of work on one project in the real clients (week-seed.ts: about 200 items of every kind
 * over ten modules): what each client's model really receives — the session start within its
 * budget and about the work now, a prompt's items and no others (an item saved in the same session
 * and one a sync brought in meanwhile too), an edit's anchored decisions once a session, nothing
 * given twice, a 20 KB decision within the recall's budget.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { axmeInOk } from '../cli-in-process.ts';
import { CLI, git } from '../helpers.ts';
import { anthropic, resultOfStep as claudeResult, requestText } from './anthropic.ts';
import { describeRun, runClaude, sessionStartContext } from './claude-code.ts';
import { closeCodexLab, codexLab, patch, runCodex } from './codex.ts';
import { runGemini } from './gemini.ts';
import { contentsText, geminiErrorWords, resultOfStep as geminiResult, geminiWire, lastResults } from './gemini-wire.ts';
import type { ScriptedModel, SeenRequest, Step } from './model-server.ts';
import { inputItems, messages, resultOf } from './openai.ts';
import { type ClientWorld, cleanupWorld, clientWorld, inClientWorld } from './project.ts';
import { count } from './recall-seed.ts';
import { seedWeek, type WeekSeed } from './week-seed.ts';
import { everyToolCall, notReadable } from './week-tools.ts';

const TEST = { timeout: 900_000 };
/** The session start's budget (src/hooks/session-start.ts) and a recall's (src/knowledge/views/recall-lines.ts). */
const START_BUDGET = 6_000;
const RECALL_BUDGET = 2_000;
const PROMPT_HEADER = 'axme: project knowledge about this prompt';
const EDIT_HEADER = 'axme: project knowledge about the file this call edits';

/** The seeded project, made once and copied into each client's world (seeding ~200 items costs tens of seconds). */
let template: ClientWorld;
let seed: WeekSeed;

/** Copies the template's commits and store into `w` (its own client files stay). */
function copyWeek(w: ClientWorld): void {
  git(w.project, ['fetch', '-q', template.project, '+main:refs/heads/week', '+refs/memory/main:refs/memory/main']);
  git(w.project, ['reset', '-q', '--hard', 'week']);
  git(w.project, ['branch', '-q', '-D', 'week']);
}

/** The recall blocks (a hook's context starting with `header`) in `text`: the header's line and the item lines right after it. */
function blocks(text: string, header: string): string[] {
  return text
    .split(header)
    .slice(1)
    .map((b) => {
      const [first, ...rest] = b.split('\n');
      const end = rest.findIndex((l) => !l.startsWith('- '));
      return [header + first, ...rest.slice(0, end < 0 ? rest.length : end)].join('\n');
    });
}

/** The recall lines (`- <kind> <ref> <title>: …`) of `text`'s blocks under `header`. */
const recallLines = (text: string, header: string) => blocks(text, header).flatMap((b) => b.split('\n').filter((l) => l.startsWith('- ')));

/** The ids (`D-012`) and slugs the recall lines name. */
const refsOf = (lines: string[]) => lines.map((l) => l.split(' ')[2]!);
/**
 * The items recall lines name, by kind and what the line says: a display ID may name another item
 * later in the same session (a sync renumbers the item saved here when the teammate's took its ID).
 */
const itemsOf = (lines: string[]) => lines.map((l) => l.replace(/^- (\S+) \S+ /, '$1 '));

/**
 * A teammate's decision saved in another clone and pushed to the remote, then `axme sync` in the
 * project: synchronous, so that it runs between two prompts of a session.
 */
function syncTeammateDecision(w: ClientWorld, title: string, decision: string): void {
  const mate = mkdtempSync(join(tmpdir(), 'axme-mate-'));
  const axme = (cwd: string, args: string[]) => execFileSync(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, HOME: w.home }, stdio: 'pipe' });
  try {
    git(mate, ['init', '-q', '-b', 'main']);
    git(mate, ['config', 'user.name', 'Mate']);
    git(mate, ['config', 'user.email', 'mate@example.com']);
    // the code from the project (only the knowledge goes through the remote), the store from the remote
    git(mate, ['fetch', '-q', w.project, '+main:refs/heads/code']);
    git(mate, ['fetch', '-q', w.remote, '+refs/memory/main:refs/memory/main']);
    git(mate, ['reset', '-q', '--hard', 'code']);
    axme(mate, ['decision', 'add', '--title', title, '--decision', decision]);
    git(mate, ['push', '-q', w.remote, 'refs/memory/main:refs/memory/main']);
    axme(w.project, ['sync']);
  } finally {
    rmSync(mate, { recursive: true, force: true });
  }
}

describe('a week of work in the real clients', () => {
  before(async () => {
    template = await clientWorld('claude-code');
    seed = await seedWeek(template);
  });
  after(async () => {
    if (template) await cleanupWorld(template);
  });

  test('Claude Code: the start, prompts, edits, an item saved in the session and one synced in, nothing twice', TEST, (t) =>
    inClientWorld('claude-code', anthropic, async (w: ClientWorld, m: ScriptedModel) => {
      copyWeek(w);
      // the store on the remote, where a teammate takes it from
      await axmeInOk(w.project, ['sync'], { env: { HOME: w.home } });
      // the work now: checkout has uncommitted changes
      appendFileSync(join(w.project, 'src', 'checkout.ts'), '// coupons stack now\n');
      const inventory = join(w.project, 'src', 'inventory.ts');
      const reports = join(w.project, 'src', 'reports.ts');
      const GIFT = { title: 'Gift cards expire after a year', decision: 'A card bought today is void 365 days later; its balance is forfeited.' };
      const LOCKER = { title: 'Parcel lockers take only small parcels', decision: 'A parcel over 20 kg never goes to a locker.' };
      const steps: Step[] = [
        // prompt 1: the courier's tracking numbers; the model reads and edits inventory, saves a decision
        { tool: 'Read', args: { file_path: inventory } },
        { tool: 'Edit', args: { file_path: inventory, old_string: 'export const inventory = {};', new_string: 'export const inventory = { v: 1 };' } },
        { tool: 'Edit', args: { file_path: inventory, old_string: '{ v: 1 }', new_string: '{ v: 2 }' } },
        { tool: 'mcp__axme__axme_save_decision', args: GIFT },
        { text: 'Done.' },
        // prompt 2: the decision just saved
        { text: 'A year.' },
        // prompt 3: the teammate's decision, synced in before it
        { text: 'Small ones only.' },
        // prompt 4: the courier again: given already
        { text: 'As before.' },
        // prompt 5: nothing in the store; then an edit of the file the 20 KB decision is anchored to
        { tool: 'Edit', args: { file_path: reports, old_string: 'export const reports = {};', new_string: 'export const reports = { q: 1 };' } },
        // then every axme MCP tool once
        ...everyToolCall(seed).map(({ tool, args }) => ({ tool: `mcp__axme__${tool}`, args })),
        { text: 'Leaves fall.' },
      ];
      const firstTool = steps.length - 1 - everyToolCall(seed).length;
      const prompts = [
        COURIER,
        'When do gift cards expire?',
        'Can a heavy parcel go to a parcel locker?',
        'Back to the courier tracking number format of shipping: anything else?',
        'Please write a haiku about autumn leaves.',
      ];
      const run = await runClaude(w, m, prompts[0]!, {
        steps,
        then: prompts.slice(1),
        // while the session runs, a teammate's decision arrives by `axme sync`
        between: (i) => (i === 2 ? syncTeammateDecision(w, LOCKER.title, LOCKER.decision) : undefined),
      });
      assert.equal(run.code, 0, describeRun(run));
      assert.equal(m.remaining(), 0, `${m.remaining()} steps left\n${describeRun(run)}`);
      const turns = m.turns.map(requestText);
      const last = turns.at(-1)!;
      /** The turn that answers prompt `i`'s first step (its text ends with the prompt or its hook's context). */
      const promptTurn = (i: number) => turns.findIndex((x) => x.includes(prompts[i]!));

      await t.test('the start: within its budget, the latest handoff, the open questions, the decisions on the file changed now, not everything', () =>
        assertStart(sessionStartContext(turns[0]!)),
      );
      await t.test('prompt 1: the shipping items, none of another module', () => assertShippingOnly(turns[0]!.split(prompts[0]!).slice(1).join('')));
      await t.test('edits of src/inventory.ts: its anchored decisions once, a read nothing', () => {
        const anchored = seed.byModule.get('inventory')!.anchored;
        const i = promptTurn(0);
        const afterRead = recallLines(turns[i + 1]!, EDIT_HEADER);
        assert.equal(afterRead.length, 0, afterRead.join('\n'));
        const afterEdit = refsOf(recallLines(turns[i + 2]!, EDIT_HEADER));
        assert.deepEqual(afterEdit.sort(), [...anchored].sort(), turns[i + 2]!.slice(-2000));
        assert.equal(recallLines(turns[i + 3]!, EDIT_HEADER).length, anchored.length, 'the second edit adds none');
      });
      await t.test('prompt 2: the decision saved in this session, with what it says', () => {
        const text = turns[promptTurn(1)]!.split(prompts[1]!).slice(1).join('');
        const line = recallLines(text, PROMPT_HEADER).find((l) => l.includes(GIFT.title));
        assert.ok(line?.endsWith(`${GIFT.title}: ${GIFT.decision}`), `${line}\n${text.slice(-2000)}`);
      });
      await t.test("prompt 3: the teammate's decision a sync brought in meanwhile", () => {
        const text = turns[promptTurn(2)]!.split(prompts[2]!).slice(1).join('');
        assert.ok(
          recallLines(text, PROMPT_HEADER).some((l) => l.includes(LOCKER.title)),
          text.slice(-2000),
        );
      });
      await t.test('prompt 4: nothing given before comes again; prompt 5: nothing for a haiku', () => {
        const before = itemsOf(recallLines(turns[promptTurn(3)]!.split(prompts[3]!)[0]!, PROMPT_HEADER));
        const again = itemsOf(recallLines(turns[promptTurn(3)]!.split(prompts[3]!).slice(1).join(''), PROMPT_HEADER));
        assert.deepEqual(
          again.filter((r) => before.includes(r)),
          [],
          `given again: ${again.join(', ')}`,
        );
        const haiku = turns[promptTurn(4)]!.split(prompts[4]!).slice(1).join('');
        assert.equal(blocks(haiku, PROMPT_HEADER).length, 0, haiku.slice(-2000));
      });
      await t.test('the 20 KB decision: its edit recall within the budget, one line', () => {
        const i = promptTurn(4);
        const edit = blocks(turns[i + 1]!.split(prompts[4]!).slice(1).join(''), EDIT_HEADER);
        assert.equal(edit.length, 1, turns[i + 1]!.slice(-3000));
        assert.ok(edit[0]!.length <= RECALL_BUDGET, `${edit[0]!.length} characters`);
        assert.ok(edit[0]!.includes(seed.big.id), edit[0]);
      });
      await t.test('every axme MCP tool: its result, or its error, in words', () => {
        const unread = everyToolCall(seed).flatMap(({ tool }, k) => {
          const r = claudeResult(m.turns, firstTool + k);
          const why = notReadable(r.text);
          return why ? [`${tool}: ${why}: ${r.text.slice(0, 300)}`] : [];
        });
        assert.deepEqual(unread, []);
      });
      await t.test('over the whole session no item is given twice', () => {
        const all = [...recallLines(last, PROMPT_HEADER), ...recallLines(last, EDIT_HEADER)];
        const items = itemsOf(all);
        assert.deepEqual(
          items.filter((r, i) => items.indexOf(r) !== i),
          [],
          all.join('\n'),
        );
      });
    }),
  );
  /** What every client's start must hold on the week's store: within the budget, the latest handoff, the open questions, the decisions on the file changed now, not everything. */
  function assertStart(ctx: string): void {
    assert.ok(ctx.length > 0 && ctx.length <= START_BUDGET, `${ctx.length} characters\n${ctx}`);
    assert.match(ctx, /Stopped Wednesday in src\/search\.ts/);
    assert.match(ctx, /Open questions for the user/);
    const relevant = ctx.split('## Relevant to the work at hand')[1]?.split('\n## ')[0] ?? '';
    for (const id of seed.byModule.get('checkout')!.anchored) assert.match(relevant, new RegExp(`decision ${id} `), `the relevant section: ${relevant}`);
    assert.ok(count(ctx, '\n- ') < seed.total / 2, 'lists a part of the store, not all of it');
  }
  /** A prompt about the courier's tracking numbers recalls shipping's items and no other module's. */
  function assertShippingOnly(text: string): void {
    const lines = recallLines(text, PROMPT_HEADER);
    assert.ok(lines.length > 0, `nothing recalled\n${text.slice(-3000)}`);
    for (const l of lines) assert.match(l, /shipping|courier|tracking number|parcel/i, `an unrelated item: ${l}`);
  }
  const COURIER = 'The courier now sends a new tracking number format for each parcel. What must change in shipping?';

  test('Codex: the start, a prompt, patches of an anchored file once, MCP results and errors as text', TEST, async (t) => {
    const l = await codexLab();
    try {
      copyWeek(l.world);
      appendFileSync(join(l.world.project, 'src', 'checkout.ts'), '// coupons stack now\n');
      const edit = (from: string, to: string): Step => ({
        tool: 'apply_patch',
        args: { input: patch(`*** Update File: src/inventory.ts\n@@\n-${from}\n+${to}`) },
      });
      l.model.script([
        edit('export const inventory = {};', 'export const inventory = { v: 1 };'),
        edit('export const inventory = { v: 1 };', 'export const inventory = { v: 2 };'),
        { tool: 'tool_search', args: { query: 'axme', limit: 50 } },
        { tool: 'axme_get_decision', args: { id_or_slug: seed.byModule.get('shipping')!.decisions[0] } },
        { tool: 'axme_get_decision', args: { id_or_slug: 'D-999' } },
        ...everyToolCall(seed),
        { text: 'Done.' },
      ]);
      const from = l.model.turns.length;
      const run = await runCodex(l.world, l.home, COURIER);
      assert.equal(run.code, 0, run.stderr.slice(-2000));
      const turns = l.model.turns.slice(from);
      const dev = (req: SeenRequest) => messages(req, 'developer').join('\n\n');
      await t.test('the start', () => assertStart(dev(turns[0]!).split('# Project knowledge (axme').slice(1).join('# Project knowledge (axme')));
      await t.test('the prompt: shipping only', () => assertShippingOnly(dev(turns[0]!)));
      await t.test('patches of src/inventory.ts: its anchored decisions once', () => {
        const anchored = seed.byModule.get('inventory')!.anchored;
        assert.deepEqual(refsOf(recallLines(dev(turns[1]!), EDIT_HEADER)).sort(), [...anchored].sort(), dev(turns[1]!).slice(-2000));
        assert.equal(recallLines(dev(turns.at(-1)!), EDIT_HEADER).length, anchored.length, 'the second patch adds none');
      });
      await t.test('every axme MCP tool: its result, or its error, in words', () => {
        // the output of each call, in the turn after it (the 5 steps before: 2 patches, the search, 2 reads)
        const unread = everyToolCall(seed).flatMap(({ tool }, k) => {
          const items = inputItems(turns[6 + k]!);
          const out = items.filter((i) => /_call_output$/.test(String(i.type))).at(-1)?.output;
          const text =
            typeof out === 'string'
              ? out
              : Array.isArray(out)
                ? out.map((p: { text?: string }) => p?.text ?? JSON.stringify(p)).join('\n')
                : JSON.stringify(out);
          const why = notReadable(text);
          return why ? [`${tool}: ${why}: ${text.slice(0, 300)}`] : [];
        });
        assert.deepEqual(unread, []);
      });
      await t.test('MCP: a result and an error, as text', () => {
        const ok = resultOf(turns, seed.byModule.get('shipping')!.decisions[0]!);
        assert.match(ok ?? '', /^### D-\d+ \[advisory\]/m, String(ok));
        const err = resultOf(turns, 'D-999');
        assert.match(err ?? '', /not found: no decision D-999/, String(err));
        assert.doesNotMatch(err ?? '', /^\s*\{/, 'not JSON');
      });
    } finally {
      await closeCodexLab(l);
    }
  });

  test('Gemini CLI: the start, a prompt, MCP results and errors as text', TEST, (t) =>
    inClientWorld('gemini', geminiWire, async (w, m) => {
      copyWeek(w);
      appendFileSync(join(w.project, 'src', 'checkout.ts'), '// coupons stack now\n');
      m.script([
        { tool: 'axme_get_decision', args: { id_or_slug: seed.byModule.get('shipping')!.decisions[0] } },
        { tool: 'axme_get_decision', args: { id_or_slug: 'D-999' } },
        ...everyToolCall(seed),
        { text: 'Done.' },
      ]);
      const run = await runGemini(w, m, COURIER);
      assert.equal(run.code, 0, run.stderr.slice(-2000));
      const turns = m.turns;
      const first = contentsText(turns[0]!).join('\n');
      await t.test('the start', () => {
        const ctx =
          [...first.matchAll(/<hook_context>([\s\S]*?)<\/hook_context>/g)].map((x) => x[1]!).find((x) => x.includes('# Project knowledge (axme')) ?? '';
        assertStart(ctx);
      });
      await t.test('the prompt: shipping only', () => assertShippingOnly(first.split(COURIER).slice(1).join('')));
      await t.test('every axme MCP tool: its result, or its error, in words', () => {
        const unread = everyToolCall(seed).flatMap(({ tool }, k) => {
          const r = geminiResult(turns, 2 + k);
          // Gemini CLI hands its model an MCP error as JSON around axme's words (below): the words are what must be readable
          const why = r.error
            ? geminiErrorWords(r.error) === null
              ? 'no words in the error'
              : notReadable(geminiErrorWords(r.error)!)
            : notReadable(r.output ?? '');
          return why ? [`${tool}: ${why}: ${r.text.slice(0, 300)}`] : [];
        });
        assert.deepEqual(unread, []);
      });
      await t.test("MCP: a result as text; an error as Gemini CLI wraps it, JSON around axme's words", () => {
        const [ok] = lastResults(turns[1]!);
        assert.match(ok?.text ?? '', /### D-\d+ \[advisory\]/, JSON.stringify(ok));
        const [err] = lastResults(turns[2]!);
        assert.match(err?.error ?? '', /^MCP tool 'axme_get_decision' reported tool error for function call: \{/, JSON.stringify(err));
        assert.match(geminiErrorWords(err?.error ?? '') ?? '', /^not found: no decision D-999/, JSON.stringify(err));
      });
    }),
  );
});
