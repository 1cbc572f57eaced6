// `axme audit --client`: the operation takes the client whose format the transcript is in (Claude
// Code, Gemini CLI or Codex), passes it to the audit and says in its JSON which one it read.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { z } from 'zod';
import type { KnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { audit } from '../../src/operations/audit/audit.ts';
import { inputSchema } from '../../src/operations/operation.ts';
import { sessionForHarness } from '../../src/session/sessions.ts';
import { withCore } from '../core.ts';
import { cleanEnv } from '../helpers.ts';
import { inRepo } from '../knowledge/audit-support.ts';
import { answer, type StandIn, startStandIn } from '../llm/stand-in.ts';
import { geminiSession } from './client-lines.ts';

describe('audit.run: the client input', () => {
  let stand: StandIn;
  let work: string;
  before(async () => {
    stand = await startStandIn();
    work = mkdtempSync(join(tmpdir(), 'axme-audit-client-'));
  });
  after(async () => {
    await stand.close();
    rmSync(work, { recursive: true, force: true });
  });
  const env = () => cleanEnv({ ANTHROPIC_API_KEY: stand.key, ANTHROPIC_BASE_URL: stand.url, AXME_AUDITOR_PROVIDER: 'anthropic' });

  test('declared: one of the three clients, described; the JSON names the client read', () => {
    const schema = inputSchema(audit);
    for (const client of ['claude-code', 'gemini', 'codex']) assert.ok(schema.safeParse({ transcript: 't.jsonl', client }).success, client);
    assert.ok(!schema.safeParse({ transcript: 't.jsonl', client: 'cursor' }).success, 'a client whose transcripts axme does not read');
    assert.match(audit.input.client!.description ?? '', /Claude Code|Gemini CLI|Codex/);
    assert.ok('client' in (z.toJSONSchema(audit.output, { io: 'output', unrepresentable: 'any' }) as { properties: object }).properties);
    assert.match(audit.description, /Claude Code, Gemini CLI or Codex/);
  });

  test('the client given is the format read, over the session\u2019s harness; the JSON says which', () =>
    inRepo(async (dir) => {
      const transcript = join(work, 'gemini.jsonl');
      writeFileSync(transcript, `${geminiSession('gem-op').join('\n')}\n`);
      // the record says Claude Code: read as that, the file is not understood
      const meta = sessionForHarness(join(dir, '.git'), 'claude-code', 'cc-op', {
        cwd: dir,
        transcriptPath: transcript,
        now: new Date(),
        owner: () => ({ pid: 0, start: null }),
      });
      stand.script(answer('{}'));
      const json = await withCore(dir, async (kb: KnowledgeBase) =>
        audit.json(await audit.run(kb, { transcript, session: meta.id, dry_run: true, client: 'gemini' }, { env: env() })),
      );
      assert.equal(json.client, 'gemini');
      assert.equal(json.chunks, 1);
    }));
});
