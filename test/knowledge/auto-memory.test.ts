import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { autoMemoryAtSessionEnd } from '../../src/hooks/store-work.ts';
import { exportAutoMemory } from '../../src/knowledge/auto-memory/export-auto-memory.ts';
import { importAutoMemory } from '../../src/knowledge/auto-memory/import-auto-memory.ts';
import { memoryFolder, projectKey } from '../../src/knowledge/auto-memory/memory-folder.ts';
import { BEGIN_MARKER, END_MARKER, lineCount, mergeSection, splitMemoryMd, userText } from '../../src/knowledge/auto-memory/memory-md.ts';
import { parseEntries } from '../../src/knowledge/auto-memory/parse-entries.ts';
import type { KnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { locateRepo } from '../../src/knowledge/core/location.ts';
import { mutate } from '../../src/knowledge/core/mutate.ts';
import { putFile, putItem, stage } from '../../src/knowledge/core/staging.ts';
import { Decision } from '../../src/model/decision.ts';
import { Memory } from '../../src/model/memory.ts';
import { CONFIG_PATH } from '../../src/model/paths.ts';
import { exportAutoMemory as exportOp } from '../../src/operations/export/auto-memory.ts';
import { importAutoMemory as importOp } from '../../src/operations/import/auto-memory.ts';
import { type CoreOptions, coreAt, exitCodeOf, rejectsWith, withCore } from '../core.ts';
import { axme, CLI, cleanEnv, git } from '../helpers.ts';
import { cliJson, cliText } from '../store-fixture.ts';
import { HANG_BOUND_MS } from '../until.ts';
import { storeCopies } from './fixture-copies.ts';

/** A HOME of the test's own: nothing touches the real ~/.claude. */
function tempHome(): { home: string; env: NodeJS.ProcessEnv; cleanup: () => void } {
  const home = mkdtempSync(join(tmpdir(), 'axme-home-'));
  return { home, env: { HOME: home, CLAUDE_CONFIG_DIR: join(home, '.claude') }, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

/** The folder Claude Code keeps this repository's auto memory in, under `home`. */
function folderFor(home: string, repoDir: string): string {
  return join(home, '.claude', 'projects', projectKey(realpathSync(repoDir)), 'memory');
}

function exportIn(dir: string, input: { dir?: string; dry_run?: boolean }, opts: CoreOptions) {
  return withCore(dir, (kb) => exportAutoMemory(kb, input, { cwd: dir, env: opts.env }), opts);
}

function importIn(dir: string, input: { dir?: string; dry_run?: boolean }, opts: CoreOptions & { allowSecret?: boolean }) {
  return withCore(dir, (kb) => importAutoMemory(kb, input, { cwd: dir, env: opts.env, allowSecret: opts.allowSecret }), opts);
}

// each describe's store starts as a copy of one initialised repository (one empty commit on main)
const stores = storeCopies();

function tip(dir: string): string {
  return git(dir, ['rev-parse', 'refs/memory/main']).trim();
}

describe('the project key and the auto memory folder', () => {
  test('the key: every UTF-16 code unit outside [a-zA-Z0-9] becomes a dash, nothing collapsed', () => {
    const cases: Array<[string, string]> = [
      ['/Users/me/.agents', '-Users-me--agents'],
      ['C:\\Users\\me\\project', 'C--Users-me-project'],
      ['/home/dev/my_app v2', '-home-dev-my-app-v2'],
      ['/home/café', '-home-caf-'],
      ['/home/🙂x', '-home---x'],
    ];
    for (const [path, key] of cases) assert.equal(projectKey(path), key, path);
  });

  test('a path over 200 characters: the first 200 sanitized, a dash, the base-36 Java hash of the path', () => {
    const path = `/home/dev/${'projects/'.repeat(30)}app`;
    assert.equal(path.length, 283);
    const key = projectKey(path);
    // hash computed independently (Java's String.hashCode of the path is 1497515654)
    assert.equal(key, `${path.replace(/[^a-zA-Z0-9]/g, '-').slice(0, 200)}-orkyh2`);
    const exact = `/${'a'.repeat(199)}`;
    assert.equal(projectKey(exact), `-${'a'.repeat(199)}`, 'exactly 200 characters: no hash');
  });

  test('where the folder is: CLAUDE_CONFIG_DIR, autoMemoryDirectory of the user settings only, the transcript', () => {
    const { home, cleanup } = tempHome();
    try {
      const root = '/src/app';
      const base = { root, cwd: root };
      assert.equal(memoryFolder({ ...base, env: { HOME: home } }).dir, join(home, '.claude', 'projects', '-src-app', 'memory'));
      assert.equal(
        memoryFolder({ ...base, env: { HOME: home, CLAUDE_CONFIG_DIR: join(home, 'cfg') } }).dir,
        join(home, 'cfg', 'projects', '-src-app', 'memory'),
      );
      const t = memoryFolder({ ...base, env: { HOME: home }, transcriptPath: join(home, 'x', 'projects', '-src-app', 's1.jsonl') });
      assert.deepEqual([t.dir, t.source], [join(home, 'x', 'projects', '-src-app', 'memory'), 'transcript']);
      // a session started in a subfolder: its transcript folder is another key, the memory is the root's
      const sub = memoryFolder({
        root,
        cwd: '/src/app/pkg',
        sessionCwd: '/src/app/pkg',
        env: { HOME: home },
        transcriptPath: join(home, 'x', 'projects', '-src-app-pkg', 's1.jsonl'),
      });
      assert.equal(sub.dir, join(home, 'x', 'projects', '-src-app', 'memory'));
      mkdirSync(join(home, '.claude'), { recursive: true });
      writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({ autoMemoryDirectory: '~/notes/mem' }));
      const s = memoryFolder({ ...base, env: { HOME: home } });
      assert.deepEqual([s.dir, s.source], [join(home, 'notes', 'mem'), 'settings']);
      writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({ autoMemoryDirectory: 'relative/not/allowed' }));
      assert.equal(memoryFolder({ ...base, env: { HOME: home } }).source, 'key');
      assert.equal(memoryFolder({ ...base, env: { HOME: home, CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1' } }).disabled, true);
      // autoMemoryEnabled: the later settings layer wins; the variable wins over all (0 forces it on)
      writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({ autoMemoryEnabled: false }));
      assert.equal(memoryFolder({ ...base, env: { HOME: home } }).disabled, true);
      assert.equal(memoryFolder({ ...base, env: { HOME: home, CLAUDE_CODE_DISABLE_AUTO_MEMORY: '0' } }).disabled, false);
      const project = mkdtempSync(join(tmpdir(), 'axme-proj-'));
      try {
        mkdirSync(join(project, '.claude'));
        writeFileSync(join(project, '.claude', 'settings.local.json'), JSON.stringify({ autoMemoryEnabled: true }));
        assert.equal(memoryFolder({ ...base, root: project, env: { HOME: home } }).disabled, false, 'the local layer turns it back on');
        writeFileSync(join(project, '.claude', 'settings.local.json'), '{}');
        writeFileSync(join(project, '.claude', 'settings.json'), JSON.stringify({ autoMemoryEnabled: false }));
        writeFileSync(join(home, '.claude', 'settings.json'), '{}');
        assert.equal(memoryFolder({ ...base, root: project, env: { HOME: home } }).disabled, true, 'a project can opt out');
      } finally {
        rmSync(project, { recursive: true, force: true });
      }
    } finally {
      cleanup();
    }
  });
});

describe('parsing auto memory notes into entries', () => {
  test('bullets, paragraphs and list-less ## sections; titles, index links and comments skipped', () => {
    const text = [
      '# Project memory',
      '<!-- a comment -->',
      '- Build with `npm run build` before tests',
      '- The user prefers small commits',
      '  with clear messages',
      '- [Debugging](debugging.md): how to debug the hooks',
      '',
      'A loose paragraph.',
      '',
      '## Deploy',
      'Deploys go through the release workflow.',
      '',
      '```sh',
      'gh workflow run release',
      '```',
      '',
      '---',
      '## Conventions',
      '- Tabs, not spaces',
      '',
    ].join('\n');
    const entries = parseEntries('MEMORY.md', text);
    assert.deepEqual(
      entries.map((e) => [e.title, e.type, e.heading]),
      [
        ['Build with npm run build before tests', 'pattern', null],
        ['The user prefers small commits', 'feedback', null],
        ['A loose paragraph.', 'pattern', null],
        ['Deploy', 'pattern', 'Deploy'],
        ['Tabs, not spaces', 'pattern', 'Conventions'],
      ],
    );
    assert.equal(entries[1]!.text, 'The user prefers small commits\nwith clear messages');
    assert.match(entries[3]!.text, /release workflow\.\n\n```sh\ngh workflow run release\n```$/);
    // the same text gives the same hash; other text another
    assert.equal(parseEntries('x.md', '* Tabs,   not spaces')[0]!.hash, entries[4]!.hash);
    assert.notEqual(entries[0]!.hash, entries[4]!.hash);
  });
});

describe("MEMORY.md: axme's section between the user's text", () => {
  test('a new section goes after the text with a blank line; merging again changes nothing; a lone begin marker is refused', async () => {
    for (const own of ['', 'no final newline', 'one line\n', 'two\n\n']) {
      const first = mergeSection(splitMemoryMd(own), ['x']);
      assert.ok(first.startsWith(own), JSON.stringify(own));
      assert.equal(mergeSection(splitMemoryMd(first), ['x']), first, JSON.stringify(own));
      assert.equal(userText(splitMemoryMd(first)).startsWith(own), true);
      assert.equal(mergeSection(splitMemoryMd(first), null).startsWith(own), true);
    }
    assert.equal(lineCount('a\nb\n'), 2);
    assert.equal(lineCount('a\nb'), 2);
    await rejectsWith(
      Promise.resolve().then(() => splitMemoryMd(`mine\n${BEGIN_MARKER}\n- x\n`)),
      'WRONG_STATE',
      /no "<!-- axme:end -->" line/,
    );
  });
});

describe('axme export auto-memory', () => {
  let repo: { dir: string; cleanup: () => void };
  let h: ReturnType<typeof tempHome>;
  let folder: string;
  const opts = (): CoreOptions => ({ env: h.env });

  before(async () => {
    repo = await stores.copy();
    h = tempHome();
    await coreAt(repo.dir).addDecision({ title: 'Use pnpm', decision: 'Install with pnpm, never npm install.', enforce: 'required' });
    await coreAt(repo.dir).addDecision({ title: 'Prefer small modules', decision: 'One exported function per file.' });
    await coreAt(repo.dir).addMemory({ type: 'feedback', title: 'Short PRs', description: 'Keep pull requests under 300 lines.' });
    folder = folderFor(h.home, repo.dir);
  });
  after(() => {
    repo.cleanup();
    h.cleanup();
  });

  test('--dry-run writes nothing', async () => {
    const r = await exportIn(repo.dir, { dry_run: true }, opts());
    assert.equal(r.dir, folder);
    assert.ok(
      r.files.every((f) => f.changed),
      'everything would be written',
    );
    assert.equal(existsSync(folder), false);
  });

  test("writes MEMORY.md's section and the topic files into Claude Code's folder for the repository", async () => {
    const out = await cliText(repo.dir, exportOp, {}, { env: h.env });
    assert.match(out, new RegExp(`^Wrote MEMORY\\.md, axme-decisions\\.md, axme-memories\\.md in ${folder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    assert.match(out, /shows 1 of 1 required decisions, 1 of 1 memories, the safety rules/);
    const md = readFileSync(join(folder, 'MEMORY.md'), 'utf8');
    assert.ok(md.startsWith(`${BEGIN_MARKER}\n`) && md.endsWith(`${END_MARKER}\n`));
    assert.match(md, /- D-001 Use pnpm: Install with pnpm, never npm install\./);
    assert.doesNotMatch(md, /Prefer small modules/, 'advisory decisions are in the topic file only');
    assert.match(md, /… 1 advisory in axme-decisions\.md/);
    assert.match(md, /### Safety rules[^\n]*\n- Protected branches: main/);
    assert.match(md, /- \[feedback\] Short PRs: Keep pull requests under 300 lines\./);
    const decisions = readFileSync(join(folder, 'axme-decisions.md'), 'utf8');
    assert.match(decisions, /^<!-- axme:generated/);
    assert.match(decisions, /### D-002 \[advisory\] Prefer small modules\nOne exported function per file\./);
  });

  test("the user's own text is kept byte for byte, before and after the section", async () => {
    const md = join(folder, 'MEMORY.md');
    const current = readFileSync(md, 'utf8');
    const head = '# My notes\n\n- Tests need Docker running';
    const tail = '\n## Later\nClaude wrote this after the section.\n';
    writeFileSync(md, `${head}\n${current}${tail}`);
    await coreAt(repo.dir).addMemory({ type: 'pattern', title: 'Errors are typed', description: 'Every error has a code.' });
    const r = await exportIn(repo.dir, {}, opts());
    assert.deepEqual(
      r.files.find((f) => f.name === 'MEMORY.md'),
      { name: 'MEMORY.md', changed: true },
    );
    const now = readFileSync(md, 'utf8');
    assert.ok(now.startsWith(`${head}\n${BEGIN_MARKER}\n`), now.slice(0, 200));
    assert.ok(now.endsWith(`${END_MARKER}\n${tail}`), now.slice(-200));
    assert.match(now, /Errors are typed/);
    assert.equal(r.user_lines, lineCount(`${head}\n${tail}`));
  });

  test('a second export changes no byte and touches no file', async () => {
    await exportIn(repo.dir, {}, opts());
    const before = new Map(readdirSync(folder).map((n) => [n, { text: readFileSync(join(folder, n), 'utf8'), mtime: statSync(join(folder, n)).mtimeMs }]));
    const r = await exportIn(repo.dir, {}, opts());
    assert.deepEqual(
      r.files.map((f) => f.changed),
      [false, false, false],
    );
    for (const n of readdirSync(folder))
      assert.deepEqual({ text: readFileSync(join(folder, n), 'utf8'), mtime: statSync(join(folder, n)).mtimeMs }, before.get(n), n);
    const text = await cliText(repo.dir, exportOp, {}, { env: h.env });
    assert.match(text, /^Auto memory up to date in .*: nothing written/);
  });

  test('a linked worktree writes the same folder (Claude Code keys auto memory by the main worktree)', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'axme-wt-'));
    const wt = join(parent, 'feature');
    git(repo.dir, ['worktree', 'add', '-q', '-b', 'feature', wt]);
    try {
      const r = await cliJson(wt, exportOp, { dry_run: true }, { env: h.env });
      assert.equal(r.dir, folder);
      assert.equal(r.source, 'key');
    } finally {
      git(repo.dir, ['worktree', 'remove', '--force', wt]);
      rmSync(parent, { recursive: true, force: true });
    }
  });

  test('CLAUDE_CODE_DISABLE_AUTO_MEMORY: an explicit export still writes, and says Claude Code will not read it', async () => {
    const dir = mkdtempSync(join(h.home, 'off-'));
    const out = await cliText(repo.dir, exportOp, { dir }, { env: { ...h.env, CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1' } });
    assert.match(out, /auto memory is off here \(CLAUDE_CODE_DISABLE_AUTO_MEMORY/);
    assert.ok(existsSync(join(dir, 'MEMORY.md')));
  });

  test('a bad --dir is a usage error (exit 2) saying what to give', async () => {
    const file = join(h.home, 'a-file');
    writeFileSync(file, 'x');
    // the command's exit status and stderr, from the built binary
    const r = await axme(repo.dir, ['export', 'auto-memory', '--dir', file], { env: h.env });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /--dir .*a-file is not a folder: give the auto memory folder/);
    assert.equal(r.stdout, '');
    // the import's folder is checked the same way: the same usage error
    const missing = await rejectsWith(
      cliText(repo.dir, importOp, { dir: join(h.home, 'no', 'such', 'memory') }, { env: h.env }),
      'INVALID_INPUT',
      /does not exist, nor does its parent folder/,
    );
    assert.equal(exitCodeOf(missing), 2);
  });

  test('--dir /proc/nope: refused at once (exit 2) saying what to do, never a hang', { skip: process.platform !== 'linux' }, async () => {
    const child = spawn(process.execPath, [CLI, 'export', 'auto-memory', '--dir', '/proc/nope'], {
      cwd: repo.dir,
      env: cleanEnv(h.env),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    let hung = false;
    // the bound is against a hang only: the exit event is what the test waits on
    const killer = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, HANG_BOUND_MS);
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => (clearTimeout(killer), resolve(c))));
    assert.equal(hung, false, 'axme export auto-memory --dir /proc/nope did not exit');
    assert.equal(code, 2, stderr);
    assert.doesNotMatch(stderr, /internal/i);
    assert.match(stderr, /cannot make the folder \/proc\/nope: .*export to a folder on a disk you can write to/);
  });
});

describe('a 1,000-item store: MEMORY.md stays within 200 lines and 25 KB', () => {
  let repo: { dir: string; cleanup: () => void };
  let h: ReturnType<typeof tempHome>;

  before(async () => {
    repo = await stores.copy();
    h = tempHome();
    // 600 decisions (half required) and 400 memories in ONE commit, through the core's write path
    await withCore(repo.dir, (kb: KnowledgeBase) =>
      mutate(kb, (state) => {
        const st = stage(state);
        const at = '2026-11-01T10:00:00.000Z';
        for (let i = 1; i <= 600; i++) {
          const id = `D-${String(i).padStart(3, '0')}`;
          const d = Decision.parse({
            slug: `decision-${i}`,
            id,
            title: `Decision number ${i} about a rather long subject that goes on for a while`,
            decision: `Do thing ${i} this way. ${'Because it matters a lot. '.repeat(8)}`,
            enforce: i % 2 ? 'required' : 'advisory',
            created: at,
            updated: at,
          });
          putItem(st, 'decision', d, 'decision.added', id);
        }
        for (let i = 1; i <= 400; i++) {
          const m = Memory.parse({
            slug: `memory-${i}`,
            type: i % 4 ? 'pattern' : 'feedback',
            title: `Memory ${i} with a descriptive title`,
            description: `What memory ${i} says, in a sentence of some length. ${'More words here. '.repeat(6)}`,
            created: at,
            updated: at,
          });
          putItem(st, 'memory', m, 'memory.added', `memory ${i}`);
        }
        return { result: null, files: st.files, subject: 'test: 1000 items', event: 'test' };
      }),
    );
  });
  after(() => {
    repo.cleanup();
    h.cleanup();
  });

  test('the lists shrink to fit, each ending with where the rest is; the topic files have everything', async () => {
    const folder = folderFor(h.home, repo.dir);
    mkdirSync(folder, { recursive: true });
    const own = `# Notes Claude wrote\n${Array.from({ length: 40 }, (_, i) => `- note ${i}: ${'x'.repeat(60)}`).join('\n')}\n`;
    writeFileSync(join(folder, 'MEMORY.md'), own);
    const r = await exportIn(repo.dir, {}, { env: h.env });
    const md = readFileSync(join(folder, 'MEMORY.md'), 'utf8');
    assert.ok(lineCount(md) <= 200, `${lineCount(md)} lines`);
    assert.ok(Buffer.byteLength(md) <= 25_000, `${Buffer.byteLength(md)} bytes`);
    assert.equal(r.lines, lineCount(md));
    assert.ok(md.startsWith(own), "the user's text is kept");
    assert.equal(r.counts.required_total, 300);
    assert.ok(r.counts.required_shown > 0 && r.counts.required_shown < 300, String(r.counts.required_shown));
    assert.match(md, new RegExp(`… ${300 - r.counts.required_shown} more and 300 advisory in axme-decisions\\.md`));
    assert.match(md, /… \d+ more in axme-memories\.md/);
    const decisions = readFileSync(join(folder, 'axme-decisions.md'), 'utf8');
    assert.equal((decisions.match(/^### D-\d+ /gm) ?? []).length, 600);
    assert.equal((readFileSync(join(folder, 'axme-memories.md'), 'utf8').match(/^### Memory \d+ /gm) ?? []).length, 400);
  });

  test('user text that fills MEMORY.md leaves no section: the file stays theirs, unchanged', async () => {
    const dir = mkdtempSync(join(h.home, 'full-'));
    const own = `${Array.from({ length: 199 }, (_, i) => `- line ${i}`).join('\n')}\n`;
    writeFileSync(join(dir, 'MEMORY.md'), own);
    const r = await exportIn(repo.dir, { dir }, { env: h.env });
    assert.equal(r.section, false);
    assert.equal(readFileSync(join(dir, 'MEMORY.md'), 'utf8'), own);
    assert.deepEqual(
      r.files.map((f) => f.changed),
      [false, true, true],
    );
  });
});

describe('axme import auto-memory', () => {
  let repo: { dir: string; cleanup: () => void };
  let h: ReturnType<typeof tempHome>;
  let folder: string;

  before(async () => {
    repo = await stores.copy();
    h = tempHome();
    await coreAt(repo.dir).addMemory({ type: 'feedback', title: 'Small pull requests', description: 'Keep pull requests under 300 lines.' });
    folder = folderFor(h.home, repo.dir);
    mkdirSync(folder, { recursive: true });
    // what Claude wrote, with axme's section in the middle (its lines are not imported)
    await exportIn(repo.dir, {}, { env: h.env });
    const section = readFileSync(join(folder, 'MEMORY.md'), 'utf8');
    writeFileSync(
      join(folder, 'MEMORY.md'),
      `# Memory\n\n- Run the tests with \`npm test\`\n- Keep pull requests under 300 lines.\n- [Debugging](debugging.md): hook debugging notes\n\n${section}\n## Release\nReleases are cut from main by CI.\n`,
    );
    writeFileSync(
      join(folder, 'debugging.md'),
      '# Debugging\n\n- Set AXME_DEBUG=1 for stack traces\n- The deploy key is ghp_abcdefghijklmnopqrstuvwxyz0123456789\n',
    );
  });
  after(() => {
    repo.cleanup();
    h.cleanup();
  });

  test('--dry-run lists what would come in and commits nothing', async () => {
    const before = tip(repo.dir);
    const r = await importIn(repo.dir, { dry_run: true }, { env: h.env });
    assert.equal(r.commit, null);
    assert.equal(r.entries.filter((e) => e.outcome === 'new').length, 3);
    assert.equal(tip(repo.dir), before);
  });

  test("Claude's entries become memories in ONE commit; a secret is left out; axme's own lines and files are not imported", async () => {
    const before = tip(repo.dir);
    const r = await cliJson(repo.dir, importOp, {}, { env: h.env });
    assert.ok(r.commit);
    assert.equal(git(repo.dir, ['rev-list', '--count', `${before}..refs/memory/main`]).trim(), '1');
    const fresh = r.entries.filter((e: any) => e.outcome === 'new').map((e: any) => [e.file, e.title]);
    assert.deepEqual(fresh, [
      ['MEMORY.md', 'Run the tests with npm test'],
      ['MEMORY.md', 'Release'],
      ['debugging.md', 'Set AXME_DEBUG=1 for stack traces'],
    ]);
    // the same text as an existing memory is not added twice
    assert.deepEqual(
      r.entries.find((e: any) => e.title.startsWith('Keep pull requests')),
      { file: 'MEMORY.md', title: 'Keep pull requests under 300 lines.', outcome: 'exists', slug: 'small-pull-requests' },
    );
    assert.equal(r.problems.length, 1);
    assert.match(r.problems[0].reason, /GitHub token.*--allow-secret/);
    const m = await coreAt(repo.dir).show('memory', 'release');
    assert.equal(m.description, 'Releases are cut from main by CI.');
    assert.equal(m.source, 'auto-memory');
    assert.match(String(m.extra.auto_memory_hash), /^[0-9a-f]{16}$/);
    const all = await coreAt(repo.dir).list('memory');
    assert.equal(all.length, 4);
  });

  test('a second import adds nothing', async () => {
    const before = tip(repo.dir);
    const out = await cliText(repo.dir, importOp, {}, { env: h.env });
    assert.match(out, /^Nothing new to import from .*: every entry is already a memory/);
    assert.equal(tip(repo.dir), before);
  });

  test('the export does not list imported notes twice in MEMORY.md (they are in the user part already)', async () => {
    await exportIn(repo.dir, {}, { env: h.env });
    const md = readFileSync(join(folder, 'MEMORY.md'), 'utf8');
    const section = md.slice(md.indexOf(BEGIN_MARKER));
    assert.doesNotMatch(section, /Run the tests with/);
    assert.match(section, /Small pull requests/);
    assert.match(readFileSync(join(folder, 'axme-memories.md'), 'utf8'), /### Run the tests with npm test/);
  });
});

describe('autoMemory: sync at a session end', () => {
  let repo: { dir: string; cleanup: () => void };
  let h: ReturnType<typeof tempHome>;

  before(async () => {
    repo = await stores.copy();
    h = tempHome();
    await coreAt(repo.dir).addDecision({ title: 'Use pnpm', decision: 'Install with pnpm.', enforce: 'required' });
  });
  after(() => {
    repo.cleanup();
    h.cleanup();
  });

  const transcriptDir = () => join(h.home, '.claude', 'projects', projectKey(realpathSync(repo.dir)));

  test('off (the default): nothing read, nothing written', async () => {
    const loc = locateRepo(repo.dir)!;
    assert.equal(await autoMemoryAtSessionEnd(loc, cleanEnv(h.env), repo.dir, join(transcriptDir(), 's1.jsonl')), null);
    assert.equal(existsSync(join(transcriptDir(), 'memory')), false);
  });

  test('sync: imports what Claude wrote, then exports; CLAUDE_CODE_DISABLE_AUTO_MEMORY turns it off', async () => {
    await withCore(repo.dir, (kb) =>
      mutate(kb, async (state) => {
        const st = stage(state);
        const current = (await kb.repo.backend.readBlob(state.snapshot.files.get(CONFIG_PATH)!.oid)).toString('utf8');
        putFile(st, CONFIG_PATH, `${current}autoMemory: sync\n`, 'config', 'autoMemory: sync');
        return { result: null, files: st.files, subject: 'config: autoMemory sync', event: 'config' };
      }),
    );
    const memory = join(transcriptDir(), 'memory');
    mkdirSync(memory, { recursive: true });
    writeFileSync(join(memory, 'MEMORY.md'), '- Lint runs in CI only\n');
    const env = cleanEnv(h.env);
    const off = await autoMemoryAtSessionEnd(
      locateRepo(repo.dir)!,
      { ...env, CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1' },
      repo.dir,
      join(transcriptDir(), 's1.jsonl'),
    );
    assert.equal(off, null);
    assert.equal(readFileSync(join(memory, 'MEMORY.md'), 'utf8'), '- Lint runs in CI only\n');
    const before = tip(repo.dir);
    assert.equal(await autoMemoryAtSessionEnd(locateRepo(repo.dir)!, env, repo.dir, join(transcriptDir(), 's1.jsonl')), null);
    assert.notEqual(tip(repo.dir), before);
    const md = readFileSync(join(memory, 'MEMORY.md'), 'utf8');
    assert.ok(md.startsWith('- Lint runs in CI only\n\n<!-- axme:begin'), md.slice(0, 120));
    assert.match(md, /D-001 Use pnpm/);
    const titles = (await coreAt(repo.dir).list('memory')).map((m: any) => m.title);
    assert.deepEqual(titles, ['Lint runs in CI only']);
  });

  test("through the installed hooks: session-start then session-end (Claude Code) bring the notes in and the knowledge out; another client's session end leaves auto memory alone", async () => {
    const { spawnSync } = await import('node:child_process');
    const { hookCommand } = await import('../../src/setup/launch.ts');
    const memory = join(transcriptDir(), 'memory');
    writeFileSync(join(memory, 'MEMORY.md'), '- Lint runs in CI only\n- Release notes are written by hand\n');
    const env = cleanEnv(h.env);
    const hook = (event: string, payload: Record<string, unknown>, client: 'claude-code' | 'gemini' = 'claude-code') =>
      spawnSync('/bin/sh', ['-c', hookCommand(event, client)], { cwd: repo.dir, env, input: JSON.stringify({ cwd: repo.dir, ...payload }), encoding: 'utf8' });
    const transcript = join(transcriptDir(), 'e2e.jsonl');
    // a Gemini session ending touches no Claude Code file
    assert.equal(hook('session-start', { session_id: 'g1', hook_event_name: 'SessionStart', source: 'startup' }, 'gemini').status, 0);
    const untouched = tip(repo.dir);
    assert.equal(hook('session-end', { session_id: 'g1', hook_event_name: 'SessionEnd', reason: 'exit' }, 'gemini').status, 0);
    assert.equal(tip(repo.dir), untouched);
    assert.equal(readFileSync(join(memory, 'MEMORY.md'), 'utf8'), '- Lint runs in CI only\n- Release notes are written by hand\n');
    // Claude Code's: in, then out
    assert.equal(hook('session-start', { session_id: 'e2e', transcript_path: transcript, hook_event_name: 'SessionStart', source: 'startup' }).status, 0);
    const end = hook('session-end', { session_id: 'e2e', transcript_path: transcript, hook_event_name: 'SessionEnd', reason: 'prompt_input_exit' });
    assert.equal(end.status, 0, end.stderr);
    assert.equal(end.stderr, '');
    const titles = (await coreAt(repo.dir).list('memory')).map((m: any) => m.title).sort();
    assert.deepEqual(titles, ['Lint runs in CI only', 'Release notes are written by hand']);
    const md = readFileSync(join(memory, 'MEMORY.md'), 'utf8');
    assert.ok(md.startsWith('- Lint runs in CI only\n- Release notes are written by hand\n'), md.slice(0, 120));
    assert.match(md, /D-001 Use pnpm/);
  });

  test('a problem is one line, never a throw', async () => {
    const memory = join(transcriptDir(), 'memory');
    writeFileSync(join(memory, 'MEMORY.md'), '<!-- axme:begin broken, no end marker\n- x\n');
    const line = await autoMemoryAtSessionEnd(locateRepo(repo.dir)!, cleanEnv(h.env), repo.dir, join(transcriptDir(), 's1.jsonl'));
    assert.match(line ?? '', /^axme: the auto memory sync failed: .*no "<!-- axme:end -->" line/);
    assert.equal(line!.includes('\n'), false);
  });
});
