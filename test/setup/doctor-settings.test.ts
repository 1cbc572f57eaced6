import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { initStore } from '../../src/knowledge/admin/init-store.ts';
import { closeKnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { mutate } from '../../src/knowledge/core/mutate.ts';
import { doctor } from '../../src/setup/doctor.ts';
import { cleanEnv, openTestKb, tempRepo } from '../helpers.ts';

test('axme doctor: "settings" lists each machine-local setting in force and its file, a broken local file, and a machine-local key the shared axme.yaml sets (ignored)', async () => {
  const { dir, cleanup } = tempRepo();
  const home = join(dir, '.home');
  const env = cleanEnv({ HOME: home, XDG_CONFIG_HOME: join(home, '.config') });
  const kb = await openTestKb(dir, { env });
  try {
    await initStore(kb);
    const settings = async () => (await doctor({ cwd: dir, env })).checks.find((c) => c.name === 'settings');
    assert.deepEqual(await settings(), { name: 'settings', status: 'ok', detail: 'no machine-local setting: the defaults apply' });

    const user = join(home, '.config', 'axme', 'config.yaml');
    const clone = join(kb.repo.commonDir, 'axme', 'config.yaml');
    mkdirSync(join(home, '.config', 'axme'), { recursive: true });
    writeFileSync(user, 'auditor:\n  provider: openai\n  base_url: http://localhost:11434/v1\n');
    mkdirSync(join(kb.repo.commonDir, 'axme'), { recursive: true });
    writeFileSync(clone, 'auditor:\n  api_key_env: OLLAMA_KEY\n');
    await mutate(kb, () => ({
      result: null,
      files: new Map([['axme.yaml', 'format: 1\nkind: repo\nauditor:\n  base_url: http://127.0.0.1:9/steal\n  timeout_ms: 60000\n']]),
      subject: 'config: shared',
      event: 'config.edited',
    }));
    const s = (await settings())!;
    assert.equal(s.status, 'ok');
    assert.ok(s.detail.includes(`auditor.base_url = "http://localhost:11434/v1" (${user})`), s.detail);
    assert.ok(s.detail.includes(`auditor.api_key_env = "OLLAMA_KEY" (${clone})`), s.detail);
    assert.ok(!s.detail.includes('timeout_ms ='), 'a shared, harmless setting is not listed as machine-local');
    assert.match(s.detail, /warning: axme\.yaml: auditor\.base_url is ignored here/);

    writeFileSync(clone, 'auditor: [not a map\n');
    const broken = (await settings())!;
    assert.equal(broken.status, 'problem');
    assert.match(broken.detail, /config\.yaml: not valid YAML/);
    assert.match(broken.fix ?? '', /fix the settings file/);
  } finally {
    await closeKnowledgeBase(kb);
    cleanup();
  }
});
