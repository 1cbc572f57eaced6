import type { KindName } from '../../../model/kind.ts';
import type { Doc } from './build-index.ts';
import type { Field } from './fields.ts';
import type { IndexFile } from './index-file.ts';
import { FLAG_CURRENT, FLAG_REVOKED, FLAG_STORE } from './index-file-layout.ts';
import { metaOf, type Source } from './item-document.ts';

/**
 * A document read from an index file: its marks (kind, current, revoked, from a workspace) from
 * the flags, everything else from its record when first asked for; or, given `src`, its marks and
 * text from the item (the state was read) and its terms and positions from the record.
 */
export class FileDoc implements Doc {
  // plain fields, the lazy ones declared only: 10,000 of these are made at opening (a query at the tip reads a few)
  private readonly f: IndexFile;
  private readonly i: number;
  private readonly src: Source | undefined;
  declare private meta: ReturnType<typeof metaOf> | undefined;
  declare private cachedParts: Record<Field, readonly string[]> | undefined;
  declare private cachedLen: Record<Field, number> | undefined;
  constructor(f: IndexFile, i: number, src?: Source) {
    this.f = f;
    this.i = i;
    this.src = src;
  }
  private get rec() {
    return this.f.record(this.i);
  }
  private get item(): ReturnType<typeof metaOf> | undefined {
    return this.src && (this.meta ??= metaOf(this.src));
  }
  /** the bytes of its record: an unchanged document is written into the next file as it is */
  rawRecord(): Uint8Array {
    return this.rec.raw;
  }
  get print(): string {
    return this.rec.json.print;
  }
  set print(_: string | undefined) {
    // the record's print: what the document was made from
  }
  get len(): Record<Field, number> {
    if (!this.cachedLen) {
      const l = this.rec.len;
      this.cachedLen = { title: l[0]!, keys: l[1]!, anchors: l[2]!, body: l[3]! };
    }
    return this.cachedLen;
  }
  get titleEnd(): number {
    return this.rec.titleEnd;
  }
  get terms(): string[] {
    return this.rec.terms;
  }
  get tfs(): Float64Array {
    return this.rec.tfs;
  }
  get near(): Uint16Array {
    return this.rec.near;
  }
  get kind(): KindName {
    return this.item?.kind ?? (this.f.kind(this.i) as KindName);
  }
  get current(): boolean {
    return this.item ? this.item.current : (this.f.flags[this.i]! & FLAG_CURRENT) !== 0;
  }
  get revoked(): boolean {
    return this.item ? this.item.revoked : (this.f.flags[this.i]! & FLAG_REVOKED) !== 0;
  }
  get store(): string | undefined {
    if (this.item) return this.item.store;
    return this.f.flags[this.i]! & FLAG_STORE ? this.rec.json.store || undefined : undefined;
  }
  get slug(): string {
    return this.item?.slug ?? this.f.slug(this.i);
  }
  get id(): string | null {
    return this.item ? this.item.id : (this.rec.json.id ?? null);
  }
  get title(): string {
    return this.item?.title ?? this.rec.json.title;
  }
  get status(): string {
    return this.item?.status ?? this.rec.json.status;
  }
  get path(): string {
    return this.item?.path ?? this.rec.json.path;
  }
  get supersededBy(): string | undefined {
    return this.item ? this.item.supersededBy : this.rec.json.supersededBy || undefined;
  }
  get parts(): Record<Field, readonly string[]> {
    if (this.item) return this.item.parts;
    if (!this.cachedParts) {
      const t = this.rec.json.parts;
      this.cachedParts = { title: t[0] ?? [], keys: t[1] ?? [], anchors: t[2] ?? [], body: t[3] ?? [] };
    }
    return this.cachedParts;
  }
}
