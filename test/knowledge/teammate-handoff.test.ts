import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { sessionFinalize } from '../../src/operations/session/session.ts';
import { axmeInOk } from '../cli-in-process.ts';
import { initCore } from '../core.ts';
import { git } from '../helpers.ts';
import { hookInProcess } from '../hooks/hook-in-process.ts';
import { cliJson } from '../store-fixture.ts';

/**
 * Handoffs travel with the store, so after a sync the newest one may be a teammate's, written on
 * another clone. The session-start context starts from the newest handoff of a session this clone
 * ran ("Say this to the user first" is said to the person who left it), and names a teammate's
 * newer one in a line of its own — before, a teammate's session (even an empty one, recovered)
 * took the place of the user's own handoff, and its startup text was said to the wrong person.
 */

const root = mkdtempSync(join(tmpdir(), 'axme-teammate-handoff-'));
after(() => rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }));

const start = async (dir: string, harnessId: string): Promise<{ id: string; context: string }> => {
  const payload = JSON.stringify({
    session_id: harnessId,
    transcript_path: join(dir, '.t', `${harnessId}.jsonl`),
    cwd: dir,
    hook_event_name: 'SessionStart',
    source: 'startup',
  });
  const r = await hookInProcess('session-start', { cwd: dir, input: payload, harnessHere: true });
  const context = JSON.parse(r.stdout).hookSpecificOutput.additionalContext as string;
  return { id: /\(axme session ([\w-]+)\)/.exec(context)![1]!, context };
};

const close = (dir: string, session: string, stopped: string, startup: string) =>
  cliJson(
    dir,
    sessionFinalize,
    { stopped_at: stopped, summary: stopped, worklog_entry: stopped, startup_text: startup },
    { session, actor: 'agent', env: { CLAUDECODE: '1' } },
  );

describe("a teammate's handoff synced in does not take the place of this clone's own", () => {
  test("A's next session is told A's startup text and shown A's handoff; B's newer one is named beside it", async () => {
    const remote = join(root, 'remote.git');
    git(root, ['init', '-q', '--bare', remote]);
    const [a, b] = [join(root, 'a'), join(root, 'b')];
    for (const d of [a, b]) {
      git(root, ['clone', '-q', remote, d]);
      git(d, ['config', 'user.name', `Dev ${d.slice(-1)}`]);
      git(d, ['config', 'user.email', `${d.slice(-1)}@example.com`]);
    }
    await initCore(a, { claude: false, gitHooks: false, scan: false });
    await axmeInOk(a, ['sync']);
    await initCore(b, { claude: false, gitHooks: false, scan: false });

    const one = await start(a, 'a-first');
    await close(a, one.id, 'Cart totals in cents; tax rounding not done', 'Say: tax rounding in src/tax.ts is next.');
    await axmeInOk(a, ['sync']);
    const theirs = await start(b, 'b-first');
    await close(b, theirs.id, 'Invoice PDF layout half done', 'Say: the invoice PDF footer is next.');
    await axmeInOk(b, ['sync']);
    await axmeInOk(a, ['sync']);
    assert.equal(git(a, ['rev-parse', 'refs/memory/main']), git(b, ['rev-parse', 'refs/memory/main']), 'both handoffs on both clones');

    const next = await start(a, 'a-second');
    const said = /## Say this to the user first\n(.*)/.exec(next.context)?.[1];
    assert.equal(said, 'Say: tax rounding in src/tax.ts is next.', next.context);
    assert.match(next.context, new RegExp(`## Latest handoff\\nSession ${one.id} `), next.context);
    assert.match(next.context, new RegExp(`teammate's newer handoff.*\\n.*Session ${theirs.id}.*Invoice PDF layout half done`), next.context);

    // B's clone: B's own, with A's older one not named (it is not newer)
    const bNext = await start(b, 'b-second');
    assert.match(bNext.context, /## Say this to the user first\nSay: the invoice PDF footer is next\./, bNext.context);
    assert.doesNotMatch(bNext.context, /teammate's newer handoff/, bNext.context);
  });
});
