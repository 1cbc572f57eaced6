/**
 * Attacks on the patterns stored text carries: an anchor, a safety rule's path or name glob, that
 * would make a matcher backtrack for ever. Every command must finish far inside HANG_BOUND_MS, and
 * the entry points that accept an anchor refuse one over the limits.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import fc from 'fast-check';
import { reconfirmItem } from '../../src/knowledge/items/anchored/reconfirm-item.ts';
import { addBacklogItem } from '../../src/knowledge/items/backlog/add-backlog-item.ts';
import { addDecision } from '../../src/knowledge/items/decision/add-decision.ts';
import { addMemory } from '../../src/knowledge/items/memory/add-memory.ts';
import { DecisionInput } from '../../src/model/decision.ts';
import { GLOB_MAX_WILDCARDS, globMatcher } from '../../src/model/glob.ts';
import { coreAt, rejectsWith, withCore } from '../core.ts';
import { axme, commitFiles, git, tempRepo } from '../helpers.ts';
import { axmeBounded, storeCommit, tsBounded } from './bounded.ts';

const HOSTILE = '****************************Q';
const REF = 'refs/memory/main';
const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));

describe('security: an anchor that would freeze every read', () => {
  test('the hostile anchor is refused at every entry point that takes an anchor (schema, core writes, CLI exit 2), saying what to write', async () => {
    const { dir, cleanup } = tempRepo();
    cleanups.push(cleanup);
    commitFiles(dir, { 'src/pay.ts': 'x\n' });
    await coreAt(dir).init();
    const parsed = DecisionInput.safeParse({ title: 'T', decision: 'x', anchors: [HOSTILE] });
    assert.equal(parsed.success, false, 'the input schema (CLI, MCP, the auditor, session close) refuses it');
    const many = `src/${'*/'.repeat(GLOB_MAX_WILDCARDS + 1)}x.ts`;
    await withCore(dir, async (kb) => {
      await rejectsWith(
        addDecision(kb, { title: 'Hostile', decision: 'x', anchors: [HOSTILE] }),
        'INVALID_INPUT',
        /three or more "\*" in a row .*write \* \(within one folder\) or \*\*/,
      );
      await rejectsWith(
        addMemory(kb, { type: 'pattern', title: 'Hostile', description: 'x', anchors: [many] }),
        'INVALID_INPUT',
        new RegExp(`at most ${GLOB_MAX_WILDCARDS} wildcards`),
      );
      await rejectsWith(addBacklogItem(kb, { title: 'Hostile', description: 'x', anchors: [HOSTILE] }), 'INVALID_INPUT', /three or more "\*" in a row/);
      await addDecision(kb, { title: 'Fine', decision: 'x', anchors: ['src/**/*.{ts,tsx}'] });
      await rejectsWith(reconfirmItem(kb, { id: 'D-001', anchors: [HOSTILE] }), 'INVALID_INPUT', /three or more "\*" in a row/);
    });
    const r = await axme(dir, ['decision', 'add', '--title', 'Hostile', '--decision', 'x', '--anchor', HOSTILE]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /anchor/);
  });

  test('a store holding the hostile anchor (a teammate pushed it, a hand edit) and a code commit: decision list, search, context and verify finish; verify names the anchor', async () => {
    const { dir, cleanup } = tempRepo();
    cleanups.push(cleanup);
    commitFiles(dir, { 'src/knowledge/views/search/build-index.ts': 'a\n' });
    const core = coreAt(dir);
    await core.init();
    const saved = await core.addDecision({ title: 'Index layout', decision: 'The index is packed.', anchors: ['src/knowledge/'] });
    const path = `decisions/${saved.item.slug}.md`;
    const text = git(dir, ['show', `${REF}:${path}`]);
    assert.match(text, /^ {2}- src\/knowledge\/$/m);
    const tip = git(dir, ['rev-parse', REF]).trim();
    git(dir, ['update-ref', REF, storeCommit(dir, tip, { [path]: text.replace(/^ {2}- src\/knowledge\/$/m, `  - "${HOSTILE}"`) }), tip]);
    // any code commit after learned_at: the glob is tried against every changed path
    commitFiles(dir, { 'src/knowledge/views/search/build-index.ts': 'b\n', 'src/knowledge/views/search/query-parser.ts': 'c\n' });

    const runs = await Promise.all([
      axmeBounded(dir, ['decision', 'list', '--json']),
      axmeBounded(dir, ['search', 'index', '--json']),
      axmeBounded(dir, ['context', '--json']),
      axmeBounded(dir, ['verify', '--json']),
    ]);
    for (const [i, r] of runs.entries()) assert.equal(r.hung, false, `${['decision list', 'search', 'context', 'verify'][i]} hung: ${r.stderr}`);
    for (const r of runs) assert.equal(r.code, 0, r.stderr);
    const verified = JSON.parse(runs[3]!.stdout);
    const u = verified.unverifiable.find((x: { slug: string }) => x.slug === saved.item.slug);
    assert.ok(u, `the item is listed as unverifiable: ${runs[3]!.stdout}`);
    assert.match(u.reason, /three or more "\*" in a row.*reconfirm D-001 --anchor/);
  });

  test('a safety rule from the synced rules file (a deniedPaths glob, a protected branch or command glob) cannot freeze the guard', async () => {
    const r = await tsBounded(
      process.cwd(),
      `
      import { matchPath } from './src/safety/paths.ts';
      import { matchesName, starGlob } from './src/safety/patterns.ts';
      const ctx = { cwd: '/home/u/project', home: '/home/u', root: '/home/u/project' };
      const long = '/home/u/project/' + 'a'.repeat(60) + '/' + 'b'.repeat(60) + '.txt';
      const found = [
        matchPath(long, ['/home/u/${HOSTILE}'], ctx),
        matchPath(long, ['${HOSTILE}'], ctx),
        matchPath(long, ['/home/u/${'*a'.repeat(20)}Q'], ctx),
        matchesName('release-' + 'a'.repeat(80), ['${'*a'.repeat(20)}Q']),
        starGlob('${'*a'.repeat(20)}Q', '.*').test('a'.repeat(200)),
      ];
      console.log(JSON.stringify(found));
    `,
    );
    assert.equal(r.hung, false, 'the matchers finished');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), [null, null, null, null, false]);
  });
});

/** The regular expressions globs used to become (before the linear matcher), as references on globs too small to backtrack far. */
function oldAnchorRegex(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      re += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '{') {
      const end = glob.indexOf('}', i);
      if (end < 0) re += '\\{';
      else {
        re += `(?:${glob
          .slice(i + 1, end)
          .split(',')
          .map((p) =>
            p
              .replace(/[.+^$()|\\]/g, '\\$&')
              .replace(/\*/g, '[^/]*')
              .replace(/\?/g, '[^/]'),
          )
          .join('|')})`;
        i = end;
      }
    } else if (c === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end < 0) re += '\\[';
      else {
        re += `[${glob.slice(i + 1, end)}]`;
        i = end;
      }
    } else re += c.replace(/[.+^$()|\\\]]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

function oldPathRegex(full: string, anchored: boolean): RegExp {
  let body = '';
  for (let i = 0; i < full.length; i++) {
    const c = full[i]!;
    if (c === '*' && full[i + 1] === '*') {
      body += '.*';
      i++;
    } else if (c === '*') body += '[^/]*';
    else if (c === '?') body += '[^/]';
    else if (c === '[' && full.indexOf(']', i + 2) > 0) {
      const end = full.indexOf(']', i + 2);
      body += `[${full.slice(i + 1, end)}]`;
      i = end;
    } else body += c.replace(/[.+^${}()|\\[\]]/g, '\\$&');
  }
  return new RegExp(anchored ? `^${body}(?:/.*)?$` : `(?:^|/)${body}(?:/|$)`);
}

describe('the linear glob matcher answers as the regular expressions did', () => {
  const atom = (braces: boolean) => fc.constantFrom('a', 'b', '.', '/', '*', '**', '**/', '?', '[ab]', ...(braces ? ['{a,b/}', '{a*,?b}', '{,a}'] : []));
  const path = fc.array(fc.constantFrom('a', 'b', '.', '/'), { maxLength: 9 }).map((x) => x.join(''));

  // three or more `*` in a row are refused in anchors (globProblem): their reading is not compared
  test('anchors and workspace globs: *, **, **/, ?, [...], {a,b}', () => {
    fc.assert(
      fc.property(
        fc
          .array(atom(true), { maxLength: 6 })
          .map((x) => x.join(''))
          .filter((g) => !/\*{3}/.test(g)),
        path,
        (glob, p) => globMatcher(glob).test(p) === oldAnchorRegex(glob).test(p),
      ),
      { numRuns: 3000 },
    );
  });

  test('safety paths: anchored patterns and name patterns', () => {
    fc.assert(
      fc.property(
        fc.array(atom(false), { maxLength: 6 }).map((x) => x.join('')),
        path,
        fc.boolean(),
        (glob, p, anchored) => {
          const m = globMatcher(glob, { braces: false, emptyGlobstar: false, from: anchored ? 'start' : 'folder', to: 'folder' });
          return m.test(p) === oldPathRegex(glob, anchored).test(p);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
