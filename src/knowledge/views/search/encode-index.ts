import type { Doc, Index } from './build-index.ts';
import { encodeRecord } from './file-record.ts';
import { FileVocabulary, sortedOrder } from './file-vocabulary.ts';
import { FLAG_CURRENT, FLAG_REVOKED, FLAG_STORE, type Header, PRELUDE, pad8, type SectionName } from './index-file-layout.ts';
import { relatedTable } from './synonyms.ts';

const enc = new TextEncoder();

/** A document read from an index file (file-doc.ts): its record's bytes are at hand. */
interface FileDocLike extends Doc {
  rawRecord(): Uint8Array;
}

/** One document's record, as the file holds it (cached per document object: an unchanged document is not encoded again). */
const encoded = new WeakMap<Doc, Uint8Array>();
function recordOf(d: Doc, made: { count: number }): Uint8Array {
  const known = encoded.get(d) ?? (d as Partial<Pick<FileDocLike, 'rawRecord'>>).rawRecord?.();
  if (known) return known;
  made.count++;
  const out = encodeRecord(d);
  encoded.set(d, out);
  return out;
}

/**
 * The file of `index` as byte chunks to write one after the other (`magic`: the format and code
 * stamp; `anchored`, `embeddings`: persist.ts writeIndex), and how many documents' records were
 * encoded for it (the others were copied: from the file they were read from, or from an earlier write).
 */
export function encodeIndex(
  magic: string,
  version: number,
  key: string,
  index: Index,
  opts: { anchored: boolean; embeddings: boolean },
): { chunks: Uint8Array[]; encoded: number } {
  const { docs, postings } = index;
  const n = docs.length;
  const vocab: string[] = new Array(postings.ids.size);
  for (const [t, id] of postings.ids) vocab[id] = t;
  const made = { count: 0 };
  const records = docs.map((d) => recordOf(d, made));
  const docAt = new Float64Array(n + 1);
  records.forEach((r, i) => (docAt[i + 1] = docAt[i]! + r.length));
  const flags = Uint8Array.from(docs, (d) => (d.current ? FLAG_CURRENT : 0) | (d.revoked ? FLAG_REVOKED : 0) | (d.store ? FLAG_STORE : 0));
  const kindNames = [...new Set(docs.map((d) => d.kind))];
  const kindOf = Uint8Array.from(docs, (d) => kindNames.indexOf(d.kind));
  const vocabBytes = enc.encode(vocab.join('\n'));
  const head: Header['head'] = { start: 0, order: 0, flags: 0, kindOf: 0, docAt: 0 };
  const headParts: Uint8Array[] = [];
  let headLen = 0;
  const put = (bytes: Uint8Array) => {
    const at = headLen;
    headParts.push(bytes);
    headLen = pad8(headLen + bytes.length);
    if (headLen - at > bytes.length) headParts.push(new Uint8Array(headLen - at - bytes.length));
    return at;
  };
  put(vocabBytes);
  head.start = put(bytesOf(postings.start));
  // a sorted table's order as it is (the postings a write laid out flat keep one), else sorted here
  head.order = put(bytesOf(postings.ids instanceof FileVocabulary ? postings.ids.order : sortedOrder(vocab)));
  head.flags = put(flags);
  head.kindOf = put(kindOf);
  head.docAt = put(bytesOf(docAt));
  const slugs = enc.encode(docs.map((d) => d.slug).join('\n'));
  const named = new Set(index.superseded.map((i) => docs[i]!.supersededBy!));
  const successors = [...index.decisions].filter(([slug]) => named.has(slug));
  const bodies: Array<[SectionName, Uint8Array[], number]> = [
    ['head', headParts, headLen],
    ['pdocs', [bytesOf(postings.docs)], postings.docs.byteLength],
    ['gain', [bytesOf(postings.gain)], postings.gain.byteLength],
    ['slugs', [slugs], slugs.length],
    ['records', records, docAt[n]!],
  ];
  // kept only together and whole: a patch must never read frequencies that are not the postings'
  const { tf, len } = postings;
  const patchable = tf && len && tf.length === postings.docs.length && len.length === 4 * n;
  bodies.push(
    ['ptf', patchable ? [bytesOf(tf)] : [], patchable ? tf.byteLength : 0],
    ['lens', patchable ? [bytesOf(len)] : [], patchable ? len.byteLength : 0],
  );
  const header: Header = {
    magic,
    version,
    key,
    n,
    terms: vocab.length,
    postings: postings.docs.length,
    kindNames,
    glossary: index.glossary ?? [],
    synonyms: [...index.synonyms],
    related: [...relatedTable()],
    superseded: [...index.superseded],
    successors: successors.map(([slug]) => slug),
    successorAt: successors.map(([, at]) => at),
    anchored: opts.anchored,
    embeddings: opts.embeddings,
    sections: {} as Header['sections'],
    head,
  };
  // the header names the sections' offsets, which follow the header: its length is fixed first with placeholders of the widest offsets
  const size = (h: Header) => pad8(12 + enc.encode(JSON.stringify(h)).length);
  let total = 0;
  for (const [name, , len] of bodies) header.sections[name] = [Number.MAX_SAFE_INTEGER, len];
  let at = size(header);
  for (const [name, , len] of bodies) {
    header.sections[name] = [at, len];
    at = pad8(at + len);
  }
  total = at;
  const headerBytes = enc.encode(JSON.stringify(header));
  const prelude = new Uint8Array(12);
  prelude.set(enc.encode(PRELUDE));
  new DataView(prelude.buffer).setUint32(8, headerBytes.length, true);
  const chunks: Uint8Array[] = [prelude, headerBytes];
  let written = 12 + headerBytes.length;
  for (const [name, parts] of bodies) {
    const [off] = header.sections[name];
    if (off > written) chunks.push(new Uint8Array(off - written));
    written = off;
    for (const p of parts) {
      chunks.push(p);
      written += p.length;
    }
  }
  if (total > written) chunks.push(new Uint8Array(total - written));
  return { chunks, encoded: made.count };
}

const bytesOf = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
