import type { StoreConfig } from '../../../model/config.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { effectiveSettings } from '../../core/local-settings.ts';

/** Where search gets embeddings from: `search.embeddings`, a machine-local setting. */
export type EmbeddingsConfig = NonNullable<NonNullable<StoreConfig['search']>['embeddings']>;

/** Texts sent in one request. */
const BATCH = 64;
/** How long one request may take. */
const TIMEOUT_MS = 30_000;

/**
 * The embeddings configured on this machine (`.git/axme/config.yaml` or `~/.config/axme/config.yaml`),
 * or null (the default: search by words only). Never the shared axme.yaml's: an endpoint and the
 * key sent to it are each machine's own choice.
 */
export function embeddingsConfig(kb: KnowledgeBase, config: StoreConfig | null): EmbeddingsConfig | null {
  return effectiveSettings(config, kb.repo.commonDir, kb.repo.env).embeddings;
}

/**
 * The unit-length embeddings of `texts`, in order, from an OpenAI-compatible endpoint
 * (`POST url` with `{ model, input }`, answered by `{ data: [{ index, embedding }] }`), `BATCH`
 * texts a request. The API key, when `api_key_env` names one, is read from `env` (the store's
 * environment, never this process's globals). Throws on a
 * failed request or an answer of the wrong shape.
 */
export async function embed(config: EmbeddingsConfig, texts: readonly string[], env: NodeJS.ProcessEnv): Promise<Float32Array[]> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const key = config.api_key_env ? env[config.api_key_env] : undefined;
  if (key) headers.authorization = `Bearer ${key}`;
  const out: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += BATCH) {
    const input = texts.slice(i, i + BATCH);
    const res = await fetch(config.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: config.model, input }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!res.ok) throw new Error(`embeddings: ${config.url} answered ${res.status}`);
    const body = (await res.json()) as { data?: Array<{ index?: number; embedding?: unknown }> };
    const data = body.data;
    if (!Array.isArray(data) || data.length !== input.length)
      throw new Error(`embeddings: ${config.url} answered ${Array.isArray(data) ? data.length : 'no'} vectors for ${input.length} texts`);
    const ordered = [...data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    for (const d of ordered) {
      if (!Array.isArray(d.embedding) || !d.embedding.every((x) => typeof x === 'number'))
        throw new Error(`embeddings: ${config.url} answered a vector that is not a list of numbers`);
      out.push(unit(Float32Array.from(d.embedding as number[])));
    }
  }
  return out;
}

/** `v` scaled to length 1 (a zero vector stays zero), so that a dot product is the cosine. */
function unit(v: Float32Array): Float32Array {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i]! /= norm;
  return v;
}
