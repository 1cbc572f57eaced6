import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isAxmeError } from '../../src/model/errors.ts';
import { assertNoSecrets, findSecret, redactSecrets } from '../../src/model/secrets.ts';
import { thrown } from './failures.ts';

// What looks like a credential (model/secrets.ts): found, redacted, refused.

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
