import { AuditAnswer } from '../../model/audit.ts';
import { describeIssues } from '../../model/kind.ts';

export type ParsedAnswer = { ok: true; answer: AuditAnswer } | { ok: false; problem: string };

/**
 * The model's answer as an AuditAnswer. Tolerates what models do around JSON: a code fence,
 * a sentence before or after, a byte-order mark. Never throws: a problem says what is wrong, in
 * words the repair request can send back to the model.
 */
export function parseAnswer(text: string): ParsedAnswer {
  const json = jsonPart(text);
  if (json === null) return { ok: false, problem: 'the answer holds no JSON object' };
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (err) {
    return { ok: false, problem: `the JSON does not parse: ${(err as Error).message.split('\n')[0]}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, problem: 'the answer is not a JSON object' };
  const r = AuditAnswer.safeParse(dropNulls(value));
  return r.success ? { ok: true, answer: r.data } : { ok: false, problem: `the object does not match the shape: ${describeIssues(r.error, 'data')}` };
}

/** The JSON object in a text: inside a ```json fence when there is one, else from the first `{` to the last `}`. */
function jsonPart(text: string): string | null {
  const t = text.replace(/^\ufeff/, '').trim();
  const fence = /```(?:json|JSON)?[ \t]*\n([\s\S]*?)\n?```/.exec(t);
  const body = fence ? fence[1]!.trim() : t;
  const start = body.indexOf('{');
  const end = body.lastIndexOf('}');
  return start === -1 || end <= start ? null : body.slice(start, end + 1);
}

/** Models write `null` for "none": treat it as left out, which the schema's defaults fill. */
function dropNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.filter((x) => x !== null).map(dropNulls);
  if (typeof v !== 'object' || v === null) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v))
    if (x !== null) Object.defineProperty(out, k, { value: dropNulls(x), enumerable: true, writable: true, configurable: true });
  return out;
}

/** The user message of the one repair round-trip: what was wrong, and the answer to fix. */
export function repairRequest(problem: string, previous: string): string {
  return `Your previous answer could not be used: ${problem}.\nAnswer again with the same content as ONE valid JSON object of the shape described, and nothing else.\n\nYour previous answer:\n${previous.length > 20_000 ? `${previous.slice(0, 20_000)}\n[... cut ...]` : previous}`;
}
