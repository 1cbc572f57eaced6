import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { mutate } from '../../src/knowledge/core/mutate.ts';
import { doctor } from '../../src/setup/doctor.ts';
import { axmeIn } from '../cli-in-process.ts';
import { initCore } from '../core.ts';
import { cleanEnv, git, openTestKb } from '../helpers.ts';

/**
 * A teammate's axme.yaml that sets machine-local settings (where data goes, what runs) is taken,
 * those keys ignored here. The person is told once, with what to do — by the sync that brought
 * them, by status and by doctor alike — and status does not count them as problems to fsck
 * (before: the sync said nothing, status said "5 problems: run axme fsck").
 */

const root = mkdtempSync(join(tmpdir(), 'axme-ignored-said-'));
after(() => rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }));

const KEYS = ['auditor.base_url', 'auditor.api_key_env', 'search.embeddings', 'sandbox.mode', 'sandbox.network'];
const YAML = `format: 1\nkind: repo\nauditor:\n  base_url: http://127.0.0.1:9/v1\n  api_key_env: OPENAI_API_KEY\n  model: some-model\nsearch:\n  embeddings:\n    url: http://127.0.0.1:9/embed\n    model: some-embedder\nsandbox:\n  mode: off\n  network: allow\n`;

const count = (text: string, re: RegExp) => (text.match(new RegExp(re.source, 'g')) ?? []).length;

describe("a teammate's axme.yaml with machine-local keys: said once, the same everywhere", () => {
  test('sync names the ignored keys and what to do; status and doctor say the same once; no "problems" counted', async () => {
    const remote = join(root, 'remote.git');
    git(root, ['init', '-q', '--bare', remote]);
    const [a, b] = [join(root, 'a'), join(root, 'b')];
    for (const d of [a, b]) git(root, ['clone', '-q', remote, d]);
    await initCore(a, { claude: false, gitHooks: false, scan: false });
    assert.equal((await axmeIn(a, ['sync'])).code, 0);
    await initCore(b, { claude: false, gitHooks: false, scan: false });
    const kb = await openTestKb(a);
    try {
      await mutate(kb, () => ({ result: null, files: new Map([['axme.yaml', YAML]]), subject: 'config: team settings', event: 'config.edited' }));
    } finally {
      await kb.repo.close();
    }
    assert.equal((await axmeIn(a, ['sync'])).code, 0);

    const synced = await axmeIn(b, ['sync']);
    assert.equal(synced.code, 0, synced.stderr);
    const said = synced.stdout + synced.stderr;
    for (const k of KEYS) assert.ok(said.includes(k), `sync names ${k}: ${said}`);
    assert.equal(count(said, /ignored here/), 1, said);
    assert.match(said, /remove them from axme\.yaml/);
    const json = await axmeIn(b, ['sync', '--json']);
    assert.equal(json.code, 0, json.stderr);

    const st = await axmeIn(b, ['status']);
    assert.equal(st.code, 0, st.stderr);
    assert.doesNotMatch(st.stdout, /\d+ problems?/, st.stdout);
    assert.equal(count(st.stdout, /ignored here/), 1, st.stdout);
    for (const k of KEYS) assert.ok(st.stdout.includes(k), st.stdout);
    const stJson = JSON.parse((await axmeIn(b, ['status', '--json'])).stdout) as { problems: number; ignoredSettings: string[] };
    assert.equal(stJson.problems, 0);
    assert.deepEqual([...stJson.ignoredSettings].sort(), [...KEYS].sort());

    const check = (await doctor({ cwd: b, env: cleanEnv({ HOME: join(root, 'home') }) })).checks.find((c) => c.name === 'settings')!;
    assert.equal(count(check.detail, /ignored here/), 1, check.detail);
    for (const k of KEYS) assert.ok(check.detail.includes(k), check.detail);
  });
});
