/**
 * A small TOML reader for manifests (pyproject.toml, Cargo.toml, Pipfile): tables, array tables,
 * dotted keys, the four string forms, arrays and inline tables. Dates and numbers are kept as
 * written. A line it cannot read is skipped and the first such line is reported; it never throws.
 */

export type TomlValue = string | number | boolean | TomlValue[] | TomlTable;
export interface TomlTable {
  [key: string]: TomlValue;
}

export interface TomlDoc {
  root: TomlTable;
  /** the first problem met, "line N: ...", or null */
  error: string | null;
}

class TomlError extends Error {}

const table = (): TomlTable => Object.create(null) as TomlTable;
const isTable = (v: unknown): v is TomlTable => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Parses TOML text; see the file comment for what it reads. */
export function parseToml(text: string): TomlDoc {
  const p = new Parser(text.replace(/\r\n?/g, '\n'));
  return p.parse();
}

/** The value at a dotted path of plain keys ("tool.poetry.name"), or undefined. */
export function tomlGet(root: TomlTable, path: string): TomlValue | undefined {
  let v: TomlValue | undefined = root;
  for (const k of path.split('.')) {
    if (!isTable(v) || !Object.hasOwn(v, k)) return undefined;
    v = v[k];
  }
  return v;
}

/** A table at a path, or null. */
export function tomlTable(root: TomlTable, path: string): TomlTable | null {
  const v = tomlGet(root, path);
  return isTable(v) ? v : null;
}

/** A string at a path, or null. */
export function tomlString(root: TomlTable, path: string): string | null {
  const v = tomlGet(root, path);
  return typeof v === 'string' ? v : null;
}

/** The strings of an array at a path ([] when absent). */
export function tomlStrings(root: TomlTable, path: string): string[] {
  const v = tomlGet(root, path);
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

class Parser {
  private i = 0;
  private readonly root = table();
  private current = this.root;
  private error: string | null = null;
  constructor(private readonly s: string) {}

  parse(): TomlDoc {
    for (;;) {
      this.skip(true);
      if (this.i >= this.s.length) break;
      try {
        if (this.s[this.i] === '[') this.header();
        else this.keyValue(this.current);
        this.lineEnd();
      } catch (err) {
        this.error ??= `line ${this.lineNo()}: ${(err as Error).message}`;
        const nl = this.s.indexOf('\n', this.i);
        this.i = nl < 0 ? this.s.length : nl + 1;
      }
    }
    return { root: this.root, error: this.error };
  }

  private header(): void {
    const array = this.s.startsWith('[[', this.i);
    this.i += array ? 2 : 1;
    const keys = this.keyPath();
    if (!this.s.startsWith(array ? ']]' : ']', this.i)) throw new TomlError('table header is not closed');
    this.i += array ? 2 : 1;
    let t = this.root;
    for (const [n, k] of keys.entries()) {
      const last = n === keys.length - 1;
      let v = Object.hasOwn(t, k) ? t[k] : undefined;
      if (last && array) {
        if (v === undefined) t[k] = v = [];
        if (!Array.isArray(v)) throw new TomlError(`${keys.join('.')} is not an array of tables`);
        const next = table();
        v.push(next);
        t = next;
        continue;
      }
      if (v === undefined) t[k] = v = table();
      if (Array.isArray(v) && isTable(v.at(-1))) v = v.at(-1)!;
      if (!isTable(v)) throw new TomlError(`${keys.join('.')} is not a table`);
      t = v;
    }
    this.current = t;
  }

  private keyValue(into: TomlTable): void {
    const keys = this.keyPath();
    if (this.s[this.i] !== '=') throw new TomlError('expected "=" after a key');
    this.i++;
    this.skip(false);
    const value = this.value();
    let t = into;
    for (const k of keys.slice(0, -1)) {
      if (!Object.hasOwn(t, k)) t[k] = table();
      const v = t[k];
      if (!isTable(v)) throw new TomlError(`${keys.join('.')}: ${k} is not a table`);
      t = v;
    }
    t[keys.at(-1)!] = value;
  }

  private keyPath(): string[] {
    const keys: string[] = [];
    for (;;) {
      this.skip(false);
      const c = this.s[this.i];
      if (c === '"' || c === "'") keys.push(this.quoted(c));
      else {
        const m = /^[A-Za-z0-9_-]+/.exec(this.s.slice(this.i, this.i + 256));
        if (!m) throw new TomlError('expected a key');
        keys.push(m[0]);
        this.i += m[0].length;
      }
      this.skip(false);
      if (this.s[this.i] !== '.') return keys;
      this.i++;
    }
  }

  private value(): TomlValue {
    const s = this.s;
    const c = s[this.i];
    if (s.startsWith('"""', this.i) || s.startsWith("'''", this.i)) return this.multiline(s.slice(this.i, this.i + 3));
    if (c === '"' || c === "'") return this.quoted(c);
    if (c === '[') return this.array();
    if (c === '{') return this.inline();
    const m = /^[^,\]}\n#]*/.exec(s.slice(this.i, this.i + 1024))!;
    const raw = m[0].trim();
    if (raw === '') throw new TomlError('expected a value');
    this.i += m[0].length;
    if (raw === 'true' || raw === 'false') return raw === 'true';
    if (/^[+-]?\d[\d_]*(?:\.[\d_]+)?(?:[eE][+-]?\d+)?$/.test(raw)) return Number(raw.replace(/_/g, ''));
    return raw;
  }

  private quoted(q: string): string {
    const start = ++this.i;
    let out = '';
    for (; this.i < this.s.length; this.i++) {
      const c = this.s[this.i]!;
      if (c === '\n') break;
      if (c === q) {
        this.i++;
        return q === "'" ? this.s.slice(start, this.i - 1) : out;
      }
      if (c === '\\' && q === '"') out += this.escape();
      else out += c;
    }
    throw new TomlError('string is not closed on its line');
  }

  private multiline(q: string): string {
    const start = this.i + 3;
    const end = this.s.indexOf(q, start);
    if (end < 0) throw new TomlError('multi-line string is not closed');
    let body = this.s.slice(start, end).replace(/^\n/, '');
    this.i = end + 3;
    // up to two more quote characters may close the string: they belong to it
    for (let k = 0; k < 2 && this.s[this.i] === q[0]; k++) {
      body += q[0];
      this.i++;
    }
    if (q === '"""')
      body = body.replace(/\\\s*\n\s*/g, '').replace(/\\(["\\ntbfr])/g, (_m, e: string) => ({ n: '\n', t: '\t', b: '\b', f: '\f', r: '\r' })[e] ?? e);
    return body;
  }

  private escape(): string {
    const e = this.s[++this.i];
    const map: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '"': '"', '\\': '\\' };
    if (e !== undefined && Object.hasOwn(map, e)) return map[e]!;
    if (e === 'u' || e === 'U') {
      const len = e === 'u' ? 4 : 8;
      const hex = this.s.slice(this.i + 1, this.i + 1 + len);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== len) throw new TomlError('bad unicode escape');
      this.i += len;
      const cp = parseInt(hex, 16);
      return cp <= 0x10ffff ? String.fromCodePoint(cp) : '\uFFFD';
    }
    throw new TomlError('bad escape in a string');
  }

  private array(): TomlValue[] {
    this.i++;
    const out: TomlValue[] = [];
    for (;;) {
      this.skip(true);
      if (this.s[this.i] === ']') {
        this.i++;
        return out;
      }
      if (this.i >= this.s.length) throw new TomlError('array is not closed');
      out.push(this.value());
      this.skip(true);
      if (this.s[this.i] === ',') this.i++;
      else if (this.s[this.i] !== ']') throw new TomlError('expected "," or "]" in an array');
    }
  }

  private inline(): TomlTable {
    this.i++;
    const t = table();
    for (;;) {
      this.skip(false);
      if (this.s[this.i] === '}') {
        this.i++;
        return t;
      }
      this.keyValue(t);
      this.skip(false);
      if (this.s[this.i] === ',') this.i++;
      else if (this.s[this.i] !== '}') throw new TomlError('expected "," or "}" in an inline table');
    }
  }

  /** Skips spaces and tabs, and with `newlines` also line ends and comments. */
  private skip(newlines: boolean): void {
    const s = this.s;
    while (this.i < s.length) {
      const c = s[this.i];
      if (c === ' ' || c === '\t') this.i++;
      else if (newlines && c === '\n') this.i++;
      else if (newlines && c === '#') while (this.i < s.length && s[this.i] !== '\n') this.i++;
      else break;
    }
  }

  private lineEnd(): void {
    this.skip(false);
    if (this.s[this.i] === '#') while (this.i < this.s.length && this.s[this.i] !== '\n') this.i++;
    if (this.i < this.s.length && this.s[this.i] !== '\n') throw new TomlError('unexpected text after a value');
  }

  private lineNo(): number {
    let n = 1;
    for (let k = 0; k < this.i && k < this.s.length; k++) if (this.s[k] === '\n') n++;
    return n;
  }
}
