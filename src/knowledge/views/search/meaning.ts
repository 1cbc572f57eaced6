import { createHash } from 'node:crypto';
import type { StoreConfig } from '../../../model/config.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { currentModelName, installedModelDir } from '../../models/model-paths.ts';
import { embed, embeddingsConfig } from './embeddings.ts';

/**
 * What turns texts into vectors for the ranking by meaning: a configured endpoint
 * (`search.embeddings`) or the local model `axme models pull` installed.
 */
export interface Embedder {
  /** names the model: vectors of two keys are never compared (the vector file is per key) */
  key: string;
  /** for a person: `model potion-base-8M`, `endpoint <url> (<model>)` */
  label: string;
  /** unit-length vectors of `texts`, in order */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

const keyOf = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 16);

/**
 * The embedder search uses here, or null (words only): the machine-local endpoint when one is
 * set (it was chosen on purpose), else the local model in force (`AXME_SEARCH_MODEL`, else the
 * last one pulled) when it is installed and loads. Nothing of a model is loaded when none is
 * installed: one small file is read. A model that does not load leaves search lexical
 * (`axme doctor` says why).
 */
export async function embedderFor(kb: KnowledgeBase, config: StoreConfig | null): Promise<Embedder | null> {
  const endpoint = embeddingsConfig(kb, config);
  if (endpoint)
    return {
      key: keyOf(`${endpoint.url}\n${endpoint.model}`),
      label: `endpoint ${endpoint.url} (${endpoint.model})`,
      embed: (texts) => embed(endpoint, texts, kb.repo.env),
    };
  const name = currentModelName(kb.repo.env);
  const dir = name ? installedModelDir(kb.repo.env, name) : null;
  if (!dir) return null;
  const remembered = kb.cache.recall<Embedder | 'broken'>(`model:${dir}`);
  if (remembered) return remembered === 'broken' ? null : remembered;
  try {
    const { loadStaticModel } = await import('../../models/static-model.ts');
    const model = loadStaticModel(dir);
    const { name: n, revision } = model.manifest;
    const embedder: Embedder = { key: keyOf(`model2vec\n${n}\n${revision}`), label: `model ${n}`, embed: async (texts) => model.embed(texts) };
    return kb.cache.remember(`model:${dir}`, embedder);
  } catch {
    kb.cache.remember(`model:${dir}`, 'broken');
    return null;
  }
}
