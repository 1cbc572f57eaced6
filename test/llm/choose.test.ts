// Choosing the provider (auto order with each environment), the auditor block of axme.yaml and its
// overrides, the price table, PATH lookup.

import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { chooseProvider } from '../../src/llm/choose-provider.ts';
import { costOf, priceOf } from '../../src/llm/prices.ts';
import { providerConfig } from '../../src/llm/provider-config.ts';
import type { ProviderName } from '../../src/llm/types.ts';
import { StoreConfig } from '../../src/model/config.ts';
import { isAxmeError } from '../../src/model/errors.ts';
import { findOnPath } from '../../src/model/on-path.ts';

describe('chooseProvider', () => {
  const cases: Array<{ claude: boolean; env: NodeJS.ProcessEnv; name: ProviderName; why: RegExp }> = [
    { claude: true, env: {}, name: 'claude-cli', why: /`claude` is on PATH/ },
    { claude: true, env: { ANTHROPIC_API_KEY: 'a', OPENAI_API_KEY: 'o', OPENAI_BASE_URL: 'http://x' }, name: 'claude-cli', why: /on PATH/ },
    { claude: false, env: { ANTHROPIC_API_KEY: 'a' }, name: 'anthropic', why: /ANTHROPIC_API_KEY is set/ },
    { claude: false, env: { ANTHROPIC_API_KEY: 'a', OPENAI_API_KEY: 'o' }, name: 'anthropic', why: /ANTHROPIC_API_KEY is set/ },
    { claude: false, env: { OPENAI_API_KEY: 'o' }, name: 'openai', why: /OPENAI_API_KEY is/ },
    { claude: false, env: { OPENAI_API_KEY: 'o', OPENAI_BASE_URL: 'http://localhost:11434/v1' }, name: 'openai', why: /OPENAI_API_KEY is/ },
    {
      claude: false,
      env: { OPENAI_BASE_URL: 'http://localhost:11434/v1' },
      name: 'openai',
      why: /OPENAI_BASE_URL names a server \(http:\/\/localhost:11434\/v1\)/,
    },
    { claude: false, env: {}, name: 'none', why: /no model available: .*none of ANTHROPIC_API_KEY, OPENAI_API_KEY, OPENAI_BASE_URL is set/ },
    // an empty variable is not set
    { claude: false, env: { ANTHROPIC_API_KEY: '', OPENAI_API_KEY: ' ' }, name: 'none', why: /no model available/ },
  ];
  for (const c of cases) {
    test(`auto, claude ${c.claude ? 'on' : 'not on'} PATH, ${Object.keys(c.env).join(' + ') || 'no variables'}: ${c.name}`, () => {
      const chosen = chooseProvider({ provider: 'auto' }, c.env, (cmd) => c.claude && cmd === 'claude');
      assert.equal(chosen.name, c.name);
      assert.match(chosen.why, c.why);
    });
  }

  test('with no model, the advice names where the provider is really set: a machine-local file, never axme.yaml (ignored there)', () => {
    const { why } = chooseProvider({ provider: 'auto' }, {}, () => false);
    assert.match(why, /auditor\.provider in \.git\/axme\/config\.yaml or ~\/\.config\/axme\/config\.yaml/);
    assert.doesNotMatch(why, /axme\.yaml\)/);
    assert.doesNotMatch(why, /in axme\.yaml/);
  });

  test('auto with claude_path asks for that executable', () => {
    const asked: string[] = [];
    const chosen = chooseProvider({ provider: 'auto', claudePath: '/opt/claude' }, {}, (cmd) => (asked.push(cmd), true));
    assert.deepEqual(asked, ['/opt/claude']);
    assert.equal(chosen.name, 'claude-cli');
  });

  test('a named provider is used as is', () => {
    for (const name of ['anthropic', 'openai', 'claude-cli', 'none'] as const) {
      const chosen = chooseProvider({ provider: name }, { ANTHROPIC_API_KEY: 'a' }, () => true);
      assert.equal(chosen.name, name);
      assert.match(chosen.why, new RegExp(`set to ${name}`));
    }
  });
});

describe('the auditor block of axme.yaml', () => {
  test('parses in StoreConfig, unknown keys kept', () => {
    const cfg = StoreConfig.parse({
      format: 1,
      auditor: {
        provider: 'openai',
        model: 'llama3.2',
        base_url: 'http://localhost:11434/v1',
        api_key_env: 'MY_KEY',
        max_retries: 1,
        timeout_ms: 60000,
        enabled: true,
        later: 1,
      },
    });
    assert.deepEqual(cfg.auditor, {
      provider: 'openai',
      model: 'llama3.2',
      base_url: 'http://localhost:11434/v1',
      api_key_env: 'MY_KEY',
      max_retries: 1,
      timeout_ms: 60000,
      enabled: true,
      later: 1,
    });
    assert.equal(StoreConfig.parse({ format: 1 }).auditor, undefined);
  });

  test('rejects a wrong provider, a key in place of a variable name, a URL that is not one', () => {
    assert.equal(StoreConfig.safeParse({ format: 1, auditor: { provider: 'gemini' } }).success, false);
    assert.equal(StoreConfig.safeParse({ format: 1, auditor: { api_key_env: 'sk-ant-123' } }).success, false);
    assert.equal(StoreConfig.safeParse({ format: 1, auditor: { base_url: 'localhost' } }).success, false);
    assert.equal(StoreConfig.safeParse({ format: 1, auditor: { max_retries: -1 } }).success, false);
  });

  test('providerConfig: the block, then the environment, then flags', () => {
    const block = {
      provider: 'anthropic' as const,
      model: 'claude-haiku-4-5',
      base_url: 'http://proxy',
      api_key_env: 'K',
      claude_path: '/c',
      max_retries: 1,
      timeout_ms: 1000,
    };
    assert.deepEqual(providerConfig(block, {}), {
      provider: 'anthropic',
      model: 'claude-haiku-4-5',
      baseUrl: 'http://proxy',
      apiKeyEnv: 'K',
      claudePath: '/c',
      maxRetries: 1,
      timeoutMs: 1000,
    });
    assert.deepEqual(providerConfig(undefined, {}), { provider: 'auto' });
    const env = { AXME_AUDITOR_PROVIDER: 'openai', AXME_AUDITOR_MODEL: 'gpt-4.1-mini' };
    assert.deepEqual(providerConfig(block, env), { ...providerConfig(block, {}), provider: 'openai', model: 'gpt-4.1-mini' });
    assert.deepEqual(providerConfig(block, env, { provider: 'none', model: 'x' }), { ...providerConfig(block, {}), provider: 'none', model: 'x' });
  });

  test('enabled: false is none unless overridden', () => {
    assert.equal(providerConfig({ provider: 'anthropic', enabled: false }, {}).provider, 'none');
    assert.equal(providerConfig({ enabled: false }, { AXME_AUDITOR_PROVIDER: 'claude-cli' }).provider, 'claude-cli');
  });

  test('a wrong AXME_AUDITOR_PROVIDER: CONFIG naming the choices', () => {
    assert.throws(
      () => providerConfig(undefined, { AXME_AUDITOR_PROVIDER: 'gpt' }),
      (err) => isAxmeError(err, 'CONFIG') && /use one of auto, anthropic, openai, claude-cli, none/.test(err.message),
    );
  });
});

describe('prices', () => {
  test('known models, dated or not; unknown ones are null', () => {
    assert.deepEqual(priceOf('anthropic', 'claude-sonnet-4-5-20250929'), { input: 3, output: 15 });
    assert.deepEqual(priceOf('claude-cli', 'claude-haiku-4-5'), { input: 1, output: 5 });
    assert.deepEqual(priceOf('openai', 'gpt-4o-mini-2024-07-18'), { input: 0.15, output: 0.6 });
    assert.deepEqual(priceOf('openai', 'gpt-4o'), { input: 2.5, output: 10 });
    assert.equal(priceOf('anthropic', 'claude-opus-4-9'), null);
    assert.equal(priceOf('openai', 'llama3.2'), null);
    assert.equal(priceOf('openai', 'claude-sonnet-4-5'), null);
    assert.equal(priceOf('none', 'gpt-4o'), null);
  });

  test('costOf: USD for the tokens', () => {
    assert.equal(costOf('anthropic', 'claude-sonnet-4-6', 1_000_000, 1_000_000), 18);
    assert.equal(costOf('openai', 'gpt-4o-mini', 2_000, 1_000), (2_000 * 0.15 + 1_000 * 0.6) / 1_000_000);
    assert.equal(costOf('openai', 'qwen2.5', 10, 10), null);
  });
});

describe('findOnPath', () => {
  test('an executable file in PATH; not a plain file, not a folder', () => {
    const dir = mkdtempSync(join(tmpdir(), 'axme-path-'));
    try {
      writeFileSync(join(dir, 'claude'), '#!/bin/sh\n');
      chmodSync(join(dir, 'claude'), 0o755);
      writeFileSync(join(dir, 'plain'), '');
      assert.equal(findOnPath('claude', { PATH: `/nonexistent:${dir}` }), join(dir, 'claude'));
      assert.equal(findOnPath('plain', { PATH: dir }), null);
      assert.equal(findOnPath('claude', { PATH: '' }), null);
      assert.equal(findOnPath(join(dir, 'claude'), { PATH: '' }), join(dir, 'claude'));
      assert.equal(findOnPath(dir, { PATH: '' }), null);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
