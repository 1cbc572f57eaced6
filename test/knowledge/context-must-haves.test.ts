/**
 * Page 1 of the context (what the session start injects) holds what the agent must know before
 * anything else — the safety rules, every required decision by its line or an explicit count of
 * the rest and how to list them, the open questions — whatever the handoff's size: the handoff and
 * the startup text get what is left, cut with a pointer to the whole. A huge handoff once filled
 * the page and pushed the required decisions to a page 2 the agent is never given.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import fc from 'fast-check';
import { closeKnowledgeBase, openKnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { assembleContext } from '../../src/knowledge/views/context.ts';
import { Decision, decisionSpec } from '../../src/model/decision.ts';
import { stringifyYaml } from '../../src/model/frontmatter.ts';
import { Handoff, handoffSpec } from '../../src/model/handoff.ts';
import { formatId } from '../../src/model/ids.ts';
import { encodeItem } from '../../src/model/kind.ts';
import { MIN_PAGE_BUDGET } from '../../src/model/page-budget.ts';
import { Question, questionSpec } from '../../src/model/question.ts';
import { DEFAULT_RULES } from '../../src/model/safety-rules.ts';
import { CLI, cleanEnv, importCommit } from '../helpers.ts';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
});

const AT = '2026-01-01T00:00:00.000Z';

interface Shape {
  required: number;
  advisory: number;
  questions: number;
  /** how many times the handoff's sentences repeat (0: no handoff) */
  handoff: number;
  /** the handoff is of a session another clone ran, by an author with a long name (its title says so) */
  elsewhere?: boolean;
  /** axme.yaml's context.budget, when it sets one */
  configured?: number;
}

/** A store of that shape, written in one fast-import commit. */
function seeded(s: Shape): string {
  const dir = mkdtempSync(join(tmpdir(), 'axme-must-'));
  dirs.push(dir);
  spawnSync('git', ['init', '-q', '-b', 'main', dir]);
  const files: Array<[string, string]> = [
    ['axme.yaml', stringifyYaml({ format: 1, kind: 'repo', ...(s.configured ? { context: { budget: s.configured } } : {}) })],
    ['safety/rules.yaml', stringifyYaml(DEFAULT_RULES)],
  ];
  for (let i = 1; i <= s.required + s.advisory; i++) {
    const d = Decision.parse({
      slug: `decision-${i}`,
      id: formatId('D', i),
      title: i <= s.required ? `Never do forbidden thing number ${i}` : `Advisory default ${i}`,
      decision: `Rule ${i} says what it says, at some length. `.repeat(4),
      enforce: i <= s.required ? 'required' : 'advisory',
      created: AT,
      updated: AT,
    });
    files.push([`decisions/${d.slug}.md`, encodeItem(decisionSpec, d)]);
  }
  for (let i = 1; i <= s.questions; i++) {
    const q = Question.parse({
      slug: `question-${i}`,
      id: formatId('Q', i),
      question: `Should we do open thing ${i} this way or that way?`,
      created: AT,
      updated: AT,
    });
    files.push([`questions/${q.slug}.md`, encodeItem(questionSpec, q)]);
  }
  if (s.handoff) {
    const h = Handoff.parse({
      slug: 'session-b',
      summary: 'Worked on the importer. '.repeat(s.handoff),
      next_steps: 'Finish it.',
      ...(s.elsewhere ? { author: 'Jane Q. Developer-Longname <jane.developer@a-rather-long-company-domain.example.com>' } : {}),
      startup_text: 'Tell the user the importer is half done. '.repeat(s.handoff),
      created: AT,
      updated: AT,
    });
    files.push([`handoffs/${h.slug}.md`, encodeItem(handoffSpec, h)]);
  }
  importCommit(dir, files);
  return dir;
}

/**
 * What page 1 must hold for that shape, its sections or, where the budget leaves no room for them,
 * the must-haves in brief (each by its count and the tool that lists it); the page's text in the
 * message when it does not.
 */
function checkPageOne(text: string, s: Shape, budget: number): void {
  assert.ok(text.length <= budget, `page 1 is ${text.length} characters, over ${budget}`);
  const brief = /## Must-haves in brief[^\n]*\n((?:- [^\n]*\n?)*)/.exec(text)?.[1];
  if (brief !== undefined) {
    assert.match(brief, /^- the safety rules: axme_safety/m, text);
    if (s.required) assert.match(brief, new RegExp(`^- ${s.required} required decisions?: axme_decisions`, 'm'), text);
    if (s.questions) assert.match(brief, new RegExp(`^- ${s.questions} open questions? for the user: axme_list_open_questions`, 'm'), text);
    if (s.handoff) assert.match(brief, /^- the latest handoff[^\n]*: git show refs\/memory\/main:handoffs\/session-b\.md/m, text);
    return;
  }
  assert.match(text, /## Safety rules/, text);
  if (s.required) {
    const section = /## Required decisions[^\n]*\n((?:- [^\n]*\n?)*)/.exec(text)?.[1] ?? '';
    assert.ok(section, `no required decisions on page 1:\n${text}`);
    const listed = (section.match(/^- D-\d+ /gm) ?? []).length;
    if (listed < s.required)
      assert.match(
        section,
        new RegExp(`${s.required - listed} more required decisions: run axme_decisions`),
        `listed ${listed} of ${s.required} and no count:\n${text}`,
      );
  }
  if (s.questions) {
    const section = /## Open questions[^\n]*\n((?:- [^\n]*\n?)*)/.exec(text)?.[1] ?? '';
    assert.ok(section, `no open questions on page 1:\n${text}`);
    const listed = (section.match(/^- Q-\d+ /gm) ?? []).length;
    if (listed < s.questions) assert.match(section, new RegExp(`${s.questions - listed} more: axme_list_open_questions`), text);
  }
  if (s.handoff) assert.match(text, /## Latest handoff/, text);
}

describe('page 1 holds the must-haves whatever the handoff', () => {
  test('a huge handoff and startup text: the one required decision is on the session start page, the handoff cut with a pointer', async () => {
    const s = { required: 1, advisory: 0, questions: 0, handoff: 150 };
    const dir = seeded(s);
    const kb = await openKnowledgeBase({ cwd: dir, env: cleanEnv(), actor: 'agent' });
    try {
      const page = await assembleContext(kb, { budget: 5_200 });
      checkPageOne(page.text, s, 5_200);
      assert.match(page.text, /- D-001 Never do forbidden thing number 1/);
      assert.match(page.text, /the whole handoff: git show refs\/memory\/main:handoffs\/session-b\.md/);
    } finally {
      await closeKnowledgeBase(kb);
    }
  });

  test('the session-start hook, as Claude Code runs it: a huge handoff, and the required decision is in what it injects', () => {
    const dir = seeded({ required: 1, advisory: 0, questions: 3, handoff: 150 });
    const started = spawnSync(process.execPath, [CLI, 'hook', 'session-start'], {
      cwd: dir,
      env: { ...cleanEnv(), CLAUDECODE: '1' },
      encoding: 'utf8',
      input: JSON.stringify({ session_id: 'x', cwd: dir, hook_event_name: 'SessionStart', source: 'startup' }),
    });
    assert.equal(started.status, 0, started.stderr);
    const injected = JSON.parse(started.stdout).hookSpecificOutput.additionalContext as string;
    assert.match(injected, /## Required decisions[^\n]*\n- D-001 Never do forbidden thing number 1/, injected);
    assert.match(injected, /## Open questions[^\n]*\n- Q-001 /, injected);
    assert.match(injected, /## Safety rules/, injected);
    assert.match(injected, /## Latest handoff[^\n]*\nSession session-b/, injected);
  });

  test('30 required decisions, 20 open questions and a huge handoff at a 5,000 budget: all the must-haves on page 1', async () => {
    const s = { required: 30, advisory: 5, questions: 20, handoff: 150 };
    const dir = seeded(s);
    const kb = await openKnowledgeBase({ cwd: dir, env: cleanEnv(), actor: 'agent' });
    try {
      const page = await assembleContext(kb, { budget: 5_000 });
      checkPageOne(page.text, s, 5_000);
    } finally {
      await closeKnowledgeBase(kb);
    }
  });

  test(`below the least budget (${MIN_PAGE_BUDGET} characters): \`axme context --budget\` is a usage error; axme.yaml's context.budget is a store problem, and the pages keep to the least`, () => {
    const dir = seeded({ required: 30, advisory: 5, questions: 20, handoff: 150, elsewhere: true, configured: 800 });
    const low = spawnSync(process.execPath, [CLI, 'context', '--budget', String(MIN_PAGE_BUDGET - 1)], { cwd: dir, env: cleanEnv(), encoding: 'utf8' });
    assert.equal(low.status, 2, low.stdout);
    assert.match(low.stderr, new RegExp(`--budget takes a whole number of at least ${MIN_PAGE_BUDGET}, not "${MIN_PAGE_BUDGET - 1}"`));
    assert.equal(low.stdout, '');
    const configured = spawnSync(process.execPath, [CLI, 'context'], { cwd: dir, env: cleanEnv(), encoding: 'utf8' });
    assert.equal(configured.status, 0, configured.stderr);
    assert.ok(configured.stdout.trimEnd().length <= MIN_PAGE_BUDGET, `page 1 is ${configured.stdout.trimEnd().length} characters`);
    checkPageOne(configured.stdout.trimEnd(), { required: 30, advisory: 5, questions: 20, handoff: 150 }, MIN_PAGE_BUDGET);
    const fsck = spawnSync(process.execPath, [CLI, 'fsck'], { cwd: dir, env: cleanEnv(), encoding: 'utf8' });
    assert.match(
      `${fsck.stdout}${fsck.stderr}`,
      new RegExp(`axme\\.yaml.*context\\.budget is 800, under the least a page holds \\(${MIN_PAGE_BUDGET} characters\\)`),
    );
  });

  test('property: for any store and budget, page 1 has the safety rules, each required decision or a count of the rest, the open questions', {
    timeout: 300_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          required: fc.integer({ min: 0, max: 40 }),
          advisory: fc.integer({ min: 0, max: 20 }),
          questions: fc.integer({ min: 0, max: 30 }),
          handoff: fc.integer({ min: 0, max: 300 }),
          elsewhere: fc.boolean(),
        }),
        fc.integer({ min: MIN_PAGE_BUDGET, max: 14_000 }),
        async (s, budget) => {
          const dir = seeded(s);
          const kb = await openKnowledgeBase({ cwd: dir, env: cleanEnv(), actor: 'agent' });
          try {
            checkPageOne((await assembleContext(kb, { budget, ownHandoff: s.elsewhere ? () => false : undefined })).text, s, budget);
          } finally {
            await closeKnowledgeBase(kb);
          }
        },
      ),
      {
        numRuns: 15,
        examples: [
          // a case CI found: the page's footer was not counted in its budget (3,014 characters at 3,000)
          [{ required: 5, advisory: 1, questions: 8, handoff: 5, elsewhere: false }, 3_000],
          // at the least budget, the required decisions and the handoff went to page 2, which the session start never delivers
          [{ required: 30, advisory: 5, questions: 20, handoff: 150, elsewhere: true }, MIN_PAGE_BUDGET],
        ],
      },
    );
  });
});
