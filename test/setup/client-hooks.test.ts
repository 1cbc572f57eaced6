import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { axmeIn, axmeInOk } from '../cli-in-process.ts';
import { axme, CLI, tempRepo } from '../helpers.ts';

const INIT = ['init', '--no-git-hooks', '--no-scan', '--no-fetch-config'];

type Json = Record<string, any>;

/**
 * Each client whose hooks axme registers: its file, a file of the user's to merge into, the
 * events axme answers and how each entry must look (`check`), and where the foreign hooks are.
 */
const HOOK_CLIENTS = [
  {
    id: 'cursor',
    file: '.cursor/hooks.json',
    foreign: { version: 1, hooks: { beforeShellExecution: [{ command: './audit.sh', timeout: 5 }], stop: [{ command: './notify.sh' }] } },
    events: {
      beforeShellExecution: 'pre-tool-use',
      beforeReadFile: 'pre-tool-use',
      beforeMCPExecution: 'pre-tool-use',
      afterFileEdit: 'post-tool-use',
      sessionStart: 'session-start',
      sessionEnd: 'session-end',
    } as Record<string, string>,
    ours: (list: any[]) => list.filter((h) => isOurs(h.command)),
    check: (event: string, h: Json) => {
      assert.equal(h.timeout, event === 'sessionStart' ? 30 : 10);
      assert.equal(h.failClosed, event.startsWith('before') ? true : undefined, `${event}: failClosed only on the blocking events`);
    },
  },
  {
    id: 'codex',
    file: '.codex/hooks.json',
    foreign: {
      hooks: {
        PreToolUse: [{ matcher: '^Bash$', hooks: [{ type: 'command', command: './guard.sh', timeout: 30 }] }],
        Stop: [{ hooks: [{ type: 'command', command: './stop.sh' }] }],
      },
    },
    // no PostToolUse: apply_patch, Codex's one editing tool, sends none (its files are recorded at PreToolUse)
    events: {
      PreToolUse: 'pre-tool-use',
      SessionStart: 'session-start',
      SessionEnd: 'session-end',
      UserPromptSubmit: 'user-prompt-submit',
      PreCompact: 'pre-compact',
    } as Record<string, string>,
    ours: (list: any[]) => list.flatMap((g) => g.hooks.filter((h: Json) => isOurs(h.command)).map((h: Json) => ({ ...h, matcher: g.matcher }))),
    check: (event: string, h: Json) => {
      assert.equal(h.type, 'command');
      // Codex cuts a SessionEnd hook off after 3 s
      assert.equal(h.timeout, event === 'SessionStart' || event === 'PreCompact' ? 30 : event === 'SessionEnd' ? 3 : 10);
      assert.equal(h.matcher, undefined, 'no matcher: every tool');
    },
  },
  {
    id: 'gemini',
    file: '.gemini/settings.json',
    foreign: {
      theme: 'GitHub',
      mcpServers: { other: { command: 'x' } },
      hooks: { BeforeTool: [{ matcher: 'run_shell_command', hooks: [{ type: 'command', name: 'mine', command: './g.sh', timeout: 5000 }] }] },
    },
    events: {
      BeforeTool: 'pre-tool-use',
      AfterTool: 'post-tool-use',
      SessionStart: 'session-start',
      SessionEnd: 'session-end',
      BeforeAgent: 'user-prompt-submit',
      PreCompress: 'pre-compact',
    } as Record<string, string>,
    ours: (list: any[]) => list.flatMap((g) => g.hooks.filter((h: Json) => isOurs(h.command)).map((h: Json) => ({ ...h, matcher: g.matcher }))),
    check: (event: string, h: Json) => {
      assert.equal(h.type, 'command');
      assert.equal(h.timeout, event === 'SessionStart' || event === 'PreCompress' ? 30000 : 10000, 'Gemini CLI counts milliseconds');
      assert.equal(h.name, `axme-${HOOK_CLIENTS[2]!.events[event]}`);
      assert.equal(h.matcher, event === 'AfterTool' ? 'write_file|replace' : undefined);
    },
  },
] as const;

function isOurs(command: unknown): boolean {
  return typeof command === 'string' && /"\$a" hook [a-z-]+ --client [a-z]+|axme\.cjs hook/.test(command);
}

function read(dir: string, file: string): string {
  return readFileSync(join(dir, file), 'utf8');
}

describe('axme init --agent: hooks of Cursor, Codex and Gemini CLI', () => {
  let dir: string;
  let cleanup: () => void;
  before(() => ({ dir, cleanup } = tempRepo({ commit: true })));
  after(() => cleanup());

  for (const c of HOOK_CLIENTS) {
    test(`${c.id}: hooks merged into ${c.file}, foreign hooks kept, idempotent, an earlier axme's replaced, uninstalled exactly`, async () => {
      mkdirSync(join(dir, c.file, '..'), { recursive: true });
      const before = `${JSON.stringify(c.foreign, null, 4)}\n`;
      writeFileSync(join(dir, c.file), before);
      const r = await axmeInOk(dir, [...INIT, '--agent', c.id, '--json']);
      const change = r.clients.find((x: { path: string; hooks?: string[] }) => x.path === join(dir, c.file) && x.hooks);
      assert.deepEqual(change?.hooks, Object.keys(c.events), 'init reports the events it registered');
      assert.equal(change.action, 'updated');
      const text = read(dir, c.file);
      assert.match(text, /^\{\n {4}"/, 'the indentation stays');
      assert.ok(!text.includes(CLI) && !text.includes(dir), 'no path of this machine');
      const config = JSON.parse(text);
      // every foreign key and hook is still there, where it was
      for (const [k, v] of Object.entries(c.foreign)) {
        if (k === 'mcpServers') assert.deepEqual(config[k].other, (v as Json).other, 'the other servers stay (axme adds its own)');
        else if (k !== 'hooks') assert.deepEqual(config[k], v);
      }
      for (const [event, list] of Object.entries(c.foreign.hooks as Record<string, readonly unknown[]>))
        assert.deepEqual(config.hooks[event].slice(0, list.length), list, `${event}: the user's hooks first, as they were`);
      if (c.id === 'cursor') {
        assert.equal(config.version, 1);
        assert.deepEqual(config.hooks.stop, c.foreign.hooks.stop, "stop ends a turn, not a session: not axme's");
      }
      assert.deepEqual(
        Object.keys(config.hooks)
          .filter((e) => c.ours(config.hooks[e]).length)
          .sort(),
        Object.keys(c.events).sort(),
        'exactly the events axme answers',
      );
      for (const [event, hook] of Object.entries(c.events)) {
        const ours = c.ours(config.hooks[event]);
        assert.equal(ours.length, 1, `${event}: one axme hook`);
        assert.ok(ours[0].command.includes(`"$a" hook ${hook} --client ${c.id}`), `${event} runs axme hook ${hook} --client ${c.id}`);
        assert.ok(ours[0].command.includes('command -v axme'), 'the portable command');
        c.check(event, ours[0]);
      }

      await axmeInOk(dir, [...INIT, '--agent', c.id]);
      assert.equal(read(dir, c.file), text, 'a second run changes no byte');

      // an earlier axme's hook (by path), in an event axme still answers and in one it no longer does: replaced, not duplicated
      const old = JSON.parse(text);
      const [firstEvent] = Object.keys(c.events);
      const oldCommand = `node /old/dist/axme.cjs hook pre-tool-use --client ${c.id}`;
      if (c.id === 'cursor') {
        old.hooks[firstEvent!] = old.hooks[firstEvent!].map((h: Json) => (isOurs(h.command) ? { command: oldCommand } : h));
        old.hooks.afterShellExecution = [{ command: oldCommand }];
      } else {
        old.hooks[firstEvent!] = old.hooks[firstEvent!].map((g: Json) =>
          g.hooks.some((h: Json) => isOurs(h.command)) ? { hooks: [{ type: 'command', command: oldCommand }] } : g,
        );
        old.hooks.Notification = [{ hooks: [{ type: 'command', command: oldCommand }] }];
      }
      writeFileSync(join(dir, c.file), `${JSON.stringify(old, null, 4)}\n`);
      await axmeInOk(dir, [...INIT, '--agent', c.id]);
      assert.equal(read(dir, c.file), text, 'the earlier hooks are replaced in place: the file is as a fresh init writes it');

      const un = await axmeInOk(dir, ['uninstall', '--agent', c.id, '--json']);
      assert.ok(
        un.clients.some(
          (x: { path: string; parts: string[]; action: string }) => x.path === join(dir, c.file) && x.parts.includes('hooks') && x.action === 'updated',
        ),
      );
      assert.equal(read(dir, c.file), before, 'uninstall removes exactly what init added');
      const still = await axmeInOk(dir, ['uninstall', '--agent', c.id, '--json']);
      assert.ok(
        still.clients.every((x: { action: string }) => x.action === 'unchanged'),
        'a second uninstall changes nothing',
      );
    });
  }

  test('a hooks file axme created goes on uninstall, its folder stays; vscode gets no hooks', async () => {
    const { dir: d, cleanup: done } = tempRepo({ commit: true });
    try {
      await axmeInOk(d, [...INIT, '--agent', 'cursor,codex,vscode']);
      assert.ok(existsSync(join(d, '.cursor', 'hooks.json')) && existsSync(join(d, '.codex', 'hooks.json')));
      assert.ok(!existsSync(join(d, '.vscode', 'hooks.json')));
      assert.deepEqual(Object.keys(JSON.parse(read(d, '.codex/hooks.json'))), ['hooks']);
      assert.deepEqual(Object.keys(JSON.parse(read(d, '.cursor/hooks.json'))), ['version', 'hooks']);
      const un = await axme(d, ['uninstall', '--agent', 'cursor,codex']);
      assert.equal(un.code, 0, un.stderr);
      assert.match(un.stdout, /cursor: Removed \.cursor\/hooks\.json\n/);
      assert.ok(!existsSync(join(d, '.cursor', 'hooks.json')) && !existsSync(join(d, '.codex', 'hooks.json')));
      assert.ok(existsSync(join(d, '.cursor')) && existsSync(join(d, '.codex')), 'the folders stay');
    } finally {
      done();
    }
  });

  for (const [i, [c, file, text, message]] of (
    [
      ['cursor', '.cursor/hooks.json', '{ "version": 1, "hooks": ', /\.cursor\/hooks\.json is not valid JSON/],
      ['cursor', '.cursor/hooks.json', '{ "version": 2, "hooks": {} }', /"version" is 2: axme writes Cursor's hooks format version 1/],
      ['codex', '.codex/hooks.json', '{ "hooks": [] }', /\.codex\/hooks\.json: "hooks" must be an object of events/],
      ['gemini', '.gemini/settings.json', '{ "hooks": { "BeforeTool": {} } }', /"hooks\.BeforeTool" must be a list/],
    ] as const
  ).entries()) {
    // the first case through the binary (the real process's exit code and stderr), the others in-process
    const cli = i === 0 ? axme : axmeIn;
    test(`${c}: ${file} holding ${text} is refused (exit 2), nothing written`, async () => {
      const { dir: d, cleanup: done } = tempRepo({ commit: true });
      try {
        mkdirSync(join(d, file, '..'), { recursive: true });
        writeFileSync(join(d, file), text);
        // uninstall reads the file too: broken, it is refused the same way (a version it does not write holds nothing of axme's)
        for (const args of [[...INIT, '--agent', `claude-code,${c}`], ...(text.includes('"version": 2') ? [] : [['uninstall', '--agent', c]])]) {
          const r = await cli(d, args);
          assert.equal(r.code, 2, r.stderr);
          assert.match(r.stderr, message);
          assert.match(r.stderr, /nothing was changed/);
          assert.equal(read(d, file), text);
        }
        assert.deepEqual(
          ['.mcp.json', 'CLAUDE.md', '.claude', `.${c}/mcp.json`, '.codex/config.toml', 'AGENTS.md', 'GEMINI.md', '.cursor/rules'].filter((f) =>
            existsSync(join(d, f)),
          ),
          [],
          'no other file written',
        );
        assert.equal((await axmeIn(d, ['log'])).code, 2, 'no store created');
      } finally {
        done();
      }
    });
  }
});
