/**
 * Small careful readers for XML manifests (pom.xml, *.csproj) and Gradle/Groovy/Kotlin build
 * scripts: enough to find elements and string literals, with comments taken out first.
 */

/** XML without comments and CDATA sections. */
export function stripXmlComments(xml: string): string {
  return xml.replace(/<!--[\s\S]*?(?:-->|$)/g, ' ').replace(/<!\[CDATA\[[\s\S]*?(?:\]\]>|$)/g, ' ');
}

/** Inner text of every `<tag ...>...</tag>` (not nested in itself). */
export function xmlBlocks(xml: string, tag: string): string[] {
  const re = new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}\\s*>`, 'g');
  return [...xml.matchAll(re)].map((m) => m[1]!);
}

/** Trimmed text of the first `<tag>text</tag>`, or null. */
export function xmlText(xml: string, tag: string): string | null {
  const b = xmlBlocks(xml, tag)[0];
  if (b === undefined) return null;
  const t = decodeEntities(b.replace(/<[^>]*>/g, '')).trim();
  return t === '' ? null : t;
}

/** `xml` with every `<tag>...</tag>` of the given tags removed (self-closing ones too). */
export function withoutBlocks(xml: string, tags: readonly string[]): string {
  let out = xml;
  for (const tag of tags) out = out.replace(new RegExp(`<${tag}(?:\\s[^>]*)?(?:/>|>[\\s\\S]*?</${tag}\\s*>)`, 'g'), ' ');
  return out;
}

/** Attributes of every `<tag .../>` or `<tag ...>` start tag: lower-cased name -> value. */
export function xmlStartTags(xml: string, tag: string): Array<Record<string, string>> {
  const re = new RegExp(`<${tag}(\\s[^>]*?)?/?>`, 'g');
  return [...xml.matchAll(re)].map((m) => {
    const attrs: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const a of (m[1] ?? '').matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) attrs[a[1]!.toLowerCase()] = decodeEntities(a[2] ?? a[3] ?? '');
    return attrs;
  });
}

function decodeEntities(s: string): string {
  return s.replace(/&(lt|gt|amp|quot|apos);/g, (_m, e: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" })[e] ?? _m);
}

/**
 * A Groovy/Kotlin build script without comments; string literals are kept (a URL's `//` inside
 * quotes is not a comment).
 */
export function stripCodeComments(src: string): string {
  let out = '';
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === '"' || c === "'") {
      const start = i;
      for (i++; i < src.length && src[i] !== c && src[i] !== '\n'; i++) if (src[i] === '\\') i++;
      out += src.slice(start, i + 1);
    } else if (c === '/' && src[i + 1] === '/') {
      while (i < src.length && src[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && src[i + 1] === '*') {
      const end = src.indexOf('*/', i + 2);
      i = end < 0 ? src.length : end + 1;
      out += ' ';
    } else out += c;
  }
  return out;
}

/** Maven-style coordinates in string literals of a build script: "group:artifact[:version]". */
export function coordinates(src: string): Array<{ group: string; artifact: string; version: string | null }> {
  const out: Array<{ group: string; artifact: string; version: string | null }> = [];
  for (const m of src.matchAll(/["']([A-Za-z0-9_.-]+):([A-Za-z0-9_.-]+)(?::([^"'@:\s]+))?(?:[:@][^"']*)?["']/g)) {
    out.push({ group: m[1]!, artifact: m[2]!, version: m[3] ?? null });
  }
  return out;
}
