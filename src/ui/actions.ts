import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isChangedSince } from '../knowledge/core/item-version.ts';
import { AxmeError } from '../model/errors.ts';
import { afterOperation } from '../operations/after-operation.ts';
import { decisionAmend } from '../operations/decision/amend.ts';
import { decisionRevoke } from '../operations/decision/revoke.ts';
import { memoryRemove } from '../operations/memory/remove.ts';
import { memoryUpdate } from '../operations/memory/update.ts';
import type { AnyOperation } from '../operations/operation.ts';
import type { UiContext } from './context.ts';

/**
 * What a person can do on the page: each action is a declared operation (src/operations/) run
 * with the page's knowledge base, so the core's rules hold here as everywhere (a required
 * decision revoked by a person only, review.required, credentials); the page only turns a form
 * into the operation's input. Path: `POST /act/<kind>/<id or slug>/<verb>`. Every form carries
 * the item's version it was rendered from (`base`), which the core compares with the item's
 * current one: a form opened before another change is refused, never written over it (an archive
 * or a revoke of what the person did not see included); `typed` are the fields a person wrote,
 * given back on the refusal to redo.
 */
const MEMORY_FIELDS = ['title', 'description', 'body', 'keywords'] as const;
const DECISION_FIELDS = ['title', 'decision', 'reasoning', 'tags'] as const;

const ACTIONS: Record<string, { op: AnyOperation; typed: readonly string[]; input(ref: string, form: URLSearchParams): Record<string, unknown> }> = {
  'memory/update': { op: memoryUpdate, typed: MEMORY_FIELDS, input: (slug, f) => ({ slug, ...fields(f, MEMORY_FIELDS) }) },
  'memory/archive': { op: memoryRemove, typed: [], input: (slug) => ({ slug }) },
  'decision/amend': { op: decisionAmend, typed: DECISION_FIELDS, input: (id, f) => ({ id, ...fields(f, DECISION_FIELDS) }) },
  'decision/revoke': { op: decisionRevoke, typed: ['reason'], input: (id, f) => ({ id, reason: f.get('reason') ?? '' }) },
};

/** The largest form the page accepts (a decision's text fits many times over). */
const MAX_FORM_BYTES = 256 * 1024;

/** A fresh anti-forgery token for one run of the page: forms carry it, a POST without it is refused. */
export function newCsrfToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The path a form of `verb` on an item posts to. */
export function actionPath(kind: string, ref: string, verb: string): string {
  return `/act/${encodeURIComponent(kind)}/${encodeURIComponent(ref)}/${encodeURIComponent(verb)}`;
}

/**
 * Runs the action a POST asks for, after its checks: the page is writable (no --at, loopback),
 * the request comes from the page itself (Origin one of `origins`; the Host was checked before),
 * it is a form, and its token is this run's. Returns where to go next: the item's history after
 * an edit (both versions side by side), the item after a retirement.
 */
export async function runAction(ctx: UiContext, req: IncomingMessage, path: string, origins: Set<string>): Promise<string> {
  if (!ctx.actions)
    throw new AxmeError(
      'NOT_ALLOWED',
      ctx.at
        ? 'the page shows the past (--at): it changes nothing; start axme ui without --at to edit'
        : 'this page is served beyond loopback: it changes nothing; start axme ui on 127.0.0.1 to edit',
    );
  const origin = String(req.headers.origin ?? '').toLowerCase();
  if (!fromThePage(origin, String(req.headers['sec-fetch-site'] ?? ''), origins))
    throw new AxmeError(
      'NOT_ALLOWED',
      `a change must come from this page (Origin ${[...origins][0]}); this request came from ${JSON.stringify(origin.slice(0, 100) || 'no origin')}`,
    );
  if (!/^application\/x-www-form-urlencoded\b/i.test(String(req.headers['content-type'] ?? '')))
    throw new AxmeError('INVALID_INPUT', 'a change is sent as a form (application/x-www-form-urlencoded)');
  const form = new URLSearchParams(await readBody(req));
  if (!sameToken(form.get('csrf') ?? '', ctx.actions.csrf))
    throw new AxmeError('NOT_ALLOWED', 'the form is not from this run of the page (its token is missing or stale): reload the page and try again');
  const m = /^\/act\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(path);
  const [kind, ref, verb] = m ? m.slice(1).map((p) => decodeURIComponent(p)) : [];
  const action = ACTIONS[`${kind}/${verb}`];
  if (!action || !ref) throw new AxmeError('NOT_FOUND', `no action at ${path}: the page edits memories (update, archive) and decisions (amend, revoke)`);
  const base = form.get('base');
  if (!base) throw new AxmeError('INVALID_INPUT', 'the form does not say which version of the item it was made from: reload the page and do it again');
  let result: { item: { slug: string } };
  try {
    result = await action.op.run(ctx.kb, action.input(ref, form), { allowSecret: false, base });
  } catch (err) {
    // what the person wrote is kept for them to redo on the item as it is now (changedSincePage)
    if (isChangedSince(err)) throw new AxmeError(err.code, err.message, { ...err.data, submitted: fields(form, action.typed) });
    throw err;
  }
  // the page answers again: the new tip's search index is made while the browser follows the redirect
  // (scheduled here, made in the background: the redirect waits for nothing but the scheduling)
  await afterOperation(action.op, ctx.kb, { answersAgain: true });
  const slug = encodeURIComponent(result.item.slug);
  return verb === 'update' || verb === 'amend' ? `/history/${kind}/${slug}` : `/item/${kind}/${slug}`;
}

/**
 * True when a request comes from the page itself: its Origin is one the page is served at; or,
 * since the page sends no referrer (so a browser's form POST carries `Origin: null`), the
 * browser's own `Sec-Fetch-Site: same-origin`, a header no page can set.
 */
function fromThePage(origin: string, fetchSite: string, origins: Set<string>): boolean {
  return origins.has(origin) || (origin === 'null' && fetchSite === 'same-origin');
}

/**
 * The fields a form filled in, as given (an empty one too: the core says what is wrong with it).
 * A list (tags, keywords) stays one comma-separated string: the operation's schema reads it
 * (model/text.ts stringList), as it reads the CLI's.
 */
function fields(f: URLSearchParams, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.filter((n) => f.has(n)).map((n) => [n, f.get(n)!.replace(/\r\n/g, '\n')]));
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The form's text; past MAX_FORM_BYTES, INVALID_INPUT with `tooLarge` (the page answers 413). */
async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) throw new AxmeError('INVALID_INPUT', `the form is larger than ${MAX_FORM_BYTES / 1024} KB`, { tooLarge: true });
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
