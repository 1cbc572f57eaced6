import { gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import type { Word } from './syntax.ts';

/**
 * The decoders of text-filters.ts's table: programs whose output is a decoding of what they read,
 * which the command line tells when what they read is a literal on it (`echo <base64> | base64 -d |
 * sh`). Bytes that are not UTF-8 are carried as latin-1 text (one character a byte), so a decoder
 * later in the pipeline (`| base64 -d | gunzip`) gets them back whole; a decoding that fails, or
 * grows past MAX_DECODED, is unknown (null).
 */
export type Decoding = (text: string) => string | null;

/** The most text a decoding may make: a decompression bomb is unknown, not read. */
const MAX_DECODED = 1 << 16;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Bytes as text: UTF-8 where they are, else one latin-1 character a byte. */
function asText(bytes: Buffer): string | null {
  if (bytes.length > MAX_DECODED) return null;
  try {
    return utf8.decode(bytes);
  } catch {
    return bytes.toString('latin1');
  }
}

/** The bytes a text carries: latin-1 where every character is one, else its UTF-8. */
function asBytes(text: string): Buffer {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the latin-1 range
  return /^[\u0000-\u00ff]*$/.test(text) ? Buffer.from(text, 'latin1') : Buffer.from(text, 'utf8');
}

/** Base64 text (blanks ignored; with `garbage` every other character too) decoded, or null when it is not base64. */
function base64Decoded(text: string, garbage: boolean, url = false): string | null {
  const outside = url ? /[^A-Za-z0-9_=-]/ : /[^A-Za-z0-9+/=]/;
  const kept = garbage ? text.replace(new RegExp(outside.source, 'g'), '') : text.replace(/\s+/g, '');
  if (!kept.length || outside.test(kept) || !/^[^=]*={0,2}$/.test(kept)) return null;
  return asText(Buffer.from(kept, url ? 'base64url' : 'base64'));
}

/** The flags of a program's words, each a set of letters and long names, and whether a file operand is given. */
function flagsOf(args: readonly Word[], valued: RegExp): { flags: Set<string>; operand: boolean } {
  const flags = new Set<string>();
  let operand = false;
  const values = args.map((a) => a.value);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v === '-') continue;
    if (v.startsWith('--')) flags.add(v.replace(/=.*$/, ''));
    else if (v.startsWith('-')) {
      for (const c of v.slice(1)) flags.add(c);
      if (valued.test(v)) i++;
    } else operand = true;
  }
  return { flags, operand };
}

/** `base64 -d` (`--decode`, macOS's `-D`, `-i`/`--ignore-garbage`) reading stdin. */
export function base64Decodes(args: readonly Word[]): Decoding | null {
  const { flags, operand } = flagsOf(args, /^-w$|^--wrap$/);
  if (operand || !(flags.has('d') || flags.has('D') || flags.has('--decode'))) return null;
  const garbage = flags.has('i') || flags.has('--ignore-garbage');
  return (text) => base64Decoded(text, garbage);
}

/** `basenc --base64 -d` (`--base64url`, `--base16`) reading stdin. */
export function basencDecodes(args: readonly Word[]): Decoding | null {
  const { flags, operand } = flagsOf(args, /^-w$|^--wrap$/);
  if (operand || !(flags.has('d') || flags.has('--decode'))) return null;
  const garbage = flags.has('i') || flags.has('--ignore-garbage');
  if (flags.has('--base64')) return (text) => base64Decoded(text, garbage);
  if (flags.has('--base64url')) return (text) => base64Decoded(text, garbage, true);
  if (flags.has('--base16')) return (text) => hexDecoded(text);
  return null;
}

/** `openssl base64 -d`, `openssl enc -d -base64` (`-a`, `-A`) reading stdin, with no other cipher. */
export function opensslDecodes(args: readonly Word[]): Decoding | null {
  const values = args.map((a) => a.value);
  const [command, ...rest] = values;
  if (!rest.includes('-d') || rest.some((v) => v === '-in' || v.startsWith('-in='))) return null;
  if (command === 'base64') return rest.every((v) => v === '-d' || v === '-A') ? (text) => base64Decoded(text, false) : null;
  if (command !== 'enc') return null;
  const known = rest.every((v) => v === '-d' || v === '-A' || v === '-a' || v === '-base64');
  return known && rest.some((v) => v === '-a' || v === '-base64') ? (text) => base64Decoded(text, false) : null;
}

/** Hex digits (blanks between them ignored) as the bytes they spell, or null when they are not hex. */
function hexDecoded(text: string): string | null {
  const digits = text.replace(/\s+/g, '');
  if (!digits.length || digits.length % 2 || /[^0-9a-fA-F]/.test(digits)) return null;
  return asText(Buffer.from(digits, 'hex'));
}

/** `xxd -r -p` (`-ps`, `-plain`, `-postscript`; `-rp`) reading stdin, no other option: a plain hex dump turned back into bytes. */
export function xxdDecodes(args: readonly Word[]): Decoding | null {
  const values = args.map((a) => a.value);
  if (!values.every((v) => /^-(r|revert|p|ps|plain|postscript|rp|pr|rps)$/.test(v))) return null;
  const reverse = values.some((v) => /^-(r|revert|rp|pr|rps)$/.test(v));
  const plain = values.some((v) => /^-(p|ps|plain|postscript|rp|pr|rps)$/.test(v));
  return reverse && plain ? hexDecoded : null;
}

/** A compressed stream (its bytes as asBytes carries them) decompressed, or null when it is not one or grows past MAX_DECODED. */
function decompressed(inflate: typeof gunzipSync): Decoding {
  return (text) => {
    try {
      return asText(inflate(asBytes(text), { maxOutputLength: MAX_DECODED }));
    } catch {
      return null;
    }
  };
}
const gunzipped = decompressed(gunzipSync);

/** `gunzip`, `zcat`, `gzip -d` (`-dc`, `--decompress`) reading stdin: the gzip stream decompressed. */
export function gzipDecodes(program: string, args: readonly Word[]): Decoding | null {
  const { flags, operand } = flagsOf(args, /^-S$|^--suffix$/);
  if (operand) return null;
  const decompress = program === 'gunzip' || program === 'zcat' || flags.has('d') || flags.has('--decompress') || flags.has('--uncompress');
  if (!decompress) return null;
  return gunzipped;
}

/** ROT13: each ASCII letter moved 13 places (`tr A-Za-z N-ZA-Mn-za-m`); other characters kept. */
function rot13(text: string): string {
  return text.replace(/[A-Za-z]/g, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
}

const kept: Decoding = (text) => text;

/**
 * The decodings interpreter code asks for by name (`Buffer.from(s, 'hex')`, `codecs.decode(s,
 * 'rot13')`, families/interpreter-syntax.ts), the same as the shell's decoders above: base64 as
 * the languages read it (a character outside the alphabet skipped), hex, rot13, the gzip, zlib
 * and raw deflate streams (`gzip.decompress`, `zlib.decompress`, `gzinflate`); a text encoding
 * (`utf8`, `latin1`…) keeps the text.
 */
const NAMED: Record<string, Decoding> = {
  base64: (text) => base64Decoded(text, true),
  base64url: (text) => base64Decoded(text, true, true),
  hex: hexDecoded,
  rot13,
  gzip: gunzipped,
  zlib: decompressed(inflateSync),
  deflate: decompressed(inflateRawSync),
  utf8: kept,
  ascii: kept,
  latin1: kept,
  binary: kept,
};

/** The decoding a codec name stands for (case, `-`, `_` and a `_codec` suffix ignored: `rot_13`, `hex_codec`, `UTF-8`); null for one the guard does not read. */
export function namedDecoding(name: string): Decoding | null {
  const key = name.toLowerCase().replace(/[-_]|codec$/g, '');
  return NAMED[key] ?? null;
}
