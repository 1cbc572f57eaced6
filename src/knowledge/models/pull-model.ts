import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AxmeError } from '../../model/errors.ts';
import { makeFolder } from '../../model/make-folder.ts';
import { eitherOf, nearNames } from '../../model/near-names.ts';
import { CATALOG, catalogModel, DEFAULT_MODEL, type ModelFile, type ModelManifest } from './catalog.ts';
import { CURRENT_FILE, MANIFEST_FILE, modelsBaseUrl, modelsDir } from './model-paths.ts';

/** How far one file's download is. */
export interface PullProgress {
  model: string;
  file: string;
  received: number;
  total: number;
}

export interface PullModelOptions {
  env: NodeJS.ProcessEnv;
  /** a catalog model (default DEFAULT_MODEL); ignored when `manifest` is given */
  name?: string | undefined;
  /** a model outside the catalog, already checked (checkManifest) */
  manifest?: ModelManifest | undefined;
  /** called as bytes arrive (at most every megabyte, and at each file's end) */
  onProgress?: (p: PullProgress) => void;
}

export interface PullResult {
  model: string;
  dir: string;
  /** each file: its size and whether it was downloaded now (false: already there with the right bytes) */
  files: Array<{ name: string; size: number; downloaded: boolean }>;
  /** where the files came from */
  from: string;
}

/** How long a download may go without a byte before it is given up. */
const STALL_MS = 60_000;
const REPORT_EVERY = 1 << 20;

/** SHA-256 and size of a file on disk. */
async function digestOf(path: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}

/** Whether `path` already holds exactly `file`'s bytes. */
async function present(path: string, file: ModelFile): Promise<boolean> {
  if (!existsSync(path) || statSync(path).size !== file.size) return false;
  return (await digestOf(path)).sha256 === file.sha256;
}

/** Downloads `url` into `dest` through a temporary file, checking size and SHA-256 before the rename. */
async function download(url: string, dest: string, file: ModelFile, report: (received: number) => void): Promise<void> {
  const controller = new AbortController();
  let timer = setTimeout(() => controller.abort(), STALL_MS);
  const part = `${dest}.part-${process.pid}`;
  try {
    let res: Response;
    try {
      res = await fetch(url, { signal: controller.signal, redirect: 'follow' });
    } catch (err) {
      throw new AxmeError(
        'DOWNLOAD_FAILED',
        `could not reach ${url}: ${(err as Error).message}; check the network (or AXME_MODELS_URL), then run axme models pull again`,
        { url },
      );
    }
    if (!res.ok || !res.body)
      throw new AxmeError('DOWNLOAD_FAILED', `${url} answered ${res.status}; check AXME_MODELS_URL, then run axme models pull again`, {
        url,
        status: res.status,
      });
    const hash = createHash('sha256');
    const out = createWriteStream(part);
    let received = 0;
    let reported = 0;
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        clearTimeout(timer);
        timer = setTimeout(() => controller.abort(), STALL_MS);
        received += chunk.length;
        if (received > file.size)
          throw new AxmeError('CORRUPT', `${url} sent more than the ${file.size} bytes ${file.name} has: not the pinned file; nothing was installed`, { url });
        hash.update(chunk);
        if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
        if (received - reported >= REPORT_EVERY) {
          reported = received;
          report(received);
        }
      }
    } catch (err) {
      if (err instanceof AxmeError) throw err;
      throw new AxmeError(
        'DOWNLOAD_FAILED',
        `the download of ${url} broke off after ${received} bytes (${(err as Error).message}); run axme models pull again`,
        { url },
      );
    } finally {
      await new Promise<void>((r) => out.end(() => r()));
    }
    const sha256 = hash.digest('hex');
    if (received !== file.size || sha256 !== file.sha256)
      throw new AxmeError(
        'CORRUPT',
        `${file.name} from ${url} is not the pinned file (sha256 ${sha256}, ${received} bytes; expected ${file.sha256}, ${file.size} bytes); nothing was installed`,
        { url, sha256, size: received },
      );
    report(received);
    renameSync(part, dest);
  } finally {
    clearTimeout(timer);
    rmSync(part, { force: true });
  }
}

/**
 * Downloads a model into the user's models folder (model-paths.ts): each file from
 * `<AXME_MODELS_URL or https://huggingface.co>/<source>/resolve/<revision>/<file>`, its size and
 * SHA-256 checked against the manifest before it is kept (a file already there with the right
 * bytes is not fetched again); then the manifest, written last, marks the model installed, and
 * the model becomes the one search uses. Throws DOWNLOAD_FAILED (network), CORRUPT (wrong
 * bytes: nothing of that file is kept), INVALID_INPUT (a name the catalog lacks, with the one it was likely meant to be).
 */
export async function pullModel(opts: PullModelOptions): Promise<PullResult> {
  const manifest = opts.manifest ?? catalogModel(opts.name ?? DEFAULT_MODEL);
  if (!manifest) {
    // a name the catalog lacks is the caller's to correct (a usage error), with the name it was likely meant to be
    const names = CATALOG.map((m) => m.name);
    const meant = nearNames(opts.name ?? '', names);
    throw new AxmeError(
      'INVALID_INPUT',
      `no model named ${JSON.stringify(opts.name ?? '')} in axme's catalog${meant.length ? `: did you mean ${eitherOf(meant)}?` : ''} (the catalog: ${names.join(', ')}; axme models list shows them); for another Model2Vec model, give its manifest with --manifest <file>`,
      { name: opts.name, catalog: names },
    );
  }
  const root = modelsDir(opts.env);
  if (!root) throw new AxmeError('CONFIG', 'no folder for models: set XDG_CACHE_HOME or HOME');
  const dir = join(root, manifest.name);
  makeFolder(dir);
  const from = `${modelsBaseUrl(opts.env)}/${manifest.source}/resolve/${manifest.revision}`;
  const files: PullResult['files'] = [];
  // the manifest goes first out of the way: until every file is verified the model is not installed
  rmSync(join(dir, MANIFEST_FILE), { force: true });
  for (const file of manifest.files) {
    const dest = join(dir, file.name);
    if (await present(dest, file)) {
      files.push({ name: file.name, size: file.size, downloaded: false });
      continue;
    }
    await download(`${from}/${file.name}`, dest, file, (received) => opts.onProgress?.({ model: manifest.name, file: file.name, received, total: file.size }));
    files.push({ name: file.name, size: file.size, downloaded: true });
  }
  writeAtomic(join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  writeAtomic(join(root, CURRENT_FILE), `${manifest.name}\n`);
  return { model: manifest.name, dir, files, from };
}

function writeAtomic(path: string, text: string): void {
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}
