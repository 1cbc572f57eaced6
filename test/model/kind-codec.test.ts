import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { backlogSpec } from '../../src/model/backlog.ts';
import { Decision, decisionSpec } from '../../src/model/decision.ts';
import { parseMarkdown } from '../../src/model/frontmatter.ts';
import { handoffSpec } from '../../src/model/handoff.ts';
import { decodeItem, encodeItem, type ItemBase, type KindSpec } from '../../src/model/kind.ts';
import { memorySpec } from '../../src/model/memory.ts';
import { questionSpec } from '../../src/model/question.ts';

// The codec of every item kind (model/kind.ts): files decoded and encoded, byte for byte.

// ---------------------------------------------------------------------------------------------
// kind.ts codec with every item kind

const T1 = '2026-01-01T00:00:00.000Z';
const T2 = '2026-01-02T10:30:00Z';

interface KindCase {
  name: string;
  spec: KindSpec<ItemBase>;
  item: ItemBase;
}

function kindCase<T extends ItemBase>(name: string, spec: KindSpec<T>, input: Record<string, unknown>): KindCase {
  return { name, spec: spec as unknown as KindSpec<ItemBase>, item: spec.schema.parse(input) };
}

const KIND_CASES: KindCase[] = [
  kindCase('decision (minimal)', decisionSpec, { slug: 'use-valkey', id: 'D-001', title: 'Use Valkey', decision: 'We use Valkey.', created: T1, updated: T1 }),
  kindCase('decision (full)', decisionSpec, {
    slug: 'use-valkey-2',
    id: 'D-1000',
    title: 'Use Valkey for caching',
    decision: 'We use Valkey.\n\nNot Redis.',
    reasoning: 'License.\n\n### Details\n\n- a\n- b',
    enforce: 'required',
    status: 'revoked',
    scope: ['api', 'web'],
    supersedes: ['use-redis'],
    superseded_by: 'use-dragonfly',
    revoked_at: T2,
    revoked_reason: 'Changed our minds:\n  twice.',
    aliases: ['D-007'],
    anchors: ['src/cache/**'],
    tags: ['cache', 'infra'],
    source: 'human',
    session: 'abc123',
    created: T1,
    updated: T2,
  }),
  kindCase('memory', memorySpec, {
    slug: 'tests-use-real-git',
    type: 'pattern',
    title: 'Tests use real git',
    description: 'Tests create temp repositories.',
    body: 'Example:\n\n```ts\ntempRepo()\n```',
    keywords: ['tests', 'git'],
    status: 'archived',
    archived_at: T2,
    created: T1,
    updated: T2,
  }),
  kindCase('backlog', backlogSpec, {
    slug: 'add-sync',
    id: 'B-003',
    title: 'Add sync',
    description: 'Push and pull refs/memory/main.',
    status: 'in-progress',
    priority: 'high',
    tags: ['sync'],
    notes: '2026-01-02: started',
    aliases: ['B-001'],
    created: T1,
    updated: T2,
  }),
  kindCase('question', questionSpec, {
    slug: 'which-db',
    id: 'Q-002',
    question: 'Which database?',
    context: 'We need durability.',
    answer: 'Postgres.',
    status: 'answered',
    answered_at: T2,
    created: T1,
    updated: T2,
  }),
  kindCase('handoff', handoffSpec, {
    slug: 'sess-7f3a',
    session: 'sess-7f3a',
    source: 'recovered',
    stopped_at: 'writing tests',
    startup_text: 'Welcome back.\nTests are half done.',
    prs: [{ title: 'Add tests', url: 'https://example.com/pr/1', status: 'draft' }],
    dirty_branches: ['feature/tests'],
    summary: 'Wrote model tests.',
    in_progress: 'codec tests',
    next_steps: '- run tsc\n- push',
    test_results: '120 passed',
    blockers: 'none',
    created: T1,
    updated: T2,
  }),
];

describe('kind codec', () => {
  for (const c of KIND_CASES) {
    test(`${c.name}: encode -> decode -> encode gives identical bytes and the same item`, () => {
      const a = encodeItem(c.spec, c.item);
      const d = decodeItem(c.spec, c.item.slug, a);
      assert.ok(d.ok, d.ok ? '' : d.reason);
      assert.deepEqual(d.item, c.item);
      assert.equal(encodeItem(c.spec, d.item), a);
      assert.ok(a.startsWith('---\n') && a.endsWith('\n'));
    });

    test(`${c.name}: unknown fields survive, written after known fields sorted by name`, () => {
      const extra = { zeta: 'last', owner: 'alice', meta: { team: 'infra', nested: { n: 3, list: [1, 'two'] } }, alpha: true };
      const item = { ...c.item, extra };
      const text = encodeItem(c.spec, item);
      const d = decodeItem(c.spec, item.slug, text);
      assert.ok(d.ok, d.ok ? '' : d.reason);
      assert.deepEqual(d.item.extra, extra);
      assert.equal(encodeItem(c.spec, d.item), text);
      const keys = Object.keys(parseMarkdown(text).data);
      const known = keys.filter((k) => c.spec.fields.includes(k));
      assert.deepEqual(keys, [...known, 'alpha', 'meta', 'owner', 'zeta']);
      // known fields keep the spec's order
      assert.deepEqual(
        known,
        c.spec.fields.filter((f) => known.includes(f)),
      );
    });
  }

  test('a hand-written decision file in canonical form re-encodes to the same bytes', () => {
    const file = [
      '---',
      'id: D-001',
      'title: Use Valkey for caching',
      'status: active',
      'enforce: required',
      'tags:',
      '  - cache',
      'created: 2026-01-01T00:00:00Z',
      'updated: 2026-01-02T00:00:00Z',
      'meta:',
      '  team: infra',
      'owner: alice',
      '---',
      '',
      'We use Valkey.',
      '',
      '## Reasoning',
      '',
      'Because.',
      '',
    ].join('\n');
    const d = decodeItem(decisionSpec, 'use-valkey', file);
    assert.ok(d.ok, d.ok ? '' : d.reason);
    assert.equal(d.item.created, '2026-01-01T00:00:00Z');
    assert.equal(d.item.decision, 'We use Valkey.');
    assert.equal(d.item.reasoning, 'Because.');
    assert.deepEqual(d.item.extra, { meta: { team: 'infra' }, owner: 'alice' });
    assert.equal(encodeItem(decisionSpec, d.item), file);
  });

  test('unknown fields written out of order in the file come back sorted after known fields', () => {
    const file = '---\nowner: alice\nid: D-001\naardvark: 1\ntitle: T\ncreated: 2026-01-01\nupdated: 2026-01-01\n---\n\nText.\n';
    const d = decodeItem(decisionSpec, 'x', file);
    assert.ok(d.ok, d.ok ? '' : d.reason);
    assert.equal(
      encodeItem(decisionSpec, d.item),
      '---\nid: D-001\ntitle: T\nstatus: active\nenforce: advisory\ncreated: 2026-01-01\nupdated: 2026-01-01\naardvark: 1\nowner: alice\n---\n\nText.\n',
    );
  });

  test('empty lists are omitted from the file', () => {
    const c = KIND_CASES[0]!;
    const text = encodeItem(c.spec, c.item);
    for (const f of ['tags', 'anchors', 'supersedes', 'aliases', 'scope']) assert.ok(!text.includes(`\n${f}:`), `${f} written:\n${text}`);
    const withEmpty = encodeItem(decisionSpec, { ...(c.item as unknown as Decision), tags: [], scope: [] });
    assert.equal(withEmpty, text);
    const withTags = encodeItem(decisionSpec, { ...(c.item as unknown as Decision), tags: ['x'] });
    assert.match(withTags, /\ntags:\n {2}- x\n/);
  });

  test('the lead and sections live in the body, not the frontmatter', () => {
    const c = KIND_CASES.find((k) => k.name === 'question')!;
    const text = encodeItem(c.spec, c.item);
    const { data, body } = parseMarkdown(text);
    assert.ok(!('question' in data) && !('context' in data) && !('answer' in data));
    assert.equal(body, 'Which database?\n\n## Context\n\nWe need durability.\n\n## Answer\n\nPostgres.');
  });

  const trickyTitles = [
    'null',
    '123',
    'true',
    'yes',
    'no',
    '~',
    '- x',
    'a: b',
    '#hash',
    '---',
    "'quoted'",
    '"double"',
    '2026-01-01',
    '0x1F',
    '.inf',
    '[a, b]',
    '{a: 1}',
    '@at',
    '`tick`',
    '%pct',
    'Ünïcödé \u{1F389}',
    'x # y',
    'trailing:',
  ];
  for (const title of trickyTitles) {
    test(`decision title ${JSON.stringify(title)} round-trips as a string`, () => {
      const item = decisionSpec.schema.parse({ slug: 'x', id: 'D-001', title, decision: 'd', created: T1, updated: T1 });
      const text = encodeItem(decisionSpec, item);
      const d = decodeItem(decisionSpec, 'x', text);
      assert.ok(d.ok, d.ok ? '' : d.reason);
      assert.equal(d.item.title, title);
      assert.equal(encodeItem(decisionSpec, d.item), text);
    });
  }

  const trickyText = ['a\nb  \n\nc', 'x\n', '  leading spaces', '---\nnot frontmatter\n---', 'tab\there', 'line\r\nwith crlf', '# heading\n\n> quote'];
  for (const value of trickyText) {
    test(`multi-line frontmatter text ${JSON.stringify(value)} round-trips (normalized: LF, no trailing whitespace)`, () => {
      const c = KIND_CASES.find((k) => k.name === 'handoff')!;
      const item = { ...c.item, stopped_at: value, startup_text: value } as ItemBase;
      const text = encodeItem(c.spec, item);
      const d = decodeItem(c.spec, item.slug, text);
      assert.ok(d.ok, d.ok ? '' : d.reason);
      const got = d.item as unknown as Record<string, unknown>;
      const normalized = value.replace(/\r\n?/g, '\n').replace(/\s+$/, '');
      assert.equal(got.stopped_at, normalized);
      assert.equal(got.startup_text, normalized);
      assert.equal(encodeItem(c.spec, d.item), encodeItem(c.spec, { ...d.item } as ItemBase), 'stable bytes');
      const again = decodeItem(c.spec, item.slug, encodeItem(c.spec, d.item));
      assert.ok(again.ok && (again.item as unknown as Record<string, unknown>).stopped_at === normalized, 'a second round trip changes nothing');
    });
  }

  const invalid: Array<[string, KindSpec<ItemBase>, string, string, RegExp]> = [
    [
      'decision status',
      decisionSpec as unknown as KindSpec<ItemBase>,
      '---\nid: D-001\ntitle: T\nstatus: bogus\ncreated: 2026-01-01\nupdated: 2026-01-01\n---\n\nd\n',
      'status',
      /status: /,
    ],
    [
      'decision id',
      decisionSpec as unknown as KindSpec<ItemBase>,
      '---\nid: B-001\ntitle: T\ncreated: 2026-01-01\nupdated: 2026-01-01\n---\n\nd\n',
      'id',
      /id: must look like D-001/,
    ],
    [
      'decision created',
      decisionSpec as unknown as KindSpec<ItemBase>,
      '---\nid: D-001\ntitle: T\ncreated: last tuesday\nupdated: 2026-01-01\n---\n\nd\n',
      'created',
      /created: must be an ISO 8601/,
    ],
    [
      'memory type',
      memorySpec as unknown as KindSpec<ItemBase>,
      '---\ntype: other\ntitle: T\ndescription: d\ncreated: 2026-01-01\nupdated: 2026-01-01\n---\n',
      'type',
      /type: /,
    ],
    [
      'backlog priority',
      backlogSpec as unknown as KindSpec<ItemBase>,
      '---\nid: B-001\ntitle: T\npriority: urgent\ncreated: 2026-01-01\nupdated: 2026-01-01\n---\n',
      'priority',
      /priority: /,
    ],
    [
      'question status',
      questionSpec as unknown as KindSpec<ItemBase>,
      '---\nid: Q-001\nstatus: closed\ncreated: 2026-01-01\nupdated: 2026-01-01\n---\n\nWhy?\n',
      'status',
      /status: /,
    ],
    [
      'handoff source',
      handoffSpec as unknown as KindSpec<ItemBase>,
      '---\nsource: robot\ncreated: 2026-01-01\nupdated: 2026-01-01\n---\n',
      'source',
      /source: /,
    ],
    [
      'decision tags not a list',
      decisionSpec as unknown as KindSpec<ItemBase>,
      '---\nid: D-001\ntitle: T\ntags: 3\ncreated: 2026-01-01\nupdated: 2026-01-01\n---\n\nd\n',
      'tags',
      /tags: /,
    ],
  ];
  for (const [name, spec, text, field, reason] of invalid) {
    test(`invalid ${name}: ok:false with a reason naming ${field}`, () => {
      const d = decodeItem(spec, 'x', text);
      assert.equal(d.ok, false);
      assert.ok(!d.ok);
      assert.match(d.reason, reason);
      // and only that field
      assert.equal(d.reason.split('; ').length, 1, d.reason);
    });
  }

  test('broken YAML gives a reason, not a throw', () => {
    const d = decodeItem(decisionSpec, 'x', '---\ntitle: [unclosed\n---\nbody');
    assert.ok(!d.ok);
    assert.match(d.reason, /^frontmatter is not valid YAML: /);
  });

  const garbage = [
    '',
    '\u0000\u0001\u0002\u00ff\u00fe',
    '---\n: : :\n---',
    '---\n---\n',
    '---\n- a\n- b\n---\n',
    '---\n"unterminated\n---\n',
    '---\na: &a [1]\nb: *a\nc: *nope\n---\n',
    '---\nid: D-001\ntitle: x\ncreated: 2026-01-01\nupdated: 2026-01-01\n---\n\u0000',
    '\ufffd\ufffd---\n\ud800',
    '---',
    '---\n---\n---\n---',
    '---\nid:\n  - [ {\n---',
    '---\n? [a, b]\n: c\n---\n',
    '---\ntitle: !!binary aGVsbG8=\n---\n',
    '---\ntitle: !custom x\n---\n',
    '---\n' + 'a: &a [' + '*a,'.repeat(10) + ']\n---\n',
    '\r\r\r---\r---\r',
    '----\ntitle: x\n----\n',
  ];
  for (const c of KIND_CASES) {
    test(`${c.name}: decode never throws on garbage`, () => {
      for (const g of garbage) {
        let d;
        assert.doesNotThrow(() => (d = decodeItem(c.spec, 'x', g)), JSON.stringify(g));
        assert.ok(d !== undefined);
        const r = d as ReturnType<typeof decodeItem>;
        assert.equal(r.ok, false, `${JSON.stringify(g)} decoded`);
        if (!r.ok) assert.ok(r.reason.length > 0);
      }
    });
  }

  test('decode never throws on random input (seeded)', () => {
    let seed = 12345;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const alphabet = [
      '-',
      '-',
      '-',
      '\n',
      ':',
      ' ',
      'a',
      'id',
      'D-001',
      '[',
      ']',
      '{',
      '}',
      '"',
      "'",
      '&',
      '*',
      '!',
      '#',
      '|',
      '>',
      '\u0000',
      '\ud800',
      '\t',
      '## Reasoning',
      '?',
      ',',
      'title',
      'created',
      '2026-01-01',
    ];
    for (let i = 0; i < 500; i++) {
      let s = rand() < 0.5 ? '---\n' : '';
      const len = Math.floor(rand() * 40);
      for (let j = 0; j < len; j++) s += alphabet[Math.floor(rand() * alphabet.length)]!;
      if (rand() < 0.5) s += '\n---\n';
      for (const c of KIND_CASES) {
        assert.doesNotThrow(() => decodeItem(c.spec, 'x', s), JSON.stringify(s));
      }
    }
  });
});
