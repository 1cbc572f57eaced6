import { AxmeError } from '../../model/errors.ts';

/** One file of a model: its name in the model's repository, and the bytes it must have. */
export interface ModelFile {
  name: string;
  /** SHA-256 of the file, hex: a download that differs is refused */
  sha256: string;
  size: number;
}

/**
 * What `axme models pull` fetches and checks: a static embedding model in the Model2Vec layout
 * (`model.safetensors`: one token-embedding table; `tokenizer.json`: a WordPiece tokenizer), at a
 * pinned revision of its repository, each file with its size and SHA-256.
 */
export interface ModelManifest {
  /** the model's name here: its folder in the cache, what `AXME_SEARCH_MODEL` names */
  name: string;
  format: 'model2vec';
  /** the repository it is published in (`owner/name`), under the download base URL */
  source: string;
  /** the revision of that repository (a commit), so that the files never change under their hashes */
  revision: string;
  files: ModelFile[];
  /** one line about it, for `axme models list` */
  about?: string;
}

/** The model `axme models pull` fetches when none is named. */
export const DEFAULT_MODEL = 'potion-base-8M';

/**
 * The models axme knows the bytes of. potion-base-8M (MIT): a static distillation of
 * BAAI/bge-base-en-v1.5, 256 dimensions over a 29,528-token WordPiece vocabulary (docs/search.md,
 * "Ranking by meaning", says why this one).
 */
export const CATALOG: readonly ModelManifest[] = [
  {
    name: 'potion-base-8M',
    format: 'model2vec',
    source: 'minishlab/potion-base-8M',
    revision: 'bf8b056651a2c21b8d2565580b8569da283cab23',
    about: 'English, 256 dimensions, 30 MB; a static distillation of bge-base-en-v1.5 (MIT)',
    files: [
      { name: 'config.json', sha256: '2a6ac0e9aaa356a68a5688070db78fc3a464fefe85d2f06a1905ce3718687553', size: 202 },
      { name: 'tokenizer.json', sha256: 'e67e803f624fb4d67dea1c730d06e1067e1b14d830e2c2202569e3ef0f70bb50', size: 683_666 },
      { name: 'model.safetensors', sha256: 'f65d0f325faadc1e121c319e2faa41170d3fa07d8c89abd48ca5358d9a223de2', size: 30_236_760 },
    ],
  },
];

/** The files a Model2Vec model must have for the loader (static-model.ts). */
export const REQUIRED_FILES = ['tokenizer.json', 'model.safetensors'] as const;

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const SOURCE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}\/[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const HEX64 = /^[0-9a-f]{64}$/;

/**
 * `value` checked as a manifest (a file the user names to `axme models pull --manifest`, or the
 * copy kept beside an installed model): names that are safe as folder and file names, a
 * `owner/name` source, a revision, a SHA-256 and a size for each file, and the files the loader
 * needs. Throws INVALID_INPUT naming what is wrong.
 */
export function checkManifest(value: unknown, where: string): ModelManifest {
  const bad = (what: string) =>
    new AxmeError(
      'INVALID_INPUT',
      `${where}: ${what} (a model manifest is {"name", "format": "model2vec", "source": "owner/name", "revision", "files": [{"name", "sha256", "size"}]})`,
    );
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw bad('not a JSON object');
  const m = value as Record<string, unknown>;
  if (typeof m.name !== 'string' || !NAME.test(m.name)) throw bad('"name" must be letters, digits, ".", "_" or "-"');
  if (m.format !== 'model2vec') throw bad('"format" must be "model2vec" (the one format axme loads)');
  if (typeof m.source !== 'string' || !SOURCE.test(m.source)) throw bad('"source" must be owner/name');
  if (typeof m.revision !== 'string' || !NAME.test(m.revision)) throw bad('"revision" must be a commit or tag name');
  if (!Array.isArray(m.files) || m.files.length === 0) throw bad('"files" must list the files');
  const files = m.files.map((f: unknown, i): ModelFile => {
    const file = (f ?? {}) as Record<string, unknown>;
    if (typeof file.name !== 'string' || !NAME.test(file.name)) throw bad(`files[${i}].name must be a plain file name`);
    if (typeof file.sha256 !== 'string' || !HEX64.test(file.sha256)) throw bad(`files[${i}].sha256 must be 64 lowercase hex digits`);
    if (typeof file.size !== 'number' || !Number.isSafeInteger(file.size) || file.size < 0) throw bad(`files[${i}].size must be a byte count`);
    return { name: file.name, sha256: file.sha256, size: file.size };
  });
  for (const r of REQUIRED_FILES) if (!files.some((f) => f.name === r)) throw bad(`"files" must include ${r}`);
  if (new Set(files.map((f) => f.name)).size !== files.length) throw bad('a file is listed twice');
  return {
    name: m.name,
    format: 'model2vec',
    source: m.source,
    revision: m.revision,
    files,
    ...(typeof m.about === 'string' ? { about: m.about.slice(0, 200) } : {}),
  };
}

/** The catalog's model of that name, or null. */
export const catalogModel = (name: string): ModelManifest | null => CATALOG.find((m) => m.name === name) ?? null;
