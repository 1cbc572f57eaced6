import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { axmeOk, CLI, cleanEnv, git, tempRepo } from '../helpers.ts';

// A repository whose git folder this user may not write (another user's checkout, a shared
// read-only mount, `chmod -R a-w .git`): the agent still gets the project's context at session
// start and its prompt's recall (the session is not recorded, and the hook says so on stderr),
// and a write says which path it could not write and why, instead of "internal error". Root
// writes anywhere, so as root the commands run as the unprivileged user nobody (setpriv).

const root = process.getuid?.() === 0;
const asOther = root ? spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'true']).status === 0 : true;

describe('a git folder this user may not write', { skip: !asOther && 'cannot run as another user here' }, () => {
  let dir: string;
  let cleanup: () => void;
  const run = (args: string[], input?: string, env: NodeJS.ProcessEnv = {}) => {
    const argv = [process.execPath, CLI, ...args];
    const [cmd, ...rest] = root ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', ...argv] : argv;
    return spawnSync(cmd!, rest, {
      cwd: dir,
      input,
      encoding: 'utf8',
      env: cleanEnv({ HOME: join(dir, '.home'), GIT_CONFIG_GLOBAL: join(dir, '.home', '.gitconfig'), ...env }),
    });
  };
  before(async () => {
    ({ dir, cleanup } = tempRepo({ commit: true }));
    await axmeOk(dir, ['init', '--no-claude', '--no-git-hooks', '--no-scan']);
    await axmeOk(dir, ['decision', 'add', '--title', 'Never deploy on Fridays', '--decision', 'No production deploys on Friday.', '--enforce', 'required']);
    mkdirSync(join(dir, '.home'));
    // git opens another user's repository only when told it is safe (its global config: this home's)
    writeFileSync(join(dir, '.home', '.gitconfig'), '[safe]\n\tdirectory = *\n');
    // readable by all, writable by none (the home folder excepted: the other user's own)
    spawnSync('chmod', ['-R', 'a+rX,a-w', dir]);
    chmodSync(join(dir, '.home'), 0o777);
  });
  after(() => {
    spawnSync('chmod', ['-R', 'u+w', dir]);
    cleanup();
  });

  test('the session start still gives the context; the hook says it could not record the session', () => {
    const payload = JSON.stringify({ session_id: 'unwritable-1', cwd: dir, hook_event_name: 'SessionStart', source: 'startup' });
    const r = run(['hook', 'session-start'], payload, { CLAUDECODE: '1' });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /Never deploy on Fridays/, r.stdout);
    assert.match(r.stderr, /could not record the session/, r.stderr);
    assert.doesNotMatch(r.stderr, /internal error/, r.stderr);
  });

  test("the prompt's recall still runs", () => {
    const payload = JSON.stringify({
      session_id: 'unwritable-1',
      cwd: dir,
      hook_event_name: 'UserPromptSubmit',
      prompt: 'may we deploy to production on Friday?',
    });
    const r = run(['hook', 'user-prompt-submit'], payload, { CLAUDECODE: '1' });
    assert.equal(r.status, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /internal error/, r.stderr);
  });

  test('a write names the path it could not write and why, exit 1, FILE_SYSTEM in --json', () => {
    const r = run(['backlog', 'add', '--title', 'Add request logging']);
    assert.equal(r.status, 1, r.stderr);
    assert.doesNotMatch(r.stderr, /internal error/, r.stderr);
    assert.match(r.stderr, /permission denied/i, r.stderr);
    assert.ok(r.stderr.includes(join(dir, '.git')), r.stderr);
    const json = run(['backlog', 'add', '--title', 'Add request logging', '--json']);
    assert.equal(JSON.parse(json.stderr).error.code, 'FILE_SYSTEM', json.stderr);
  });
});
