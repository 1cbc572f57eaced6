/**
 * Any text in any free-text field of any item kind is written to its file and read back exactly
 * (after the documented normalisation: CR LF and CR become LF, blank lines before and whitespace
 * after the text are dropped), whatever Markdown it holds: the headings axme splits a body by,
 * `---` lines, front-matter-like blocks, code fences, HTML comments. Text axme refuses (NUL and
 * other control characters, lone surrogates, bidirectional overrides) is refused with a reason,
 * never stored differently.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { backlogSpec } from '../../src/model/backlog.ts';
import { decisionSpec } from '../../src/model/decision.ts';
import { handoffSpec } from '../../src/model/handoff.ts';
import { decodeItem, encodeItem, type ItemBase, type KindSpec } from '../../src/model/kind.ts';
import { LIMITS } from '../../src/model/limits.ts';
import { memorySpec } from '../../src/model/memory.ts';
import { oracleSpec } from '../../src/model/oracle.ts';
import { planSpec } from '../../src/model/plan.ts';
import { questionSpec } from '../../src/model/question.ts';
import { sessionSpec } from '../../src/model/session-summary.ts';
import { hiddenTextProblem, textProblem } from '../../src/model/text.ts';
import { TRICKY_LINES } from '../markdown-lines.ts';

const NOW = '2026-11-26T00:00:00.000Z';

/** A valid item of each kind, and its free-text fields (body and frontmatter alike). */
const KINDS: Array<{ spec: KindSpec<ItemBase>; base: Record<string, unknown>; text: string[]; title?: string }> = [
  { spec: decisionSpec as never, base: { id: 'D-001', title: 'T', decision: 'd' }, text: ['decision', 'reasoning', 'revoked_reason'], title: 'title' },
  { spec: memorySpec as never, base: { type: 'pattern', title: 'T', description: 'd' }, text: ['description', 'body'], title: 'title' },
  { spec: backlogSpec as never, base: { id: 'B-001', title: 'T' }, text: ['description', 'notes'], title: 'title' },
  { spec: questionSpec as never, base: { id: 'Q-001', question: 'q' }, text: ['question', 'context', 'answer'] },
  { spec: handoffSpec as never, base: {}, text: ['stopped_at', 'startup_text', 'summary', 'in_progress', 'next_steps', 'test_results', 'blockers'] },
  { spec: planSpec as never, base: { title: 'T' }, text: ['body'], title: 'title' },
  { spec: sessionSpec as never, base: {}, text: ['worklog'] },
  { spec: oracleSpec as never, base: { title: 'T' }, text: ['body'] },
];

const line = fc.oneof(fc.constantFrom(...TRICKY_LINES), fc.string({ unit: 'grapheme', maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 6 }));
/** Text assembled from tricky lines, joined by any line ending, with arbitrary prefixes/suffixes. */
const tricky = fc
  .tuple(
    fc.array(line, { maxLength: 8 }),
    fc.constantFrom('\n', '\r\n', '\r', '\n\n'),
    fc.string({ unit: 'binary', maxLength: 4 }),
    fc.string({ unit: 'binary', maxLength: 4 }),
  )
  .map(([lines, eol, pre, post]) => pre + lines.join(eol) + post);
const anyText = fc.oneof(tricky, fc.string({ unit: 'binary', maxLength: 200 }), fc.string({ unit: 'grapheme', maxLength: 200 }));

/** The documented normalisation of a stored text. */
function normalised(s: string): string {
  return s
    .replace(/\r\n?/g, '\n')
    .replace(/^(?:[ \t]*\n)+/, '')
    .replace(/\s+$/, '');
}

function roundTrip(spec: KindSpec<ItemBase>, item: ItemBase): { text: string; back: Record<string, unknown> } {
  const text = encodeItem(spec, item);
  const decoded = decodeItem(spec, item.slug, text);
  assert.ok(decoded.ok, `reads back: ${decoded.ok ? '' : decoded.reason}\n${text}`);
  // written again, the file is the same bytes: what git stores is stable
  assert.equal(encodeItem(spec, decoded.item), text);
  return { text, back: decoded.item as unknown as Record<string, unknown> };
}

describe('markdown fidelity: any text in any free-text field reads back exactly', () => {
  for (const { spec, base, text: fields, title } of KINDS) {
    test(`${spec.kind}: ${fields.join(', ')}`, () => {
      fc.assert(
        fc.property(fc.constantFrom(...fields), anyText, fc.constantFrom(...fields), anyText, (f1, v1, f2, v2) => {
          const input = { ...base, slug: 'x', created: NOW, updated: NOW, [f1]: v1, [f2]: v2 };
          const parsed = spec.schema.safeParse(input);
          const refused = (f1 === f2 ? [v2] : [v1, v2]).some((v) => textProblem(v) !== null || hiddenTextProblem(v) !== null || v.length > LIMITS.text);
          if (!parsed.success) {
            // refused only for a documented reason (or an empty required text)
            const emptyRequired = parsed.error.issues.every((i) => /must not be empty/.test(i.message));
            assert.ok(refused || emptyRequired, `refused without reason: ${JSON.stringify(parsed.error.issues)}`);
            return;
          }
          assert.ok(!refused, 'text with a control character, a lone surrogate or a bidi override is refused');
          const item = parsed.data as ItemBase & Record<string, unknown>;
          assert.equal(item[f2], normalised(v2));
          if (f1 !== f2) assert.equal(item[f1], normalised(v1));
          const { back } = roundTrip(spec, item);
          for (const f of fields) assert.equal(back[f] ?? '', item[f] ?? '', `${f} reads back the same`);
        }),
        { numRuns: Number(process.env.FC_RUNS ?? 300) },
      );
    });
  }

  test('every body field at once holding every heading of its kind', () => {
    for (const { spec, base, text: fields } of KINDS) {
      const headings = spec.sections.map(([h]) => `## ${h}`).join('\n\n');
      const input: Record<string, unknown> = { ...base, slug: 'x', created: NOW, updated: NOW };
      for (const f of fields) input[f] = `${f} starts\n\n${headings}\n\n---\ntitle: no\n---\n\n\`\`\`\n## Reasoning\n\`\`\`\n<!-- ${f} -->`;
      const item = spec.schema.parse(input) as ItemBase & Record<string, unknown>;
      const { text, back } = roundTrip(spec, item);
      for (const f of fields) assert.equal(back[f], item[f], `${spec.kind}.${f}`);
      if (spec.sections.length) assert.match(text, /^[a-z_]+: \|/m, 'a field that would split the body is written as a YAML block in the frontmatter');
    }
  });

  test('titles keep their rules: one line, invisible characters removed, whitespace collapsed', () => {
    for (const { spec, base, title } of KINDS.filter((k) => k.title)) {
      fc.assert(
        fc.property(
          fc.oneof(
            fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }),
            fc.constantFrom('## Reasoning', '---', 'a: b', '"quoted"', '#1 first', '- [x] done'),
          ),
          (t) => {
            const parsed = spec.schema.safeParse({ ...base, slug: 'x', created: NOW, updated: NOW, [title!]: t });
            if (!parsed.success) return;
            const item = parsed.data as ItemBase & Record<string, unknown>;
            assert.doesNotMatch(String(item[title!]), /[\n\r]/);
            assert.equal(roundTrip(spec, item).back[title!], item[title!]);
          },
        ),
        { numRuns: 100 },
      );
    }
  });

  test('a file in the old form (every body field under its heading) still reads, and is written the same way', () => {
    const old =
      '---\nid: D-001\ntitle: Use Valkey\nstatus: active\nenforce: advisory\ncreated: 2026-01-01T00:00:00.000Z\nupdated: 2026-01-01T00:00:00.000Z\n---\n\nCache in Valkey.\n\n## Reasoning\n\nLicence.\n';
    const r = decodeItem(decisionSpec, 'use-valkey', old);
    assert.ok(r.ok);
    assert.equal(r.item.decision, 'Cache in Valkey.');
    assert.equal(r.item.reasoning, 'Licence.');
    assert.equal(encodeItem(decisionSpec, r.item), old);
  });

  test('a decision whose text holds "## Reasoning" keeps it in the frontmatter; the reasoning stays in the body', () => {
    const item = decisionSpec.schema.parse({
      slug: 'x',
      id: 'D-001',
      title: 'T',
      decision: 'Use ADRs.\n\n## Reasoning\n\nPasted from the ADR.',
      reasoning: 'Ours.',
      created: NOW,
      updated: NOW,
    });
    const text = encodeItem(decisionSpec, item);
    assert.match(text, /^decision: \|-?\n {2}Use ADRs\.\n\n {2}## Reasoning\n/m);
    assert.match(text, /\n---\n\n## Reasoning\n\nOurs\.\n$/);
    const back = decodeItem(decisionSpec, 'x', text);
    assert.ok(back.ok);
    assert.equal(back.item.decision, item.decision);
    assert.equal(back.item.reasoning, 'Ours.');
  });

  test('a hand edit that leaves text in the body beside a frontmatter lead loses nothing', () => {
    const text = `---\nid: D-001\ntitle: T\ncreated: ${NOW}\nupdated: ${NOW}\ndecision: |-\n  From the frontmatter.\n---\n\nAdded by hand.\n`;
    const r = decodeItem(decisionSpec, 'x', text);
    assert.ok(r.ok);
    assert.equal(r.item.decision, 'From the frontmatter.\n\nAdded by hand.');
  });
});
