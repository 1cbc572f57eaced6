import type { Invocation } from './command.ts';
import { generic, options, type PathUse, use } from './path-access.ts';
import { CURL_VALUED_LONG, CURL_VALUED_SHORT } from './request-hosts.ts';

/**
 * The downloaders' paths for path-uses.ts: what curl and wget upload or read (`-d @f`, `-T f`,
 * `--post-file f`), the files they write (`-o f`, `-O f`) and the folders they write into
 * (`--output-dir`, `-P`); their other operands are read as any program's.
 */

const CURL_WRITES = new Set(['-o', '--output', '-D', '--dump-header', '-c', '--cookie-jar', '--trace', '--trace-ascii', '--stderr']);
const CURL_FILES = new Set(['-T', '--upload-file', '-K', '--config', '-E', '--cert', '--key', '--cacert', '--netrc-file']);

/** curl: what it uploads (`-d @f`, `-F 'x=<f'`, `-T f`), what it writes (`-o f`), the folder it writes into (`--output-dir`). */
export function curl(inv: Invocation): PathUse[] {
  const out: PathUse[] = [];
  const operands = options(inv.args, CURL_VALUED_SHORT, CURL_VALUED_LONG, (name, w, value) => {
    if (CURL_WRITES.has(name)) {
      if (value !== '-') out.push(use(w, value, 'write'));
    } else if (name === '--output-dir') out.push(use(w, value, 'into'));
    // `-T "{a,b}"`: curl uploads each file its braces name (with -g, the one name; both read is the safe side)
    else if (name === '-T' || name === '--upload-file') for (const file of curlAlternatives(value)) out.push(use(w, file, 'read'));
    else if (CURL_FILES.has(name)) out.push(use(w, value, 'read'));
    else if (name === '-d' || name.startsWith('--data') || name === '--json') {
      const at = value.indexOf('@');
      if (at === 0 || (name === '--data-urlencode' && at > 0)) out.push(use(w, value.slice(at + 1), 'read'));
    } else if (name === '-F' || name === '--form') {
      // `f=@file;type=…`, and curl's quoted name `f=@"file";filename=…`
      const m = /^[^=]*=[@<](?:"((?:[^"\\]|\\.)*)"|([^;]*))/.exec(value);
      if (m) out.push(use(w, m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2]!, 'read'));
    } else if ((name === '-b' || name === '--cookie') && !value.includes('=')) out.push(use(w, value, 'read'));
  });
  return [...out, ...generic(inv, operands)];
}

/** The files a curl upload's name stands for: each of its `{a,b}` group's (curl's own globbing, one group), else the name. */
function curlAlternatives(value: string): string[] {
  const m = /^([^{}]*)\{([^{}]*)\}([^{}]*)$/.exec(value);
  return m ? m[2]!.split(',').map((alt) => `${m[1]}${alt}${m[3]}`) : [value];
}

const WGET_LONG = new Set([
  '--output-document',
  '--output-file',
  '--append-output',
  '--directory-prefix',
  '--input-file',
  '--post-file',
  '--body-file',
  '--load-cookies',
  '--save-cookies',
  '--certificate',
  '--private-key',
  '--ca-certificate',
  '--execute',
  '--user-agent',
  '--header',
  '--tries',
  '--timeout',
]);

/** wget: `-O f` / `-o log` written, `-P dir` written into, `--post-file f` / `-i f` read. */
export function wget(inv: Invocation): PathUse[] {
  const out: PathUse[] = [];
  const operands = options(inv.args, 'OoaPietTwQlARDIXUB', WGET_LONG, (name, w, value) => {
    if (['-O', '--output-document', '-o', '--output-file', '-a', '--append-output', '--save-cookies'].includes(name)) {
      if (value !== '-') out.push(use(w, value, 'write'));
    } else if (name === '-P' || name === '--directory-prefix') out.push(use(w, value, 'into'));
    else if (['-i', '--input-file', '--post-file', '--body-file', '--load-cookies', '--certificate', '--private-key', '--ca-certificate'].includes(name))
      out.push(use(w, value, 'read'));
  });
  return [...out, ...generic(inv, operands)];
}

/** The name a URL's file is saved under by `curl -O` and a bare `wget URL`: its path's last part (wget's `index.html` for none). */
function remoteName(url: string, fallback: string | null): string | null {
  const path = url.replace(/[?#].*$/, '').replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
  const name = path.slice(path.lastIndexOf('/') + 1);
  return name || fallback;
}

/**
 * The files a download by curl or wget is saved in (written-scripts.ts: a file the line then runs
 * is a download run unread): curl's `-o f` and, with `-O`, each URL's own name (in `--output-dir`);
 * wget's `-O f`, else each URL's own name (in `-P`). None where it writes to stdout (`-o -`, `-O -`)
 * or for another program.
 */
export function downloadFiles(inv: Invocation): string[] {
  const files: string[] = [];
  let dir = '';
  if (inv.program === 'curl' || inv.program === 'curl.exe') {
    const operands = options(inv.args, CURL_VALUED_SHORT, CURL_VALUED_LONG, (name, _w, value) => {
      if ((name === '-o' || name === '--output') && value !== '-') files.push(value);
      else if (name === '--output-dir') dir = `${value}/`;
    });
    const remote = inv.args.some((a) => a.value === '--remote-name' || a.value === '--remote-name-all' || /^-[a-zA-Z]*O/.test(a.value));
    if (remote) for (const url of operands) files.push(...[remoteName(url.value, null)].filter((n) => n !== null).map((n) => dir + n));
    return files;
  }
  // Windows' downloaders: `certutil -urlcache -f URL FILE`, `bitsadmin /transfer NAME … URL FILE`: the file is their last operand
  const win = inv.program.toLowerCase().replace(/\.exe$/, '');
  if (win === 'certutil' || win === 'bitsadmin') {
    const values = inv.args.map((a) => a.value);
    const fetches = win === 'certutil' ? values.some((v) => /^[-/]urlcache$/i.test(v)) : values.some((v) => /^\/transfer$/i.test(v));
    const url = values.findIndex((v) => /^https?:\/\//i.test(v));
    return fetches && url >= 0 && values[url + 1] !== undefined ? [values[url + 1]!] : [];
  }
  if (inv.program !== 'wget') return [];
  let document: string | null = null;
  const operands = options(inv.args, 'OoaPietTwQlARDIXUB', WGET_LONG, (name, _w, value) => {
    if (name === '-O' || name === '--output-document') document = value;
    else if (name === '-P' || name === '--directory-prefix') dir = `${value}/`;
  });
  if (document !== null) return document === '-' ? [] : [document];
  return operands.map((url) => dir + remoteName(url.value, 'index.html'));
}
