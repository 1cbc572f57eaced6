import { AxmeError } from '../../model/errors.ts';
import { encodeItem, type ItemBase, type KindName, type KindSpec } from '../../model/kind.ts';
import { formatSize, LIMITS } from '../../model/limits.ts';
import { itemPath, SPECS } from '../../model/paths.ts';

/** Path and file text of an item; refuses a file over the size limit. */
export function itemFile<T extends ItemBase>(kind: KindName, item: T): [string, string] {
  const spec = SPECS[kind] as unknown as KindSpec<T>;
  const text = encodeItem(spec, item);
  const bytes = Buffer.byteLength(text);
  if (bytes > LIMITS.fileBytes) {
    throw new AxmeError(
      'INVALID_INPUT',
      `the ${kind} would be ${formatSize(bytes)} on disk, over the ${formatSize(LIMITS.fileBytes)} limit for one item: shorten it and reference large material by its path`,
      { bytes },
    );
  }
  return [itemPath(kind, item.slug, item.created), text];
}
