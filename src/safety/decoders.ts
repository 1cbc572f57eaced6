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
function base64Decodes(args: readonly Word[]): Decoding | null {
  const { flags, operand } = flagsOf(args, /^-w$|^--wrap$/);
  if (operand || !(flags.has('d') || flags.has('D') || flags.has('--decode'))) return null;
  const garbage = flags.has('i') || flags.has('--ignore-garbage');
  return (text) => base64Decoded(text, garbage);
}

/** `basenc --base64 -d` (`--base64url`, `--base16`, `--base32`, `--base32hex`, `--base2msbf`, `--base2lsbf`, `--z85`) reading stdin. */
function basencDecodes(args: readonly Word[]): Decoding | null {
  const { flags, operand } = flagsOf(args, /^-w$|^--wrap$/);
  if (operand || !(flags.has('d') || flags.has('--decode'))) return null;
  const garbage = flags.has('i') || flags.has('--ignore-garbage');
  if (flags.has('--base64')) return (text) => base64Decoded(text, garbage);
  if (flags.has('--base64url')) return (text) => base64Decoded(text, garbage, true);
  if (flags.has('--base16')) return (text) => hexDecoded(text);
  if (flags.has('--base32')) return (text) => base32Decoded(text, garbage);
  if (flags.has('--base32hex')) return (text) => base32Decoded(text, garbage, BASE32HEX);
  if (flags.has('--base2msbf') || flags.has('--base2lsbf')) return (text) => base2Decoded(text, flags.has('--base2lsbf'));
  if (flags.has('--z85')) return z85Decoded;
  return null;
}

/** `openssl base64 -d`, `openssl enc -d -base64` (`-a`, `-A`) reading stdin, with no other cipher. */
function opensslDecodes(args: readonly Word[]): Decoding | null {
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

/** RFC 4648's base32 alphabets: the standard one and base32hex's. */
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const BASE32HEX = '0123456789ABCDEFGHIJKLMNOPQRSTUV';

/** Base32 text (blanks ignored; with `garbage` every other character too) decoded, or null when it is not base32. */
function base32Decoded(text: string, garbage: boolean, alphabet = BASE32): string | null {
  const outside = new RegExp(`[^${alphabet}=]`, 'g');
  const kept = garbage ? text.replace(outside, '') : text.replace(/\s+/g, '');
  if (!kept.length || new RegExp(`[^${alphabet}=]`).test(kept) || !/^[^=]*=*$/.test(kept)) return null;
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const c of kept.replace(/=+$/, '')) {
    value = (value << 5) | alphabet.indexOf(c);
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((value >> bits) & 0xff);
    }
    value &= (1 << bits) - 1;
  }
  return asText(Buffer.from(bytes));
}

/** `basenc --base2msbf|--base2lsbf` text: eight `0`/`1` a byte, its most or least significant bit first; null when it is not that. */
function base2Decoded(text: string, lsbFirst: boolean): string | null {
  const digits = text.replace(/\s+/g, '');
  if (!digits.length || digits.length % 8 || /[^01]/.test(digits)) return null;
  const bytes = (digits.match(/.{8}/g) ?? []).map((b) => parseInt(lsbFirst ? [...b].reverse().join('') : b, 2));
  return asText(Buffer.from(bytes));
}

/** Z85 (ZeroMQ's base85, `basenc --z85`): five characters a four-byte word; null when it is not that. */
const Z85 = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#';
function z85Decoded(text: string): string | null {
  const chars = text.replace(/\s+/g, '');
  if (!chars.length || chars.length % 5) return null;
  const bytes: number[] = [];
  for (let i = 0; i < chars.length; i += 5) {
    let word = 0;
    for (const c of chars.slice(i, i + 5)) {
      const d = Z85.indexOf(c);
      if (d < 0) return null;
      word = word * 85 + d;
    }
    if (word > 0xffffffff) return null;
    bytes.push((word >>> 24) & 0xff, (word >>> 16) & 0xff, (word >>> 8) & 0xff, word & 0xff);
  }
  return asText(Buffer.from(bytes));
}

/** `base32 -d` (`--decode`, `-i`/`--ignore-garbage`) reading stdin. */
function base32Decodes(args: readonly Word[]): Decoding | null {
  const { flags, operand } = flagsOf(args, /^-w$|^--wrap$/);
  if (operand || !(flags.has('d') || flags.has('--decode'))) return null;
  const garbage = flags.has('i') || flags.has('--ignore-garbage');
  return (text) => base32Decoded(text, garbage);
}

/** `xxd -r -p` (`-ps`, `-plain`, `-postscript`; `-rp`) reading stdin, no other option: a plain hex dump turned back into bytes; `xxd -r` alone, xxd's own dump. */
function xxdDecodes(args: readonly Word[]): Decoding | null {
  const values = args.map((a) => a.value);
  if (!values.every((v) => /^-(r|revert|p|ps|plain|postscript|rp|pr|rps)$/.test(v))) return null;
  const reverse = values.some((v) => /^-(r|revert|rp|pr|rps)$/.test(v));
  const plain = values.some((v) => /^-(p|ps|plain|postscript|rp|pr|rps)$/.test(v));
  if (!reverse) return null;
  return plain ? hexDecoded : xxdDumpDecoded;
}

/**
 * xxd's dump (`00000000: 726d 202d 7266 207e  rm -rf ~`) turned back into bytes: on each line the
 * hex after the offset, up to the two blanks before the text column; null for a line of another shape.
 */
function xxdDumpDecoded(text: string): string | null {
  let hex = '';
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const m = /^\s*[0-9a-fA-F]+: ?([0-9a-fA-F]{2,}(?: [0-9a-fA-F]{2,})*)/.exec(line);
    if (!m) return null;
    hex += m[1]!.replace(/\s+/g, '');
  }
  return hexDecoded(hex);
}

/**
 * uuencoded text (`begin 644 NAME` … `end`, or `begin-base64 644 NAME` … `====`) decoded: the
 * name its header gives and the bytes; null when it is not that.
 */
function uuDecoded(text: string): { name: string; text: string } | null {
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  const start = lines.findIndex((l) => /^begin(-base64)? [0-7]{3,4} ./.test(l));
  if (start < 0) return null;
  const header = /^begin(-base64)? [0-7]{3,4} (.*)$/.exec(lines[start]!)!;
  const body = lines.slice(start + 1);
  if (header[1]) {
    const end = body.indexOf('====');
    const decoded = base64Decoded(body.slice(0, end < 0 ? undefined : end).join(''), false);
    return decoded === null ? null : { name: header[2]!, text: decoded };
  }
  const bytes: number[] = [];
  for (const line of body) {
    const n = (line.charCodeAt(0) - 32) & 63;
    if (!line.length || n === 0) break;
    const six = [...line.slice(1)].map((c) => (c.charCodeAt(0) - 32) & 63);
    const out: number[] = [];
    for (let i = 0; i + 1 < six.length && out.length < n; i += 4) {
      const [a, b, c = 0, d = 0] = six.slice(i, i + 4) as [number, number, number?, number?];
      out.push(((a << 2) | (b >> 4)) & 0xff, ((b << 4) | (c >> 2)) & 0xff, ((c << 6) | d) & 0xff);
    }
    if (out.length < n) return null;
    bytes.push(...out.slice(0, n));
  }
  const decoded = asText(Buffer.from(bytes));
  return decoded === null ? null : { name: header[2]!, text: decoded };
}

/** Where `uudecode`'s words send what it decodes — stdout (`-p`, `-o /dev/stdout`, `-o -`), a file `-o` names, or the header's name — and whether it reads a file operand; null for an option it does not take. */
function uudecodeOutput(args: readonly Word[]): { to: 'stdout' | 'header' | string; operand: boolean } | null {
  const values = args.map((a) => a.value);
  let to: string = 'header';
  let operand = false;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    const out = v === '-o' || v === '--output-file' ? values[++i] : /^(-o|--output-file=)(.+)$/.exec(v)?.[2];
    if (out !== undefined) to = out === '/dev/stdout' || out === '-' ? 'stdout' : out;
    else if (v === '-p') to = 'stdout';
    else if (!v.startsWith('-')) operand = true;
    else if (v !== '-' && !/^-[ci]$/.test(v)) return null;
  }
  return { to, operand };
}

/**
 * `uudecode` reading stdin: what it writes to stdout — the decoding, where `-o /dev/stdout` (`-o
 * -`, BSD's `-p`) or the header's name (`/dev/stdout`) sends it there; nothing where it writes a file.
 */
function uudecodeDecodes(args: readonly Word[]): Decoding | null {
  const out = uudecodeOutput(args);
  if (out === null || out.operand) return null;
  return (text) => {
    const d = uuDecoded(text);
    if (d === null) return null;
    return out.to === 'stdout' || (out.to === 'header' && (d.name === '/dev/stdout' || d.name === '-')) ? d.text : '';
  };
}

/**
 * The file `uudecode` writes, reading `text` (a literal on its stdin, or null when the command
 * line does not tell it): the one `-o` names, else the one the text's header names (`begin 644
 * ~/.bashrc`); null when it writes to stdout or the name is not told.
 */
export function uudecodeWrites(args: readonly Word[], text: string | null): string | null {
  const out = uudecodeOutput(args);
  if (out === null || out.to === 'stdout') return null;
  if (out.to !== 'header') return out.to;
  const name = text === null || out.operand ? null : (uuDecoded(text)?.name ?? null);
  return name === null || name === '/dev/stdout' || name === '-' ? null : name;
}

/** `python3 -m base64 -d` (`-u`) reading stdin: the module's own command line. */
function pythonDecodes(args: readonly Word[]): Decoding | null {
  const values = args.map((a) => a.value);
  const m = values.indexOf('-m');
  if (m < 0 || values[m + 1] !== 'base64' || values.slice(0, m).some((v) => !/^-[IbBEsSuq]+$/.test(v))) return null;
  const rest = values.slice(m + 2).filter((v) => v !== '-');
  return rest.length === 1 && /^-[du]$/.test(rest[0]!) ? (text) => base64Decoded(text, false) : null;
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
function gzipDecodes(program: string, args: readonly Word[]): Decoding | null {
  const { flags, operand } = flagsOf(args, /^-S$|^--suffix$/);
  if (operand) return null;
  const decompress = program === 'gunzip' || program === 'zcat' || flags.has('d') || flags.has('--decompress') || flags.has('--uncompress');
  if (!decompress) return null;
  return gunzipped;
}

/**
 * The one table of the shell's decoders: by program, what it writes of a literal it reads on
 * stdin, given its words (text-filters.ts reads it through `decoding`). Homebrew's coreutils
 * spell theirs with a `g` (`gbase64`).
 */
const DECODERS: Record<string, (args: readonly Word[]) => Decoding | null> = {
  base64: base64Decodes,
  base32: base32Decodes,
  basenc: basencDecodes,
  openssl: opensslDecodes,
  xxd: xxdDecodes,
  uudecode: uudecodeDecodes,
  gunzip: (args) => gzipDecodes('gunzip', args),
  zcat: (args) => gzipDecodes('zcat', args),
  gzip: (args) => gzipDecodes('gzip', args),
  python: pythonDecodes,
};

/** What `program` (a base name) with `args` writes of a literal it reads on stdin, when it is a decoder (DECODERS); else null. */
export function stdinDecoding(program: string, args: readonly Word[]): Decoding | null {
  const name = /^python[\d.]*$/.test(program) ? 'python' : /^g(base64|base32|basenc)$/.test(program) ? program.slice(1) : program;
  return Object.hasOwn(DECODERS, name) ? DECODERS[name]!(args) : null;
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
  base32: (text) => base32Decoded(text, true),
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
