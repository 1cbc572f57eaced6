import { z } from 'zod';
import type { AuditResult } from '../../knowledge/audit/run-audit.ts';
import { AUDIT_MODES, type AuditLogEntry } from '../../model/audit.ts';
import { AuditorConfig } from '../../model/config.ts';
import { TRANSCRIPT_CLIENTS } from '../../transcript/types.ts';
import { defineOperation, PUBLISH, READ } from '../operation.ts';

/** audit: `axme audit <transcript>` (CLI only: a person, or the session-end worker, runs it). */
export const audit = defineOperation({
  id: 'audit',
  summary: 'Audit a session transcript with a model: what the agent forgot to save (one commit by `auditor`)',
  description:
    'Reads a session transcript of Claude Code, Gemini CLI or Codex (in the format of the client the session ran in, else the one its first line shows; from where the last audit of it stopped), redacts credentials, asks the configured model what the session decided and learned (full extraction, or verify-only when the agent closed the session itself), drops what the store already holds, and writes the rest as ONE commit by the actor `auditor` (a proposal with review.required). Decisions that would supersede a stored one become questions. `dry_run` shows the extraction without writing; with no model configured it shows the requests that would be sent, and sends none (docs/auditor.md).',
  input: {
    transcript: z.string().min(1).max(4096).describe('the session transcript (.jsonl)'),
    session: z
      .string()
      .max(64)
      .optional()
      .describe("the axme session it belongs to (default: the one the transcript's harness session maps to, else its file name)"),
    mode: z
      .enum(AUDIT_MODES)
      .optional()
      .describe('full (the agent did not close the session) or verify (it did: only what it missed); default: from the session'),
    dry_run: z.boolean().default(false).describe('show the extraction; write nothing, move no offset'),
    from_start: z.boolean().default(false).describe('read the transcript from its start, not from where the last audit stopped'),
    provider: AuditorConfig.shape.provider.describe('the model provider (default: axme.yaml auditor.provider, else auto)'),
    model: z.string().min(1).max(200).optional().describe("the model (default: auditor.model, else the provider's default)"),
    client: z
      .enum(TRANSCRIPT_CLIENTS)
      .optional()
      .describe(
        "the client that wrote the transcript, whose format it is read in: Claude Code, Gemini CLI or Codex (default: the session's harness, else what the transcript's first line says)",
      ),
  },
  output: z.looseObject({
    session: z.string().describe('the session audited'),
    mode: z.enum(AUDIT_MODES).describe('full or verify'),
    client: z.enum(TRANSCRIPT_CLIENTS).describe('whose transcript it was read as: claude-code, gemini or codex'),
    provider: z.string().describe('anthropic, openai or claude-cli'),
    model: z.string().describe('the model asked'),
    dry_run: z.boolean().describe('true: nothing was written'),
    commit: z.string().nullable().describe('the one commit written (null: dry run, or nothing new)'),
    from_offset: z.number().describe('the transcript byte the audit started at'),
    to_offset: z.number().describe('the byte it read up to: the next audit starts there'),
    written: z.looseObject({}).describe('decisions, memories, questions, safety_rules written; handoff and summary paths'),
    dropped: z
      .array(z.looseObject({ kind: z.string(), title: z.string(), reason: z.string() }))
      .describe('extractions not written, and why (already stored, would supersede, not storable)'),
    redacted: z.number().describe('credentials redacted from the transcript before it was sent'),
    others: z
      .array(z.looseObject({ store: z.string(), commit: z.string().nullable() }))
      .describe('in a workspace: the other repositories whose stores got the decisions and memories scoped to them (one commit each)'),
  }),
  annotations: PUBLISH,
  write: false,
  mcp: null,
  async run(kb, input, opts): Promise<AuditResult> {
    const { auditTranscript } = await import('../../knowledge/audit/audit-transcript.ts');
    const overrides = { ...(input.provider ? { provider: input.provider } : {}), ...(input.model ? { model: input.model } : {}) };
    return auditTranscript(kb, {
      transcript: input.transcript,
      session: input.session,
      mode: input.mode,
      dryRun: input.dry_run,
      fromStart: input.from_start,
      client: input.client,
      env: opts?.env ?? kb.repo.env,
      overrides,
    });
  },
  json: (r) => ({
    session: r.session,
    mode: r.mode,
    client: r.client,
    transcript: r.transcript,
    provider: r.provider,
    model: r.model,
    dry_run: r.dry_run,
    commit: r.applied.commit,
    ref: r.applied.ref,
    from_offset: r.from_offset,
    to_offset: r.to_offset,
    chunks: r.chunks,
    written: r.applied.written,
    dropped: r.applied.dropped,
    extracted: r.applied.extracted,
    others: r.others.map((o) => ({ store: o.store, commit: o.applied.commit, written: o.applied.written, dropped: o.applied.dropped })),
    oracle_rescan: r.answer.oracle_rescan,
    tokens_in: r.tokens_in,
    tokens_out: r.tokens_out,
    cost_usd: r.cost_usd,
    redacted: r.redacted,
    skipped_lines: r.skipped_lines,
    duration_ms: r.duration_ms,
    ...(r.dry_run ? { extraction: r.answer } : {}),
    ...(r.unsent ? { unsent: r.unsent } : {}),
  }),
  text: describeAudit,
  cli: { command: ['audit'], positional: ['transcript'] },
});

/** audit.log: `axme audit log` (the runs this machine logged). */
export const auditLog = defineOperation({
  id: 'audit.log',
  summary: 'The audits this machine ran',
  description:
    "Each audit run logged on this machine, oldest first: when, which session and transcript bytes, provider and model, tokens and cost, counts extracted / dropped / written / redacted, the commit, and for a failure why (with the raw answer when the model's could not be used).",
  input: {
    session: z.string().max(64).optional().describe("only this session's runs"),
    limit: z.number().int().min(1).max(500).optional().describe('only the newest N'),
  },
  output: z.looseObject({ runs: z.array(z.looseObject({})).describe('the runs, oldest first') }),
  annotations: READ,
  write: false,
  mcp: null,
  async run(kb, input): Promise<AuditLogEntry[]> {
    return (await import('../../knowledge/audit/audit-transcript.ts')).auditLog(kb, input);
  },
  json: (runs) => ({ runs }),
  text: (runs) =>
    runs.length
      ? runs
          .map(
            (e) =>
              `${e.at.slice(0, 19).replace('T', ' ')}  ${e.session}  ${e.mode}  ${e.provider}/${e.model}  ${e.ok ? `ok${e.dry_run ? ' (dry run)' : ''}: ${e.extracted} found, ${e.deduplicated} dropped, ${e.written} written, ${e.redacted} redacted${e.commit ? `, commit ${e.commit.slice(0, 12)}` : ''}` : `FAILED: ${e.error}`}  bytes ${e.from_offset}-${e.to_offset}, ${e.tokens_in}+${e.tokens_out} tokens${e.cost_usd !== null ? `, $${e.cost_usd.toFixed(4)}` : ''}, ${(e.duration_ms / 1000).toFixed(1)} s`,
          )
          .join('\n')
      : 'No audits on this machine yet.',
  cli: { command: ['audit', 'log'] },
});

function describeAudit(r: AuditResult): string {
  const w = r.applied.written;
  if (r.unsent) {
    const chars = r.unsent.reduce((n, q) => n + q.system.length + q.user.length, 0);
    const first = r.unsent[0]?.user ?? '';
    return [
      `Dry run without a model: the ${r.mode} audit of session ${r.session} would send ${r.unsent.length} request${r.unsent.length === 1 ? '' : 's'} (${chars} characters, ${r.redacted} credential${r.redacted === 1 ? '' : 's'} redacted; bytes ${r.from_offset}-${r.to_offset}). Nothing was sent or written.`,
      'To audit for real, give it a model: install Claude Code (`claude` on PATH), set ANTHROPIC_API_KEY, or OPENAI_BASE_URL with auditor.model (docs/auditor.md). --json shows every request whole.',
      ...(first
        ? ['', `The first request's text (${first.length} characters${first.length > 2000 ? ', the first 2,000 shown' : ''}):`, first.slice(0, 2000)]
        : []),
    ].join('\n');
  }
  const head = r.dry_run
    ? `Dry run: the ${r.mode} audit of session ${r.session} (${r.provider}/${r.model}) found ${r.applied.extracted} item${r.applied.extracted === 1 ? '' : 's'}; nothing was written`
    : r.applied.commit
      ? `Audited session ${r.session} (${r.mode}, ${r.provider}/${r.model}): commit ${r.applied.commit.slice(0, 12)} by auditor${r.applied.ref.endsWith('/main') ? '' : ` on ${r.applied.ref}`}`
      : `Audited session ${r.session} (${r.mode}, ${r.provider}/${r.model}): nothing new to write`;
  const lines = [head];
  const list = (label: string, xs: string[]) => xs.length && lines.push(`- ${label}: ${xs.join('; ')}`);
  list(r.dry_run ? 'decisions (would be saved)' : 'decisions', w.decisions);
  list(r.dry_run ? 'memories (would be saved)' : 'memories', w.memories);
  list(r.dry_run ? 'safety rules (would change)' : 'safety rules', w.safety_rules);
  list(r.dry_run ? 'questions (would be asked)' : 'questions', w.questions);
  if (w.handoff) lines.push(`- handoff: ${w.handoff}`);
  for (const o of r.others)
    lines.push(
      `- in ${o.store}${o.applied.commit ? ` (commit ${o.applied.commit.slice(0, 12)})` : ''}: ${[...o.applied.written.decisions, ...o.applied.written.memories].join('; ') || 'nothing new'}`,
    );
  if (r.applied.dropped.length)
    lines.push(`Not written (${r.applied.dropped.length}):`, ...r.applied.dropped.map((d) => `- ${d.kind} "${d.title}": ${d.reason}`));
  if (r.answer.oracle_rescan) lines.push('The session changed the stack or the structure: run `axme oracle scan`.');
  lines.push(
    `Read bytes ${r.from_offset}-${r.to_offset} in ${r.chunks} request${r.chunks === 1 ? '' : 's'}; ${r.tokens_in}+${r.tokens_out} tokens${r.cost_usd !== null ? `, about $${r.cost_usd.toFixed(4)}` : ''}; ${r.redacted} credential${r.redacted === 1 ? '' : 's'} redacted before sending.`,
  );
  return lines.join('\n');
}
