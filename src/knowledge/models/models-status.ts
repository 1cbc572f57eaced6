import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOG, checkManifest, type ModelManifest } from './catalog.ts';
import { currentModelName, installedModelDir, MANIFEST_FILE, modelsDir } from './model-paths.ts';
import { loadStaticModel } from './static-model.ts';

export interface ModelRow {
  name: string;
  about: string | null;
  /** installed in the models folder (every file verified) */
  installed: boolean;
  /** in axme's catalog (else pulled from a manifest the user gave) */
  catalog: boolean;
  /** the download size of its files */
  size: number;
  /** the model search uses */
  current: boolean;
}

export interface ModelsStatus {
  /** the models folder (null: no XDG_CACHE_HOME or HOME) */
  dir: string | null;
  models: ModelRow[];
  /** the model search uses (AXME_SEARCH_MODEL, else the last pulled), or null: words only */
  current: string | null;
  /** whether that model loads: its dimensions and vocabulary, or why not */
  loaded: { dims: number; vocabulary: number } | { error: string } | null;
}

/** The installed models' manifests, in name order (a folder without a valid manifest is not a model). */
function installed(dir: string | null): ModelManifest[] {
  if (!dir || !existsSync(dir)) return [];
  const out: ModelManifest[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name, MANIFEST_FILE);
    if (!existsSync(path)) continue;
    try {
      out.push(loadManifest(path));
    } catch {
      // not a model: skipped (its pull never finished, or the file was edited)
    }
  }
  return out;
}

const loadManifest = (path: string) => checkManifest(JSON.parse(readFileSync(path, 'utf8')), path);

/**
 * `axme models list`: the catalog's models and the installed ones, which one search uses, and
 * whether it loads (the loading code search runs, so a broken install shows here and in doctor).
 */
export function modelsStatus(opts: { env: NodeJS.ProcessEnv }): ModelsStatus {
  const dir = modelsDir(opts.env);
  const current = currentModelName(opts.env);
  const here = installed(dir);
  const rows = new Map<string, ModelRow>();
  const size = (m: ModelManifest) => m.files.reduce((s, f) => s + f.size, 0);
  for (const m of CATALOG)
    rows.set(m.name, { name: m.name, about: m.about ?? null, installed: false, catalog: true, size: size(m), current: m.name === current });
  for (const m of here)
    rows.set(m.name, { name: m.name, about: m.about ?? null, installed: true, catalog: rows.has(m.name), size: size(m), current: m.name === current });
  let loaded: ModelsStatus['loaded'] = null;
  if (current) {
    const at = installedModelDir(opts.env, current);
    if (!at) loaded = { error: `${current} is not installed: run axme models pull${rows.get(current)?.catalog ? ` ${current}` : ''}` };
    else {
      try {
        const m = loadStaticModel(at);
        loaded = { dims: m.dims, vocabulary: m.vocabulary };
      } catch (err) {
        loaded = { error: `${current} does not load (${(err as Error).message}): run axme models pull ${current} again` };
      }
    }
  }
  return { dir, models: [...rows.values()], current, loaded };
}

/** One line for `axme doctor` and `axme models status`: which search is in force, and what to run. */
export function searchModeLine(s: ModelsStatus): { ok: boolean; line: string } {
  if (!s.current) return { ok: true, line: 'lexical only: run axme models pull to rank by meaning too (a 30 MB local model, docs/search.md)' };
  if (s.loaded && 'error' in s.loaded) return { ok: false, line: `lexical only: ${s.loaded.error}` };
  const l = s.loaded as { dims: number; vocabulary: number };
  return { ok: true, line: `semantic search: model ${s.current} loaded (${l.dims} dimensions, ${l.vocabulary} tokens), fused with the word ranking` };
}
