import { createHash } from 'node:crypto';
import type { StoreConfig } from '../../../model/config.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { currentModelName, installedModelDir } from '../../models/model-paths.ts';
import { type EmbeddingsConfig, type EmbedOptions, embed, embeddingsConfig, embedLimits } from './embeddings.ts';

/**
 * What turns texts into vectors for the ranking by meaning: a configured endpoint
 * (`search.embeddings`) or the local model `axme models pull` installed.
 */
export interface Embedder {
  /** names the model: vectors of two keys are never compared (the vector file is per key) */
  key: string;
  /** for a person: `model potion-base-8M`, `endpoint <url> (<model>)` */
  label: string;
  /** unit-length vectors of `texts`, in order (each batch to `opts.onBatch` as it arrives) */
  embed(texts: readonly string[], opts?: EmbedOptions): Promise<Float32Array[]>;
  /**
   * the unit-length vector of a query: with `opts.timeoutMs`, within it and the query's own bound
   * (`query_timeout_ms`), whichever is shorter; without, within the endpoint's own request bound
   * (`timeout_ms`: a caller nobody waits on, such as the worker making the vectors)
   */
  embedQuery(text: string, opts?: { timeoutMs?: number; signal?: AbortSignal }): Promise<Float32Array>;
  /**
   * set for an endpoint: how long a query waits for the items' vectors still being made (ms);
   * past it the query answers by words and they go on being made in the background. Unset (the
   * local model, a table lookup): a query waits for them.
   */
  waitMs?: number;
}

const keyOf = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 16);

/** The key of an endpoint's vectors (and of what doctor reads about it): its URL and model. */
export const endpointKey = (endpoint: Pick<EmbeddingsConfig, 'url' | 'model'>) => keyOf(`${endpoint.url}\n${endpoint.model}`);

/**
 * The embedder search uses here, or null (words only): the machine-local endpoint when one is
 * set (it was chosen on purpose), else the local model in force (`AXME_SEARCH_MODEL`, else the
 * last one pulled) when it is installed and loads. Nothing of a model is loaded when none is
 * installed: one small file is read. A model that does not load leaves search lexical
 * (`axme doctor` says why).
 */
export async function embedderFor(kb: KnowledgeBase, config: StoreConfig | null): Promise<Embedder | null> {
  const endpoint = embeddingsConfig(kb, config);
  if (endpoint) {
    const { queryTimeoutMs } = embedLimits(endpoint);
    return {
      key: endpointKey(endpoint),
      label: `endpoint ${endpoint.url} (${endpoint.model})`,
      embed: (texts, opts) => embed(endpoint, texts, kb.repo.env, opts),
      embedQuery: async (text, opts) =>
        (
          await embed(endpoint, [text], kb.repo.env, {
            ...(opts?.timeoutMs === undefined ? {} : { timeoutMs: Math.min(queryTimeoutMs, opts.timeoutMs) }),
            signal: opts?.signal,
          })
        )[0]!,
      waitMs: queryTimeoutMs,
    };
  }
  const name = currentModelName(kb.repo.env);
  const dir = name ? installedModelDir(kb.repo.env, name) : null;
  if (!dir) return null;
  const remembered = kb.cache.recall<Embedder | 'broken'>(`model:${dir}`);
  if (remembered) return remembered === 'broken' ? null : remembered;
  try {
    const { loadStaticModel } = await import('../../models/static-model.ts');
    const model = loadStaticModel(dir);
    const { name: n, revision } = model.manifest;
    const embedder: Embedder = {
      key: keyOf(`model2vec\n${n}\n${revision}`),
      label: `model ${n}`,
      embed: async (texts, opts) => {
        const vectors = model.embed(texts);
        opts?.onBatch?.(0, vectors);
        return vectors;
      },
      embedQuery: async (text) => model.embed([text])[0]!,
    };
    return kb.cache.remember(`model:${dir}`, embedder);
  } catch {
    kb.cache.remember(`model:${dir}`, 'broken');
    return null;
  }
}
