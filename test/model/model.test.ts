import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { backlogSpec } from '../../src/model/backlog.ts';
import { Timestamp } from '../../src/model/common.ts';
import { Decision, DecisionInput, decisionSpec } from '../../src/model/decision.ts';
import { normalizeTitle } from '../../src/model/dedup.ts';
import { isAxmeError } from '../../src/model/errors.ts';
import { joinSections, parseMarkdown, parseYaml, reservedHeadingIn, splitSections, stringifyMarkdown } from '../../src/model/frontmatter.ts';
import { Handoff, handoffSpec } from '../../src/model/handoff.ts';
import { displayId, formatId, nextId, parseId } from '../../src/model/ids.ts';
import { decodeItem, encodeItem, type ItemBase, type KindSpec } from '../../src/model/kind.ts';
import { formatSize, LIMITS } from '../../src/model/limits.ts';
import { memorySpec } from '../../src/model/memory.ts';
import { CONFIG_PATH, classifyPath, itemPath, RULES_PATH } from '../../src/model/paths.ts';
import { questionSpec } from '../../src/model/question.ts';
import { DEFAULT_RULES, SafetyRules } from '../../src/model/safety-rules.ts';
import { assertNoSecrets, findSecret, redactSecrets } from '../../src/model/secrets.ts';
import { assertSlug, isSlug, SLUG_MAX, slugify, uniqueSlug } from '../../src/model/slug.ts';
import { longText, stringList, textProblem, titleText } from '../../src/model/text.ts';
import { parseInput } from '../../src/model/validate.ts';
import { parseDateSpec } from '../../src/store/revision.ts';

/** Runs `fn` and returns what it threw; fails when it does not throw. */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  assert.fail('expected a throw');
}

/** Error messages of a failed safeParse (empty when it succeeded). */
function issues(r: { success: boolean; error?: { issues: Array<{ message: string }> } }): string[] {
  return r.success ? [] : (r.error?.issues ?? []).map((i) => i.message);
}

// ---------------------------------------------------------------------------------------------
// slug.ts

describe('slugify', () => {
  const cases: Array<[title: string, fallback: string | undefined, expected: string]> = [
    ['../../x', undefined, 'x'],
    ['///', 'fallback', 'fallback'],
    ['..', 'fallback', 'fallback'],
    ['a/b', undefined, 'a-b'],
    ['Café Über', undefined, 'cafe-uber'],
    ['\u{1F389}\u{1F680}', 'party', 'tada-rocket'], // an emoji-only title: the emoji's names
    ['!?!', 'party', 'party'],
    ['', 'empty', 'empty'],
    ['  Use Valkey -- for   CACHING!! ', undefined, 'use-valkey-for-caching'],
    ['C:\\Windows\\system32', undefined, 'c-windows-system32'],
    ['\u0000\u0001evil\u0000', undefined, 'evil'],
    ['.git/config', undefined, 'git-config'],
  ];
  for (const [title, fallback, expected] of cases) {
    test(`${JSON.stringify(title)} -> ${expected}`, () => {
      const s = slugify(title, fallback);
      assert.equal(s, expected);
      assert.ok(isSlug(s));
    });
  }

  test('a title with no letters or digits and no usable fallback gets a stable short hash', () => {
    const a = slugify('///');
    assert.match(a, /^item-[0-9a-f]{8}$/);
    assert.equal(slugify('///'), a);
    assert.notEqual(slugify('...'), a);
    // an invalid fallback is not used: it could be a path
    assert.match(slugify('!!!', '../etc'), /^item-[0-9a-f]{8}$/);
    assert.match(slugify('', 'Not A Slug'), /^item-[0-9a-f]{8}$/);
  });

  test('a title over 60 characters is cut at a dash boundary and stays valid', () => {
    const title = 'alpha bravo charlie delta echo foxtrot golf hotel india juliett kilo lima';
    const full = 'alpha-bravo-charlie-delta-echo-foxtrot-golf-hotel-india-juliett-kilo-lima';
    const s = slugify(title);
    assert.ok(s.length <= SLUG_MAX, `${s} is ${s.length} chars`);
    assert.ok(isSlug(s));
    assert.ok(full.startsWith(s + '-'), `${s} is not cut at a dash of ${full}`);
    assert.equal(s, 'alpha-bravo-charlie-delta-echo-foxtrot-golf-hotel-india');
  });

  test('a long title without dashes is hard-cut to 60 characters', () => {
    const s = slugify('x'.repeat(200));
    assert.equal(s, 'x'.repeat(SLUG_MAX));
    assert.ok(isSlug(s));
  });

  test('a long title whose only dash is early is hard-cut, never trailing a dash', () => {
    const s = slugify('ab ' + 'c'.repeat(100));
    assert.equal(s.length, SLUG_MAX);
    assert.ok(isSlug(s));
    assert.ok(s.startsWith('ab-c'));
  });

  test('hostile titles always give a valid slug', () => {
    const hostile = [
      '../../../../etc/passwd',
      '/',
      '\\',
      '-',
      '--a--',
      'a' + '-'.repeat(100) + 'b',
      ' '.repeat(80),
      '%2e%2e%2f',
      'CON',
      'x'.repeat(59) + ' y',
      '\u202Eevil',
      'ÅÄÖ '.repeat(30),
    ];
    for (const h of hostile) {
      const s = slugify(h);
      assert.ok(isSlug(s), `${JSON.stringify(h)} -> ${JSON.stringify(s)}`);
      assert.ok(!s.includes('/') && !s.includes('..'));
    }
  });
});

describe('isSlug', () => {
  const accepted = ['a', 'x', 'abc-123', '0', 'use-valkey-for-caching', 'a'.repeat(60), 'a-b-c'];
  const rejected = ['', '..', '.', 'a/b', 'A', 'Abc', '-a', 'a-', 'a--b', 'a'.repeat(61), 'a b', 'a_b', 'a.md', 'café', '../x'];
  for (const s of accepted) test(`accepts ${JSON.stringify(s)}`, () => assert.equal(isSlug(s), true));
  for (const s of rejected) test(`rejects ${JSON.stringify(s)}`, () => assert.equal(isSlug(s), false));
});

describe('uniqueSlug', () => {
  test('returns the slug itself when it is free', () => {
    assert.equal(
      uniqueSlug('x', () => false),
      'x',
    );
  });

  test('suffixes -2, then -3, ...', () => {
    const taken = new Set(['x']);
    assert.equal(
      uniqueSlug('x', (s) => taken.has(s)),
      'x-2',
    );
    taken.add('x-2');
    assert.equal(
      uniqueSlug('x', (s) => taken.has(s)),
      'x-3',
    );
    for (let n = 3; n <= 9; n++) taken.add(`x-${n}`);
    assert.equal(
      uniqueSlug('x', (s) => taken.has(s)),
      'x-10',
    );
  });

  test('a 60-character slug stays within 60 characters and valid with a suffix', () => {
    const base = 'a'.repeat(60);
    const taken = new Set([base]);
    for (let n = 2; n <= 10; n++) {
      const s = uniqueSlug(base, (c) => taken.has(c));
      assert.equal(s, `${'a'.repeat(60 - String(n).length - 1)}-${n}`);
      assert.ok(s.length <= SLUG_MAX);
      assert.ok(isSlug(s), s);
      taken.add(s);
    }
  });

  test('a cut that ends on a dash does not leave a double dash', () => {
    const base = 'a'.repeat(57) + '-bc'; // 60 chars; slice(0, 58) ends in "-"
    const s = uniqueSlug(base, (c) => c === base);
    assert.equal(s, 'a'.repeat(57) + '-2');
    assert.ok(isSlug(s));
  });
});

describe('assertSlug', () => {
  test('returns a valid slug unchanged', () => {
    assert.equal(assertSlug('use-valkey'), 'use-valkey');
  });
  for (const bad of ['..', 'a/b', 'A', '', '-a', 'a'.repeat(61)]) {
    test(`throws INVALID_INPUT for ${JSON.stringify(bad)}`, () => {
      const err = thrown(() => assertSlug(bad, 'decision slug'));
      assert.ok(isAxmeError(err, 'INVALID_INPUT'), String(err));
      assert.match(err.message, /^decision slug /);
      assert.match(err.message, /lowercase letters, digits and single dashes/);
      assert.deepEqual(err.data, { slug: bad });
    });
  }
});

// ---------------------------------------------------------------------------------------------
// ids.ts

describe('ids', () => {
  const formats: Array<['D' | 'B' | 'Q', number, string]> = [
    ['D', 1, 'D-001'],
    ['B', 42, 'B-042'],
    ['Q', 999, 'Q-999'],
    ['D', 1000, 'D-1000'],
    ['D', 12345, 'D-12345'],
  ];
  for (const [prefix, n, id] of formats) {
    test(`formatId(${prefix}, ${n}) = ${id} and parses back`, () => {
      assert.equal(formatId(prefix, n), id);
      assert.deepEqual(parseId(id), { prefix, n });
    });
  }

  const parses: Array<[string, { prefix: string; n: number } | null]> = [
    ['d-007', { prefix: 'D', n: 7 }],
    ['b-010', { prefix: 'B', n: 10 }],
    ['q-1000', { prefix: 'Q', n: 1000 }],
    ['D-07', null],
    ['D-', null],
    ['X-001', null],
    ['D001', null],
    [' D-001', null],
    ['D-001 ', null],
    ['D-001a', null],
    ['', null],
  ];
  for (const [s, expected] of parses) {
    test(`parseId(${JSON.stringify(s)})`, () => assert.deepEqual(parseId(s), expected));
  }

  const nexts: Array<[string, 'D' | 'B' | 'Q', string[], string]> = [
    ['empty store', 'D', [], 'D-001'],
    ['after the highest', 'D', ['D-001', 'D-003', 'D-002'], 'D-004'],
    ['other prefixes ignored', 'B', ['D-050', 'Q-020', 'B-002'], 'B-003'],
    ['aliases count as used', 'D', ['D-002', 'd-007', 'D-005'], 'D-008'],
    ['beyond 999', 'D', ['D-999'], 'D-1000'],
    ['garbage ignored', 'Q', ['nope', 'Q-', 'Q-1', 'Q-004'], 'Q-005'],
  ];
  for (const [name, prefix, used, expected] of nexts) {
    test(`nextId: ${name}`, () => assert.equal(nextId(prefix, used), expected));
  }

  test('nextId accepts any iterable (a Set of ids and aliases)', () => {
    assert.equal(nextId('B', new Set(['B-001', 'B-011'])), 'B-012');
  });

  test('displayId schema accepts its own prefix only', () => {
    const s = displayId('D');
    assert.equal(s.safeParse('D-001').success, true);
    assert.equal(s.safeParse('D-1000').success, true);
    assert.equal(s.safeParse('B-001').success, false);
    assert.equal(s.safeParse('D-01').success, false);
    assert.deepEqual(issues(s.safeParse('x')), ['must look like D-001']);
  });
});

// ---------------------------------------------------------------------------------------------
// dedup.ts

describe('normalizeTitle', () => {
  const same: Array<[string, string]> = [
    ['Use Valkey for caching', 'valkey caching'],
    ['USE VALKEY FOR CACHING', 'use valkey for caching'],
    ['Valkey: caching!', 'valkey caching'],
    ['  valkey,   caching.  ', 'valkey caching'],
    ['Use the Café', 'cafe'],
    ['Use an API for the users', 'api users'],
  ];
  for (const [a, b] of same) {
    test(`${JSON.stringify(a)} == ${JSON.stringify(b)}`, () => assert.equal(normalizeTitle(a), normalizeTitle(b)));
  }

  const different: Array<[string, string]> = [
    ['Use Valkey for caching', 'Use Redis for caching'],
    ['Use Postgres', 'Use Postgres 16'],
    ['Cache sessions', 'Cache users'],
  ];
  for (const [a, b] of different) {
    test(`${JSON.stringify(a)} != ${JSON.stringify(b)}`, () => assert.notEqual(normalizeTitle(a), normalizeTitle(b)));
  }

  test('the key itself', () => {
    assert.equal(normalizeTitle('Use Valkey for caching'), 'valkey caching');
    assert.equal(normalizeTitle('for the a an'), '');
  });
});

// ---------------------------------------------------------------------------------------------
// secrets.ts (credential-looking strings are assembled at run time, not written out literally)

describe('findSecret', () => {
  const positives: Array<[string, string, string]> = [
    ['private key block', '-----BEGIN ' + 'RSA PRIVATE KEY-----\nMIIE...', 'private-key'],
    ['openssh private key', 'key:\n-----BEGIN ' + 'OPENSSH PRIVATE KEY-----', 'private-key'],
    ['bare private key', '-----BEGIN ' + 'PRIVATE KEY-----', 'private-key'],
    ['AWS access key id', 'the key is ' + 'AKIA' + 'IOSFODNN7EXAMPLE' + ' in prod', 'aws-access-key-id'],
    ['AWS secret access key', 'aws_secret_access_key=' + 'wJalrXUtnFEMI/K7MDENG/' + 'bPxRfiCYEXAMPLEKEY', 'aws-secret-access-key'],
    ['AWS secret access key (yaml)', 'AWS_SECRET_ACCESS_KEY: "' + 'A'.repeat(20) + 'b'.repeat(20) + '"', 'aws-secret-access-key'],
    ['ghp_ token', 'token ' + 'ghp_' + 'A1b2C3d4'.repeat(4) + 'E5f6', 'github-token'],
    ['gho_ token, long', 'gho_' + 'x'.repeat(40), 'github-token'],
    ['github_pat_', 'github_pat_' + '11ABCDEFG0' + 'abcdefghijklmnop_qrstuv', 'github-token'],
    ['npm token', '//registry.npmjs.org/:_authToken=' + 'npm_' + 'a1B2'.repeat(9), 'npm-token'],
    ['slack bot token', 'xox' + 'b-1234567890-' + 'abcdefghij', 'slack-token'],
    ['slack webhook', 'post to https://hooks.slack.com/services/' + 'T00000000/B00000000/' + 'q'.repeat(24), 'slack-webhook'],
    ['password assignment', 'password=' + 'hunter2secret', 'password-assignment'],
    ['quoted password', 'password: "' + 'hunter2secret' + '"', 'password-assignment'],
    ['api key assignment', 'API_KEY = ' + 'sk-live-abcdef123456', 'password-assignment'],
    ['client_secret', '"client_secret": "' + 'abc123def456' + '"', 'password-assignment'],
    ['URL credentials', 'postgres://user:' + 's3cretpw' + '@host/db', 'url-credentials'],
    ['https credentials', 'clone https://bob:' + 'tok3nvalue' + '@github.com/x/y', 'url-credentials'],
    // what the redaction and the store's check missed (each once sent to the auditor's model or accepted by a save)
    ['axme server token', 'AXME_TOKEN=' + 'axme_' + 'Zx9_-q'.repeat(7) + 'a', 'axme-token'],
    ['Anthropic key', 'key ' + 'sk-ant-' + 'api03-' + 'AbC1_dEf2-'.repeat(4), 'anthropic-key'],
    ['OpenAI project key', 'OPENAI=' + 'sk-proj-' + 'Ab1Cd2Ef3Gh4'.repeat(3), 'openai-key'],
    [
      'JWT after Authorization: Bearer',
      'Authorization: Bearer ' + 'eyJhbGciOiJIUzI1NiJ9' + '.eyJzdWIiOiIxMjM0NTY3ODkwIn0' + '.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
      'jwt',
    ],
    ['opaque bearer token', 'curl -H "Authorization: Bearer ' + 'a1b2c3d4e5f6g7h8i9j0k1l2' + '"', 'authorization-header'],
    ['Stripe live key', 'STRIPE=' + 'sk_live_' + '4eC39HqLyjWDarjtT1zdp7dc', 'stripe-key'],
    ['Google API key', 'maps key ' + 'AIza' + 'SyD-1234567890abcdefghijklmnopqrstu', 'google-api-key'],
    ['GitLab token', 'glpat-' + 'xYz123AbC456dEf789gH', 'gitlab-token'],
    ['Hugging Face token', 'hf_' + 'AbCdEfGhIjKlMnOpQrStUvWxYz01234567', 'huggingface-token'],
  ];
  for (const [name, text, pattern] of positives) {
    test(`finds ${name}`, () => {
      const f = findSecret('body', text);
      assert.ok(f, `${JSON.stringify(text)} not detected`);
      assert.equal(f.pattern, pattern);
      assert.equal(f.field, 'body');
      assert.ok(f.index >= 0 && f.index < text.length);
      assert.ok(f.what.length > 0);
    });
  }

  const negatives: Array<[string, string]> = [
    ['env var reference', 'password=$DB_PASSWORD'],
    ['placeholder in angle brackets', 'password: <your-password>'],
    ['braced env var', 'api_key=${API_KEY}'],
    ['template placeholder', 'token: {{ secrets.TOKEN }}'],
    ['process.env', 'secret: process.env.SECRET'],
    ['masked value', 'password: ********'],
    ['short value', 'password=abc'],
    ['prose', 'The password is stored in the vault; rotate the api key monthly.'],
    ['prose about secrets', 'Never commit a secret or a private key to git.'],
    ['npm publisher', 'the npm publisher account is owned by infra'],
    ['npm_ too short', 'npm_' + 'a'.repeat(20)],
    ['ghp_ too short', 'ghp_' + 'a'.repeat(35)],
    ['URL without password', 'https://github.com/owner/repo and postgres://host/db'],
    ['URL with placeholder password', 'postgres://user:${PW}@host/db'],
    ['plain AKIA word', 'AKIA is the prefix of AWS key ids'],
    ['MCP tool names', 'call axme_save_decision, then axme_list_open_questions_for_the_session_now'],
    ['bearer placeholder', 'Authorization: Bearer $AXME_TOKEN and Bearer <token>'],
    ['bearer in prose', 'the bearer token is read from the environment variable named in the entry'],
    ['a commit id', 'fixed in 3f2a9c1e5b7d4f60a1c2e3b4d5f6a7b8c9d0e1f2'],
    ['empty', ''],
  ];
  for (const [name, text] of negatives) {
    test(`ignores ${name}`, () => assert.equal(findSecret('body', text), null));
  }
});

describe('redactSecrets', () => {
  test('a private key is redacted whole, its base64 body included, with or without its END line', () => {
    const body = 'MIIEowIBAAKCAQEA' + 'q'.repeat(60) + '\n' + 'Zm9vYmFy'.repeat(8) + '\n';
    for (const end of ['-----END ' + 'RSA PRIVATE KEY-----\nafter', '']) {
      const out = redactSecrets('before\n-----BEGIN ' + 'RSA PRIVATE KEY-----\n' + body + end);
      assert.ok(!out.includes('MIIEowIBAAKCAQEA'), out);
      assert.ok(!out.includes('Zm9vYmFy'), out);
      assert.match(out, /^before\n\[redacted: a private key block\]/);
      if (end) assert.match(out, /after$/);
    }
  });

  test('every pattern of findSecret is redacted', () => {
    const text = [
      'AXME_TOKEN=' + 'axme_' + 'Zx9_-q'.repeat(7) + 'a',
      'sk-ant-' + 'api03-' + 'AbC1_dEf2-'.repeat(4),
      'sk_live_' + '4eC39HqLyjWDarjtT1zdp7dc',
    ].join('\n');
    const out = redactSecrets(text);
    assert.equal(findSecret('x', out), null, out);
    assert.equal(out.match(/\[redacted: /g)?.length, 3);
  });
});

describe('assertNoSecrets', () => {
  const leaked = 'password=' + 'hunter2secret';

  test('throws SECRET_DETECTED naming the field, the pattern and --allow-secret', () => {
    const err = thrown(() => assertNoSecrets({ title: 'fine', reasoning: `use this: ${leaked}` }, false));
    assert.ok(isAxmeError(err, 'SECRET_DETECTED'), String(err));
    assert.match(err.message, /^reasoning /);
    assert.match(err.message, /pattern password-assignment/);
    assert.match(err.message, /--allow-secret/);
    assert.deepEqual(err.data, { field: 'reasoning', pattern: 'password-assignment' });
  });

  test('checks string entries of list fields', () => {
    const err = thrown(() => assertNoSecrets({ tags: ['ok', 'ghp_' + 'z'.repeat(36)] }, false));
    assert.ok(isAxmeError(err, 'SECRET_DETECTED'));
    assert.match(err.message, /^tags .*pattern github-token/);
  });

  test('allowSecret=true passes', () => {
    assert.doesNotThrow(() => assertNoSecrets({ body: leaked, tags: ['ghp_' + 'z'.repeat(36)] }, true));
  });

  test('clean fields and non-string values pass', () => {
    assert.doesNotThrow(() => assertNoSecrets({ title: 'Use Valkey', n: 42, obj: { password: 'hunter2secret' }, none: undefined, list: ['a', 1] }, false));
  });
});

// ---------------------------------------------------------------------------------------------
// text.ts, limits.ts

describe('longText', () => {
  const schema = longText('test');

  test('accepts ordinary multi-line text with tabs; CRLF becomes LF, as the file stores it', () => {
    assert.equal(schema.parse('line 1\n\tline 2\r\nline 3'), 'line 1\n\tline 2\nline 3');
  });

  test('refuses a NUL byte as binary data', () => {
    const msgs = issues(schema.safeParse('abc\u0000def'));
    assert.equal(msgs.length, 1);
    assert.match(msgs[0]!, /binary/);
    assert.match(msgs[0]!, /NUL byte at offset 3/);
  });

  test('refuses other control characters and lone surrogates', () => {
    assert.match(issues(schema.safeParse('bell\u0007'))[0] ?? '', /control character 0x07/);
    assert.match(issues(schema.safeParse('del\u007f'))[0] ?? '', /control character 0x7f/);
    assert.match(issues(schema.safeParse('x\ud800y'))[0] ?? '', /lone surrogate/);
  });

  test('accepts exactly LIMITS.text characters and refuses one more with a "limit" message', () => {
    assert.equal(schema.safeParse('a'.repeat(LIMITS.text)).success, true);
    const msgs = issues(schema.safeParse('a'.repeat(LIMITS.text + 1)));
    assert.equal(msgs.length, 1);
    assert.match(msgs[0]!, /limit/);
    assert.match(msgs[0]!, /64\.0 KB/);
  });
});

describe('textProblem', () => {
  test('null for clean text, a reason for binary', () => {
    assert.equal(textProblem('héllo \u{1F389}\n\t\r'), null);
    assert.match(textProblem('\u0001') ?? '', /binary data \(control character 0x01 at offset 0\)/);
  });
});

describe('titleText', () => {
  const schema = titleText('test');

  const collapses: Array<[string, string]> = [
    ['  Use   Valkey  ', 'Use Valkey'],
    ['Use\nValkey\r\nfor\tcaching', 'Use Valkey for caching'],
    ['a', 'a'],
  ];
  for (const [input, expected] of collapses) {
    test(`collapses ${JSON.stringify(input)}`, () => assert.equal(schema.parse(input), expected));
  }

  for (const empty of ['', '   ', '\n\t\n']) {
    test(`rejects empty ${JSON.stringify(empty)}`, () => {
      assert.deepEqual(issues(schema.safeParse(empty)), ['must not be empty']);
    });
  }

  test('accepts 200 characters, rejects 201', () => {
    assert.equal(schema.parse('t'.repeat(200)), 't'.repeat(200));
    const msgs = issues(schema.safeParse('t'.repeat(201)));
    assert.equal(msgs.length, 1);
    assert.match(msgs[0]!, /at most 200 characters/);
  });

  test('the length limit applies after whitespace is collapsed', () => {
    const title = 'ab    '.repeat(60); // 360 chars, 179 after collapsing
    assert.equal(schema.parse(title).length, 179);
  });

  test('refuses binary data', () => {
    assert.match(issues(schema.safeParse('x\u0000'))[0] ?? '', /binary/);
  });

  test('refuses a huge title with a limit message', () => {
    assert.match(issues(schema.safeParse('t'.repeat(LIMITS.text + 1)))[0] ?? '', /limit/);
  });
});

describe('stringList', () => {
  const schema = stringList('test');
  const cases: Array<[unknown, string[]]> = [
    ['a, b,,a', ['a', 'b']],
    ['', []],
    [' , ,', []],
    ['single', ['single']],
    [
      ['x', ' y ', 'x', ''],
      ['x', 'y'],
    ],
    [[], []],
  ];
  for (const [input, expected] of cases) {
    test(`${JSON.stringify(input)} -> ${JSON.stringify(expected)}`, () => assert.deepEqual(schema.parse(input), expected));
  }

  test('rejects multi-line entries, over-long entries and too many entries', () => {
    assert.equal(schema.safeParse(['a\nb']).success, false);
    assert.equal(schema.safeParse(['x'.repeat(LIMITS.listItem + 1)]).success, false);
    assert.equal(schema.safeParse(['x'.repeat(LIMITS.listItem)]).success, true);
    const many = Array.from({ length: LIMITS.listItems + 1 }, (_, i) => `t${i}`);
    assert.match(issues(schema.safeParse(many))[0] ?? '', /at most 100 entries/);
    assert.equal(schema.safeParse(many.slice(1)).success, true);
  });

  test('rejects non-strings', () => {
    assert.equal(schema.safeParse(42).success, false);
    assert.equal(schema.safeParse([1, 2]).success, false);
  });
});

describe('formatSize', () => {
  const cases: Array<[number, string]> = [
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1.0 KB'],
    [65536, '64.0 KB'],
    [10485760, '10.0 MB'],
  ];
  for (const [n, s] of cases) test(`${n} -> ${s}`, () => assert.equal(formatSize(n), s));
});

// ---------------------------------------------------------------------------------------------
// frontmatter.ts

describe('parseMarkdown', () => {
  test('CRLF input gives the same result as LF input', () => {
    const lf = '---\ntitle: Hello\ntags:\n  - a\n---\n\nline 1\nline 2\n';
    const crlf = lf.replace(/\n/g, '\r\n');
    const doc = parseMarkdown(crlf);
    assert.deepEqual(doc, { data: { title: 'Hello', tags: ['a'] }, body: 'line 1\nline 2' });
    assert.deepEqual(parseMarkdown(lf), doc);
    assert.ok(!doc.body.includes('\r'));
  });

  test('no frontmatter: empty data, the whole text as body', () => {
    assert.deepEqual(parseMarkdown('# Title\n\ntext\n'), { data: {}, body: '# Title\n\ntext' });
    assert.deepEqual(parseMarkdown(''), { data: {}, body: '' });
  });

  test('leading blank lines and trailing whitespace are dropped from the body', () => {
    assert.equal(parseMarkdown('---\na: 1\n---\n\n\n  \nbody  \n\n').body, 'body');
  });

  test('broken YAML throws', () => {
    assert.throws(() => parseMarkdown('---\ntitle: [unclosed\n---\nbody'));
    assert.throws(() => parseMarkdown('---\na: 1\na: 2\n---\n'), /[Dd]uplicate|unique/);
  });

  test('timestamps, yes/no and dates stay strings', () => {
    const { data } = parseMarkdown('---\ncreated: 2026-01-01T00:00:00Z\nday: 2026-01-31\nflag: yes\nn: 3\nb: true\n---\n');
    assert.equal(data.created, '2026-01-01T00:00:00Z');
    assert.equal(data.day, '2026-01-31');
    assert.equal(data.flag, 'yes');
    assert.equal(data.n, 3);
    assert.equal(data.b, true);
  });

  test('a YAML list or scalar as frontmatter throws "not a YAML mapping"', () => {
    assert.throws(() => parseMarkdown('---\n- a\n- b\n---\nbody'), /not a YAML mapping/);
    assert.throws(() => parseMarkdown('---\njust a string\n---\nbody'), /not a YAML mapping/);
  });

  test('empty frontmatter is an empty mapping', () => {
    assert.deepEqual(parseMarkdown('---\n---\nbody'), { data: {}, body: 'body' });
  });
});

describe('stringifyMarkdown / parseYaml', () => {
  test('stringifyMarkdown writes fields in the given order and parses back', () => {
    const text = stringifyMarkdown({ z: 1, a: 'x', created: '2026-01-01T00:00:00Z' }, '\n\nbody\n\n');
    assert.equal(text, '---\nz: 1\na: x\ncreated: 2026-01-01T00:00:00Z\n---\n\nbody\n');
    assert.deepEqual(parseMarkdown(text), { data: { z: 1, a: 'x', created: '2026-01-01T00:00:00Z' }, body: 'body' });
  });

  test('an empty body gives no body section', () => {
    assert.equal(stringifyMarkdown({ a: 1 }, '  \n'), '---\na: 1\n---\n');
  });

  test('long lines are not folded', () => {
    const long = 'word '.repeat(100).trim();
    const text = stringifyMarkdown({ title: long }, '');
    assert.equal(text, `---\ntitle: ${long}\n---\n`);
  });

  test('parseYaml accepts CRLF and throws on broken input', () => {
    assert.deepEqual(parseYaml('a: 1\r\nb:\r\n  - x\r\n'), { a: 1, b: ['x'] });
    assert.throws(() => parseYaml('a: [1'));
  });
});

describe('splitSections / joinSections', () => {
  const headings = ['Context', 'Answer'] as const;

  const roundTrips: Array<[string, string, Array<[string, string | undefined]>]> = [
    [
      'lead only',
      'The question?',
      [
        ['Context', undefined],
        ['Answer', undefined],
      ],
    ],
    [
      'all sections',
      'The question?',
      [
        ['Context', 'some context\n\nwith paragraphs'],
        ['Answer', 'yes'],
      ],
    ],
    [
      'middle section missing',
      'Q',
      [
        ['Context', undefined],
        ['Answer', 'a'],
      ],
    ],
    [
      'empty lead',
      '',
      [
        ['Context', 'c'],
        ['Answer', undefined],
      ],
    ],
    [
      'non-reserved headings stay in place',
      'lead\n\n## Other\n\nx',
      [
        ['Context', '### Context\nnot a split'],
        ['Answer', '## Answers\nplural'],
      ],
    ],
  ];
  for (const [name, lead, sections] of roundTrips) {
    test(`round trip: ${name}`, () => {
      const body = joinSections(lead, sections);
      const split = splitSections(body, headings);
      assert.equal(split.lead, lead);
      const expected: Record<string, string> = {};
      for (const [h, t] of sections) if (t) expected[h] = t;
      assert.deepEqual(split.sections, expected);
      assert.equal(
        joinSections(
          split.lead,
          headings.map((h) => [h, split.sections[h]]),
        ),
        body,
      );
    });
  }

  test('joinSections leaves out empty sections, drops blank lines around texts, keeps indentation', () => {
    assert.equal(
      joinSections('  lead  ', [
        ['Context', '  '],
        ['Answer', '\nyes\n'],
      ]),
      '  lead\n\n## Answer\n\nyes',
    );
    assert.equal(joinSections('', [['Context', undefined]]), '');
  });

  test('sections are recognised in order, each once', () => {
    const out = splitSections('lead\n## Answer\na\n## Context\nc', headings);
    assert.deepEqual(out, { lead: 'lead', sections: { Answer: 'a\n## Context\nc' } });
    const twice = splitSections('lead\n## Context\nc1\n## Context\nc2', headings);
    assert.deepEqual(twice, { lead: 'lead', sections: { Context: 'c1\n## Context\nc2' } });
  });

  test('trailing spaces after a heading still count as the heading', () => {
    assert.deepEqual(splitSections('l\n## Context   \nc', headings), { lead: 'l', sections: { Context: 'c' } });
  });
});

describe('reservedHeadingIn', () => {
  const headings = ['Reasoning', 'In Progress', 'a.b'];
  const cases: Array<[string, string | null]> = [
    ['text\n## Reasoning\nmore', 'Reasoning'],
    ['## In Progress', 'In Progress'],
    ['x\n## Reasoning   \n', 'Reasoning'],
    ['### Reasoning', null],
    ['## Reasoning behind it', null],
    [' ## Reasoning', null],
    ['text ## Reasoning', null],
    ['## aXb', null],
    ['## a.b', 'a.b'],
    ['', null],
  ];
  for (const [text, expected] of cases) {
    test(`${JSON.stringify(text)} -> ${expected}`, () => assert.equal(reservedHeadingIn(text, headings), expected));
  }
});

// ---------------------------------------------------------------------------------------------
// validate.ts

describe('validate', () => {
  test('parseInput returns the parsed value', () => {
    const v = parseInput(DecisionInput, { title: '  Use  Valkey ', decision: 'We use Valkey.', tags: 'a, b' }, 'decision');
    assert.equal(v.title, 'Use Valkey');
    assert.deepEqual(v.tags, ['a', 'b']);
    assert.equal(v.enforce, undefined, 'no default at the input: a revision tells "not given" (carry over) from a value');
    assert.equal(
      Decision.parse({ ...v, slug: 'x', id: 'D-001', created: '2026-01-01', updated: '2026-01-01' }).enforce,
      'advisory',
      'the stored item defaults to advisory',
    );
  });

  test('parseInput throws INVALID_INPUT naming each bad field', () => {
    const err = thrown(() => parseInput(DecisionInput, { title: '', decision: '', enforce: 'always' }, 'decision'));
    assert.ok(isAxmeError(err, 'INVALID_INPUT'), String(err));
    assert.match(err.message, /^invalid decision: /);
    assert.match(err.message, /title: must not be empty/);
    assert.match(err.message, /decision: must not be empty/);
    assert.match(err.message, /enforce: /);
    const paths = (err.data.issues as Array<{ path: string }>).map((i) => i.path).sort();
    assert.deepEqual(paths, ['decision', 'enforce', 'title']);
  });
});

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

// ---------------------------------------------------------------------------------------------
// safety-rules.ts

describe('SafetyRules', () => {
  test('parse({}) equals the AXME defaults', () => {
    const r = SafetyRules.parse({});
    assert.deepEqual(r, DEFAULT_RULES);
    assert.deepEqual(r.git.protectedBranches, ['main', 'master']);
    assert.ok(r.bash.deniedPrefixes.includes('npm publish'));
    assert.ok(r.bash.deniedPrefixes.includes('git push --force'));
    assert.ok(r.filesystem.deniedPaths.includes('/etc/passwd'));
    for (const name of ['.env', '*.pem', '*.key'])
      assert.ok(!r.filesystem.deniedPaths.includes(name), `${name} is a secret file name (never read, may be made), not a denied path`);
    // the credentials are model/home-credentials.ts HOME_CREDENTIALS and model/sandbox.ts SYSTEM_CREDENTIALS (secrets.paths), not copied into the team's list
    for (const path of ['~/.ssh/id_*', '~/.aws/credentials', '~/.gnupg/*', '/etc/shadow'])
      assert.ok(!r.filesystem.deniedPaths.includes(path), `${path} is a built-in credential, not a denied path`);
    assert.equal(r.git.allowForcePush, false);
    assert.equal(r.git.requirePrForMain, true);
    assert.equal(r.git.requireAxmeSuffix, 'agents');
  });

  test('a present list replaces the default list; the others keep their defaults', () => {
    const r = SafetyRules.parse({ bash: { deniedPrefixes: ['x'] } });
    assert.deepEqual(r.bash.deniedPrefixes, ['x']);
    assert.deepEqual(r.bash.deniedCommands, DEFAULT_RULES.bash.deniedCommands);
    assert.deepEqual(r.bash.allowedPrefixes, []);
    assert.deepEqual(r.git, DEFAULT_RULES.git);
    assert.deepEqual(r.filesystem, DEFAULT_RULES.filesystem);
  });

  test('an explicit empty list stays empty', () => {
    const r = SafetyRules.parse({ git: { protectedBranches: [] } });
    assert.deepEqual(r.git.protectedBranches, []);
    assert.equal(r.git.requirePrForMain, true);
  });

  test('scalar settings override and are validated', () => {
    const r = SafetyRules.parse({ git: { allowForcePush: true, requireAxmeSuffix: 'never' } });
    assert.equal(r.git.allowForcePush, true);
    assert.equal(r.git.requireAxmeSuffix, 'never');
    assert.deepEqual(r.git.protectedBranches, ['main', 'master']);
    assert.equal(SafetyRules.safeParse({ git: { requireAxmeSuffix: 'sometimes' } }).success, false);
    assert.equal(SafetyRules.safeParse({ bash: { deniedPrefixes: 'rm' } }).success, false);
    assert.equal(SafetyRules.safeParse({ bash: { deniedPrefixes: ['ok', ''] } }).success, false);
  });

  test('mutating a parsed result does not change the defaults', () => {
    const a = SafetyRules.parse({});
    a.git.protectedBranches.push('prod');
    a.bash.deniedCommands.push('evil');
    a.filesystem.deniedPaths.length = 0;
    const b = SafetyRules.parse({ bash: { deniedPrefixes: ['x'] }, filesystem: {} });
    b.bash.deniedCommands.push('evil2');
    b.filesystem.readOnlyPaths.push('ro');
    assert.deepEqual(DEFAULT_RULES.git.protectedBranches, ['main', 'master']);
    assert.ok(!DEFAULT_RULES.bash.deniedCommands.includes('evil'));
    assert.ok(!DEFAULT_RULES.bash.deniedCommands.includes('evil2'));
    assert.ok(DEFAULT_RULES.filesystem.deniedPaths.includes('/etc/passwd'));
    assert.deepEqual(SafetyRules.parse({}), SafetyRules.parse({ git: {}, bash: {}, filesystem: {} }));
    assert.deepEqual(SafetyRules.parse({ filesystem: {} }).filesystem.readOnlyPaths, []);
  });
});

// ---------------------------------------------------------------------------------------------
// paths.ts

describe('classifyPath', () => {
  const items: Array<[string, string, string]> = [
    ['decisions/x.md', 'decision', 'x'],
    ['memories/tests-use-real-git.md', 'memory', 'tests-use-real-git'],
    ['backlog/b-1.md', 'backlog', 'b-1'],
    ['questions/which-db.md', 'question', 'which-db'],
    ['handoffs/sess-7f3a.md', 'handoff', 'sess-7f3a'],
    ['plans/p.md', 'plan', 'p'],
    ['sessions/2026-11/abc.md', 'session', 'abc'],
  ];
  for (const [path, kind, slug] of items) {
    test(`${path} is a ${kind} item`, () => {
      const c = classifyPath(path);
      assert.equal(c.type, 'item');
      assert.ok(c.type === 'item');
      assert.equal(c.spec.kind, kind);
      assert.equal(c.slug, slug);
    });
  }

  test('axme.yaml is the config, safety/rules.yaml the rules', () => {
    assert.deepEqual(classifyPath(CONFIG_PATH), { type: 'config' });
    assert.deepEqual(classifyPath('axme.yaml'), { type: 'config' });
    assert.deepEqual(classifyPath(RULES_PATH), { type: 'rules' });
    assert.deepEqual(classifyPath('safety/rules.yaml'), { type: 'rules' });
  });

  const others: Array<[string, RegExp]> = [
    ['sessions/x.md', /sessions\/<yyyy-mm>/],
    ['sessions/2026-11/sub/abc.md', /sessions\/<yyyy-mm>/],
    ['sessions/26-11/abc.md', /sessions\/<yyyy-mm>/],
    ['decisions/Bad_Name.md', /not a valid slug/],
    ['decisions/..md', /not a valid slug/],
    ['decisions/-x.md', /not a valid slug/],
    ['decisions/sub/x.md', /directly in decisions\//],
    ['decisions', /directly in decisions\//],
    ['decisions/x.txt', /\.md files/],
    ['decisions/x', /\.md files/],
    ['README.md', /not a folder axme knows/],
    ['safety/other.yaml', /not a folder axme knows/],
    ['../decisions/x.md', /not a folder axme knows/],
    ['/decisions/x.md', /not a folder axme knows/],
    ['Decisions/x.md', /not a folder axme knows/],
  ];
  for (const [path, reason] of others) {
    test(`${path} is other`, () => {
      const c = classifyPath(path);
      assert.equal(c.type, 'other');
      assert.ok(c.type === 'other');
      assert.match(c.reason, reason);
    });
  }

  test('itemPath and classifyPath agree', () => {
    assert.equal(itemPath('decision', 'use-valkey'), 'decisions/use-valkey.md');
    assert.equal(itemPath('session', 'abc', '2026-11-20T10:00:00Z'), 'sessions/2026-11/abc.md');
    const c = classifyPath(itemPath('session', 'abc', '2026-11-20T10:00:00Z'));
    assert.ok(c.type === 'item' && c.spec.kind === 'session' && c.slug === 'abc');
    assert.throws(() => itemPath('decision', '../x'), /invalid slug/);
  });
});

// ---------------------------------------------------------------------------------------------
// store/revision.ts parseDateSpec

describe('parseDateSpec', () => {
  const now = new Date('2026-06-15T12:00:00.000Z');
  const cases: Array<[string, string | null]> = [
    ['2026-01-31', '2026-01-31T23:59:59.999Z'],
    ['2026-01-31T10:00', '2026-01-31T10:00:00.000Z'],
    ['2026-01-31 10:00', '2026-01-31T10:00:00.000Z'],
    ['2026-01-31T10:00:30', '2026-01-31T10:00:30.000Z'],
    ['2026-01-31T10:00:00Z', '2026-01-31T10:00:00.000Z'],
    ['2026-01-31t10:00:00z', '2026-01-31T10:00:00.000Z'],
    ['2026-01-31T10:00:00+02:00', '2026-01-31T08:00:00.000Z'],
    ['2026-01-31T10:00:00-05:00', '2026-01-31T15:00:00.000Z'],
    ['2026-01-31 10:00:00+02:00', '2026-01-31T08:00:00.000Z'],
    ['2026-01-31T10:00:00.250Z', '2026-01-31T10:00:00.250Z'],
    ['3 days ago', '2026-06-12T12:00:00.000Z'],
    ['1 day ago', '2026-06-14T12:00:00.000Z'],
    ['  3 DAYS AGO  ', '2026-06-12T12:00:00.000Z'],
    ['2 hours ago', '2026-06-15T10:00:00.000Z'],
    ['1 week ago', '2026-06-08T12:00:00.000Z'],
    ['90 seconds ago', '2026-06-15T11:58:30.000Z'],
    ['yesterday', '2026-06-14T12:00:00.000Z'],
    ['now', '2026-06-15T12:00:00.000Z'],
    ['foo', null],
    ['', null],
    ['2026-13-45', null],
    ['2026-01-31T25:00', null],
    ['3 days', null],
    ['days ago', null],
    ['-3 days ago', null],
    ['2026/01/31', null],
    ['HEAD~3', null],
    ['abc1234', null],
    ['20260131', null],
  ];
  for (const [spec, expected] of cases) {
    test(`${JSON.stringify(spec)} -> ${expected}`, () => {
      const d = parseDateSpec(spec, now);
      assert.equal(d === null ? null : d.toISOString(), expected);
    });
  }

  test('relative specs follow the given clock', () => {
    const other = new Date('2020-01-01T00:00:00.000Z');
    assert.equal(parseDateSpec('3 days ago', other)?.toISOString(), '2019-12-29T00:00:00.000Z');
    assert.equal(parseDateSpec('now', other)?.getTime(), other.getTime());
  });
});

describe('edge cases: a __proto__ field, impossible dates, a password-only URL, empty optional fields', () => {
  test('an unknown field named __proto__ survives a round trip as data', () => {
    const text = [
      '---',
      'id: D-001',
      'title: T',
      'status: active',
      'enforce: advisory',
      'created: 2026-01-01T00:00:00.000Z',
      'updated: 2026-01-01T00:00:00.000Z',
      '__proto__:',
      '  polluted: 1',
      'owner: alice',
      '---',
      '',
      'x',
      '',
    ].join('\n');
    const r = decodeItem(decisionSpec, 'd', text);
    assert.ok(r.ok);
    if (!r.ok) return;
    assert.deepEqual(Object.keys(r.item.extra).sort(), ['__proto__', 'owner']);
    assert.equal(Object.getPrototypeOf(r.item.extra), Object.prototype, 'the prototype is not replaced');
    const again = encodeItem(decisionSpec, r.item);
    assert.match(again, /^__proto__:\n {2}polluted: 1$/m);
    assert.equal(encodeItem(decisionSpec, Decision.parse({ ...r.item })), again, 'a zod re-parse keeps it too');
  });

  for (const bad of ['2026-02-30', '2026-04-31', '2026-02-30T10:00', '2025-02-29']) {
    test(`parseDateSpec refuses the impossible date ${bad}`, () => {
      assert.equal(parseDateSpec(bad, new Date('2026-06-01T00:00:00Z')), null);
    });
  }

  test('Timestamp refuses impossible dates and accepts leap days', () => {
    assert.equal(Timestamp.safeParse('2026-02-31T10:00:00Z').success, false);
    assert.equal(Timestamp.safeParse('2024-02-29T10:00:00Z').success, true);
  });

  test('a URL with a password and no user name is a credential', () => {
    assert.equal(findSecret('f', 'REDIS_URL=redis://:s3cretpw@cache:6379')?.pattern, 'url-credentials');
  });

  test('empty optional text fields are not written', () => {
    const h = Handoff.parse({ slug: 's1', created: '2026-01-01T00:00:00.000Z', updated: '2026-01-01T00:00:00.000Z', summary: 'done' });
    assert.doesNotMatch(encodeItem(handoffSpec, h), /startup_text|stopped_at/);
  });
});
