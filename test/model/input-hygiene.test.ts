// Invisible and bidirectional characters in what users type, the secret scan's view of text, and
// slugs for titles in any script (issue 17, items 15 and 16).

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { isAxmeError } from '../../src/model/errors.ts';
import { cleanLine, scanView } from '../../src/model/invisible.ts';
import { classifyPath } from '../../src/model/paths.ts';
import { assertNoSecrets, findSecret, redactSecrets } from '../../src/model/secrets.ts';
import { isSlug, SLUG_MAX, SLUG_MAX_BYTES, slugify, uniqueSlug } from '../../src/model/slug.ts';
import { listEntry, longText, stringList, titleText } from '../../src/model/text.ts';
import { decisionAdd } from '../../src/operations/decision/add.ts';
import { axme, axmeOk, git } from '../helpers.ts';
import { cliText, makeStore } from '../store-fixture.ts';

/** Error messages of a failed safeParse (empty when it succeeded). */
function issues(r: { success: boolean; error?: { issues: Array<{ message: string }> } }): string[] {
  return r.success ? [] : (r.error?.issues ?? []).map((i) => i.message);
}

const hex = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

// Characters that display as nothing. Each one, inside a token, used to hide the token from the
// secret scan; each one, inside a title, made two titles that look the same differ.
const INVISIBLE: string[] = [
  '\u200B', // zero width space
  '\u200C', // zero width non-joiner
  '\u200D', // zero width joiner
  '\u2060', // word joiner
  '\uFEFF', // zero width no-break space (BOM)
  '\u2061', // function application
  '\u2062', // invisible times
  '\u2063', // invisible separator
  '\u2064', // invisible plus
  '\u180E', // Mongolian vowel separator
  '\u00AD', // soft hyphen
  '\u034F', // combining grapheme joiner
  '\u200E', // left-to-right mark
  '\u200F', // right-to-left mark
  '\u061C', // Arabic letter mark
  '\u3164', // Hangul filler (a "letter" that shows nothing)
  '\uFE0F', // variation selector 16
  '\u{E0041}', // tag letter A ("ASCII smuggling")
];
// Bidirectional embeddings, overrides and isolates: text displays in another order than it reads.
const BIDI = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069'];

const TOKEN = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';

// ---------------------------------------------------------------------------------------------
// titles and other one-line fields

describe('titles: invisible characters are removed', () => {
  const schema = titleText('test');
  for (const c of INVISIBLE) {
    test(`${hex(c)} inside a word is removed`, () => {
      assert.equal(schema.parse(`Use Val${c}key`), 'Use Valkey');
    });
  }

  test('a title of only invisible characters is empty', () => {
    assert.deepEqual(issues(schema.safeParse('\u200B\u200D\uFEFF\u2060 \u3164')), ['must not be empty']);
  });

  test('the title is stored in NFC: a decomposed accent and the precomposed one are the same title', () => {
    assert.equal(schema.parse('Cafe\u0301 design'), 'Caf\u00E9 design');
  });

  test('joiners that shape a script or an emoji stay', () => {
    // Persian needs ZWNJ between letters ("mi-khaham" would join wrongly without it)
    assert.equal(schema.parse('\u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645'), '\u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645');
    // Devanagari: virama + ZWJ gives the half form
    assert.equal(schema.parse('\u0915\u094D\u200D\u0937'), '\u0915\u094D\u200D\u0937');
    // an emoji ZWJ sequence (woman technologist) and an emoji presentation selector
    assert.equal(schema.parse('\u{1F469}\u200D\u{1F4BB} team \u2764\uFE0F'), '\u{1F469}\u200D\u{1F4BB} team \u2764\uFE0F');
    // ... but not between ASCII letters, where they only hide things
    assert.equal(schema.parse('gh\u200Dp \u200Ca\u200Cb\uFE0F'), 'ghp ab');
  });
});

describe('titles: bidirectional controls are refused', () => {
  const schema = titleText('test');
  for (const c of BIDI) {
    test(`${hex(c)} is refused with what to do`, () => {
      const msgs = issues(schema.safeParse(`Use ${c}Valkey`));
      assert.equal(msgs.length, 1, msgs.join('; '));
      assert.match(msgs[0]!, new RegExp(`bidirectional control character \\(${hex(c).replace('+', '\\+')} at offset 4\\)`));
      assert.match(msgs[0]!, /remove it/);
    });
  }

  test('in long text too', () => {
    assert.match(issues(longText('t').safeParse('a\n\u202Eb'))[0] ?? '', /bidirectional.*remove it/);
  });
});

describe('list entries (tags, keywords, scope, anchors): same one-line hygiene as titles', () => {
  test('invisible characters are removed from each entry', () => {
    assert.deepEqual(stringList('t').parse(['secu\u200Brity', 'perf\uFEFF', '\u2060']), ['security', 'perf']);
    assert.equal(listEntry.parse('src/\u200Bauth.ts'), 'src/auth.ts');
  });

  test('entries that differ only by invisible characters are one entry', () => {
    assert.deepEqual(stringList('t').parse('cache, ca\u200Bche'), ['cache']);
  });

  test('bidirectional controls are refused', () => {
    assert.ok(!listEntry.safeParse('a\u202Eb').success);
  });
});

describe('cleanLine', () => {
  test('returns ASCII unchanged and removes every invisible character from it', () => {
    assert.equal(cleanLine('plain text'), 'plain text');
    for (const c of INVISIBLE) assert.equal(cleanLine(`a${c}b`), 'ab', hex(c));
  });
});

// ---------------------------------------------------------------------------------------------
// the secret scan

describe('secret scan: a token split by an invisible character is still found', () => {
  for (const c of [...INVISIBLE, ...BIDI]) {
    test(`split by ${hex(c)}`, () => {
      const text = `before ${TOKEN.slice(0, 10)}${c}${TOKEN.slice(10)} after`;
      const f = findSecret('body', text);
      assert.ok(f, `not found with ${hex(c)}`);
      assert.equal(f.pattern, 'github-token');
      assert.equal(f.index, 7, 'the index points into the original text');
    });
  }

  test('several invisible characters, in a password assignment and a URL', () => {
    assert.equal(findSecret('x', 'pass\u200Bword\u2060=\uFEFFhunter2hunter2')?.pattern, 'password-assignment');
    assert.equal(findSecret('x', 'postgres://app:s3cr\u00ADet@db.internal/app')?.pattern, 'url-credentials');
    assert.equal(findSecret('x', 'AKIA\u200BIOSFODNN7\u200CEXAMPLE')?.pattern, 'aws-access-key-id');
  });

  test('compatibility forms (fullwidth, mathematical letters) are folded (NFKC) before the scan', () => {
    const fullwidth = [...TOKEN].map((ch) => String.fromCodePoint(ch.codePointAt(0)! + 0xfee0)).join('');
    assert.equal(findSecret('x', fullwidth)?.pattern, 'github-token');
    assert.equal(findSecret('x', '\u{1D40F}assword = hunter2hunter2')?.pattern, 'password-assignment');
  });

  test('the index maps back to the original text past removed and expanded characters', () => {
    const text = '\u200B\u200B\uFB01x\u200B\n' + 'token: ' + TOKEN.slice(0, 4) + '\u200D' + TOKEN.slice(4);
    const f = findSecret('content', text);
    assert.ok(f);
    assert.equal(f.index, text.indexOf('ghp_'));
    assert.equal(text.slice(0, f.index).split('\n').length, 2, 'the line number is right');
  });

  test('clean text in any script is not a finding', () => {
    for (const t of ['Использовать Valkey вместо Redis', '使用 Valkey 代替 Redis', 'مي\u200Cخواهم', '\u{1F469}\u200D\u{1F4BB}', 'password: $DB_PASSWORD']) {
      assert.equal(findSecret('x', t), null, t);
    }
  });

  test('assertNoSecrets refuses a split token in any field, list entries included', () => {
    for (const fields of [{ body: `x ${TOKEN.slice(0, 8)}\u200B${TOKEN.slice(8)}` }, { tags: ['ok', `${TOKEN.slice(0, 8)}\u2063${TOKEN.slice(8)}`] }]) {
      const err = (() => {
        try {
          assertNoSecrets(fields, false);
        } catch (e) {
          return e;
        }
        return null;
      })();
      assert.ok(isAxmeError(err, 'SECRET_DETECTED'), String(err));
    }
  });

  test('redactSecrets redacts a split token, invisible characters included, and keeps the rest', () => {
    const text = `see ${TOKEN.slice(0, 8)}\u200B${TOKEN.slice(8)} and 使用\u200C ok`;
    assert.equal(redactSecrets(text), 'see [redacted: a GitHub token] and 使用\u200C ok');
  });
});

describe('scanView', () => {
  test('ASCII text is its own view', () => {
    const v = scanView('plain ascii');
    assert.equal(v.text, 'plain ascii');
    assert.equal(v.original(3), 3);
  });

  test('maps every view offset back to the original, including the end', () => {
    const src = 'a\u200Bb\uFB01c';
    const v = scanView(src);
    assert.equal(v.text, 'abfic');
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5].map((i) => v.original(i)),
      [0, 2, 3, 3, 4, 5],
    );
  });
});

// ---------------------------------------------------------------------------------------------
// slugs

describe('slugify: titles in any script', () => {
  const cases: Array<[what: string, title: string, expected: string]> = [
    ['Cyrillic is transliterated', 'Использовать Valkey вместо Redis', 'ispolzovat-valkey-vmesto-redis'],
    ['Ukrainian', 'Їжак і ґанок', 'izhak-i-ganok'],
    ['Greek is transliterated', 'Χρήση PostgreSQL για αποθήκευση', 'chrisi-postgresql-gia-apothikeysi'],
    ['Hindi is transliterated', 'डेटाबेस के लिए पोस्टग्रेस', 'detabes-ke-lie-postgres'],
    ['Arabic is transliterated', 'استخدام قاعدة بيانات', 'stkhdm-qdh-bynt'],
    ['Hebrew is transliterated', 'מסד נתונים', 'msd-ntvnym'],
    ['Armenian', 'Տվյալների բազա', 'tvyalneri-baza'],
    ['Chinese keeps its characters', '使用 Valkey 代替 Redis', '使用-valkey-代替-redis'],
    ['Japanese keeps kana and kanji, voiced marks included', 'データベースはPostgreSQLを使う', 'データベースはpostgresqlを使う'],
    ['halfwidth katakana become fullwidth', 'ﾃﾞｰﾀ', 'データ'],
    ['Korean keeps Hangul', '한국어 제목', '한국어-제목'],
    ['emoji only: their names', '\u{1F680}\u{1F525}', 'rocket-fire'],
    ['emoji among words are dropped', '\u{1F680} Launch \u{1F389}', 'launch'],
    ['mixed scripts', 'Кэш для 日本語 and Ελληνικά v2', 'kesh-dlya-日本語-and-ellinika-v2'],
    ['Latin letters without a decomposition', 'Straße Ærøskøbing łódź', 'strasse-aeroskobing-lodz'],
    ['accents are folded as before', 'Ünïcödé façade', 'unicode-facade'],
    ['fullwidth Latin is ASCII', 'ＵＳＥ　ｖａｌｋｅｙ', 'use-valkey'],
    ['invisible characters do not split a word', 'Val\u200Bkey 使\u200B用', 'valkey-使用'],
  ];
  for (const [what, title, expected] of cases) {
    test(`${what}: ${JSON.stringify(title)} -> ${expected}`, () => {
      const s = slugify(title, 'd-006');
      assert.equal(s, expected);
      assert.ok(isSlug(s), `${s} is not a valid slug`);
    });
  }

  test('ASCII titles get the slug they always got (existing behaviour, random titles)', () => {
    // the algorithm before Unicode slugs, for ASCII input
    const old = (t: string) =>
      t
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '');
    let seed = 17;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    for (let n = 0; n < 2000; n++) {
      const len = Math.floor(rnd() * 50);
      let t = '';
      for (let i = 0; i < len; i++) t += String.fromCharCode(32 + Math.floor(rnd() * 95));
      const want = old(t);
      if (!want || want.length > SLUG_MAX || /^(con|prn|aux|nul|com\d|lpt\d)$/.test(want)) continue;
      assert.equal(slugify(t), want, JSON.stringify(t));
    }
  });

  test('a long title in a multi-byte script is cut at a dash, within 60 characters and 120 bytes', () => {
    const title = Array.from({ length: 30 }, (_, i) => '数据库缓存'.slice(0, 1 + (i % 4))).join(' ');
    const s = slugify(title);
    assert.ok(isSlug(s), s);
    assert.ok(s.length <= SLUG_MAX);
    assert.ok(Buffer.byteLength(s) <= SLUG_MAX_BYTES, `${Buffer.byteLength(s)} bytes`);
    assert.ok(!s.endsWith('-'));
    assert.ok(title.replace(/ /g, '-').startsWith(s + '-'), 'cut at a dash');
  });

  test('a long run without dashes is hard-cut on a character boundary', () => {
    const s = slugify('数'.repeat(100));
    assert.equal(s, '数'.repeat(SLUG_MAX_BYTES / 3));
    const t = slugify('क्ष'.repeat(100)); // transliterated: kss...
    assert.ok(isSlug(t) && t.length <= SLUG_MAX, t);
  });

  test('uniqueSlug keeps a Unicode slug within the byte bound', () => {
    const base = '数'.repeat(40); // 120 bytes
    assert.ok(isSlug(base));
    const s = uniqueSlug(base, (c) => c === base);
    assert.equal(s, '数'.repeat(39) + '-2');
    assert.ok(isSlug(s));
  });

  test('with { ascii: true } (names that must be ASCII, like a branch), Han, kana and Hangul are romanized too', () => {
    assert.equal(slugify('使用 Valkey 代替 Redis', undefined, { ascii: true }), 'shiyong-valkey-daiti-redis');
    assert.equal(slugify('한국어 제목', undefined, { ascii: true }), 'hangugeo-jemog');
    assert.equal(slugify('Использовать Valkey', undefined, { ascii: true }), 'ispolzovat-valkey');
    assert.match(slugify('データベース', undefined, { ascii: true }), /^[a-z0-9-]+$/);
  });

  test('Windows device names are never generated', () => {
    for (const t of ['CON', 'nul', 'Aux', 'COM1', 'lpt9', 'PRN']) {
      const s = slugify(t);
      assert.equal(s, `${t.toLowerCase()}-item`);
      assert.ok(isSlug(s));
    }
  });

  test('hostile titles in other scripts give safe slugs', () => {
    const hostile = [
      '\u202E\u0644\u0627',
      '\u3000\u3000',
      '．．／．．／etc',
      '使\u0000用',
      '\u{20000}\u{20001}',
      '\u0301\u0301a',
      'ア\u3099\u3099\u3099',
      '\u3164\u3164',
      '\u{E0041}\u{E0042}',
    ];
    for (const h of hostile) {
      const s = slugify(h, 'd-001');
      assert.ok(isSlug(s), `${JSON.stringify(h)} -> ${JSON.stringify(s)}`);
      assert.ok(!/[/\\.:\s]/.test(s));
    }
  });
});

describe('isSlug: Unicode slugs', () => {
  const accepted = ['使用-valkey-代替-redis', 'データベース', '한국어-제목', 'кэш', 'a-数', '数'.repeat(40), 'ア1'];
  const rejected: Array<[string, string]> = [
    ['数'.repeat(41), 'over 120 bytes'],
    ['Кэш', 'uppercase'],
    ['ﾃﾞｰﾀ', 'not NFKC (halfwidth)'],
    ['テ\u3099', 'not NFC'],
    ['café', 'non-ASCII Latin: accents are folded'],
    ['a\u200Bb', 'invisible character'],
    ['\u3164', 'Hangul filler'],
    ['\u{20000}', 'outside the Basic Multilingual Plane'],
    ['数-', 'trailing dash'],
    ['\u0301a', 'leading mark'],
    ['数.md', 'dot'],
    ['数/数', 'slash'],
    ['数 数', 'space'],
    ['\u{1F680}', 'emoji'],
  ];
  for (const s of accepted) test(`accepts ${JSON.stringify(s)}`, () => assert.equal(isSlug(s), true));
  for (const [s, why] of rejected) test(`rejects ${JSON.stringify(s)} (${why})`, () => assert.equal(isSlug(s), false));

  test('a Unicode item file is an item, not an unexpected file', () => {
    const c = classifyPath('decisions/使用-valkey-代替-redis.md');
    assert.ok(c.type === 'item' && c.slug === '使用-valkey-代替-redis', JSON.stringify(c));
  });
});

// ---------------------------------------------------------------------------------------------
// end to end, through the built CLI

describe('CLI: titles in other scripts, invisible characters, split tokens', () => {
  let dir: string;
  let cleanup: () => void;
  before(async () => {
    ({ dir, cleanup } = await makeStore({ init: { gitHooks: true, scan: 'if-new' } }));
  });
  after(() => cleanup());

  test('a Cyrillic title gets a transliterated slug; a Chinese one a readable Unicode slug', async () => {
    const ru = await axmeOk(dir, ['decision', 'add', '--title', 'Использовать Valkey вместо Redis', '--decision', 'Кэш в Valkey.', '--json']);
    assert.equal(ru.path, 'decisions/ispolzovat-valkey-vmesto-redis.md');
    const zh = await axmeOk(dir, ['decision', 'add', '--title', '使用 PostgreSQL 存储', '--decision', '数据在 PostgreSQL。', '--json']);
    assert.equal(zh.path, 'decisions/使用-postgresql-存储.md');
    assert.equal(zh.slug, '使用-postgresql-存储');
    // the file really is in the tree under that name, and every command finds it by its slug
    const names = git(dir, ['-c', 'core.quotePath=false', 'ls-tree', '--name-only', 'refs/memory/main', 'decisions/']);
    assert.match(names, /^decisions\/使用-postgresql-存储\.md$/m);
    const shown = await axmeOk(dir, ['decision', 'show', '使用-postgresql-存储', '--json']);
    assert.equal(shown.title, '使用 PostgreSQL 存储');
    const list = await axmeOk(dir, ['decision', 'list', '--json']);
    assert.ok(JSON.stringify(list).includes('使用-postgresql-存储'));
    const fsck = await axme(dir, ['fsck']);
    assert.equal(fsck.code, 0, fsck.stdout + fsck.stderr);
    assert.doesNotMatch(fsck.stdout + fsck.stderr, /unexpected file/);
  });

  test('an emoji-only title gets the emoji names', async () => {
    const r = await axmeOk(dir, ['decision', 'add', '--title', '\u{1F680}\u{1F525}', '--decision', 'Ship it.', '--json']);
    assert.equal(r.path, 'decisions/rocket-fire.md');
  });

  test('zero-width characters are removed from a title, and the slug is the visible one', async () => {
    const r = await axmeOk(dir, ['decision', 'add', '--title', 'Use\u200B Kafka\uFEFF for\u2060 events', '--decision', 'Kafka.', '--json']);
    assert.equal(r.title, 'Use Kafka for events');
    assert.equal(r.path, 'decisions/use-kafka-for-events.md');
  });

  test('a bidirectional override in a title is refused (exit 2) with what to do', async () => {
    const r = await axme(dir, ['decision', 'add', '--title', 'Use \u202Eenilav\u202C Valkey', '--decision', 'x']);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /title.*bidirectional control character \(U\+202E/s);
    assert.match(r.stderr, /remove it/);
  });

  test('a token split by a zero-width space is refused; with --allow-secret, `axme check` still finds it', async () => {
    const body = `Deploy with ${TOKEN.slice(0, 9)}\u200B${TOKEN.slice(9)} for now.`;
    const refused = await axme(dir, ['decision', 'add', '--title', 'Deploy token', '--decision', body]);
    assert.equal(refused.code, 2, refused.stdout + refused.stderr);
    assert.match(refused.stderr, /decision looks like it contains a GitHub token/);
    await cliText(dir, decisionAdd, { title: 'Deploy token', decision: body }, { allowSecret: true });
    const check = await axme(dir, ['check']);
    assert.equal(check.code, 1, check.stdout + check.stderr);
    assert.match(check.stdout + check.stderr, /decisions\/deploy-token\.md.*GitHub token/s);
  });
});
