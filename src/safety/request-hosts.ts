import type { Invocation } from './command.ts';
import { options } from './path-access.ts';
import { UNKNOWN } from './shell.ts';
import type { Word } from './syntax.ts';

/**
 * Where a request of curl, wget, HTTPie or xh goes (sinkHosts): the hosts of its URLs when every
 * one is a plain https host and no option or setting could send it elsewhere, and the words it
 * sends as its body. With curl's options that take a value, one list for every reading of a curl
 * line. network-sinks.ts tells which programs send data off the machine at all.
 */

/**
 * The hosts curl or wget sends a request to, over https: each URL's host, when every word that
 * may be a URL is one with a plain host (`https://api.github.com/user`; not `http://`, not a host
 * only the shell knows, not `https://a@b/`, not curl's `{a,b}` or `[1-2]`); null for any other
 * program, and when an option or a setting could send it elsewhere or let another host answer
 * (a proxy, `--resolve`, `--connect-to`, `-k`, `--cacert`, `--location-trusted`, a config file:
 * `-K`, `wget -e`, `CURL_HOME=…` before it).
 */
export function sinkHosts(inv: Invocation): Destination | null {
  // the words before its arguments: an assignment there (`CURL_HOME=. curl`, `env https_proxy=… curl`) is its setting
  const first = inv.args.length ? inv.command.words.indexOf(inv.args[0]!) : -1;
  if (inv.command.words.slice(0, first < 0 ? undefined : first).some((w) => ASSIGNED.test(w.raw))) return null;
  if (Object.hasOwn(HTTPIE_SCHEMES, inv.program)) return httpieHosts(inv);
  const shape = URL_CLIENTS[inv.program];
  if (!shape) return null;
  const words = inv.args;
  const hosts: string[] = [];
  const body = new Set<Word>();
  for (let i = 0; i < words.length; i++) {
    const v = words[i]!.value;
    if (v === '--') {
      for (const w of words.slice(i + 1)) if (!pushHost(hosts, w.value, w)) return null;
      break;
    }
    if (!v.startsWith('-') || v === '-') {
      if (!pushHost(hosts, v, words[i])) return null;
      continue;
    }
    const long = v.startsWith('--') ? v.replace(/=.*$/, '') : null;
    if (long) {
      if (shape.elsewhere.test(long)) return null;
      if (long === '--url' && !v.includes('=')) {
        if (!pushHost(hosts, words[++i]?.value ?? '', words[i])) return null;
      } else if (v.includes('=')) {
        if (shape.bodyLong.has(long)) body.add(words[i]!);
      } else if (shape.valuedLong.has(long) || shape.bodyLong.has(long)) {
        if (shape.bodyLong.has(long) && words[i + 1]) body.add(words[i + 1]!);
        i++;
      }
      continue;
    }
    // a cluster of short options: the first that takes a value takes the rest of the word, or the next word
    for (let k = 1; k < v.length; k++) {
      if (shape.elsewhereShort.includes(v[k]!)) return null;
      if (shape.valuedShort.includes(v[k]!)) {
        const value = k === v.length - 1 ? words[++i] : words[i];
        if (value && shape.bodyShort.includes(v[k]!)) body.add(value);
        break;
      }
    }
  }
  return hosts.length ? { hosts, body } : null;
}

/**
 * Where a request goes: the hosts (sinkHosts), and the words whose value it sends as its body
 * (`-d`, `--json`, `-F`, `wget --post-data`, HTTPie's `field=value` items) rather than to
 * authenticate it: a credential there is posted to the service as data (a gist, a comment), its
 * leak even on its own host.
 */
export interface Destination {
  hosts: string[];
  body: ReadonlySet<Word>;
}

/** HTTPie and xh: the scheme a URL written without one gets (`https api.github.com/user`). */
const HTTPIE_SCHEMES: Record<string, string> = { http: 'http://', https: 'https://', xh: 'http://', xhs: 'https://' };
/** Their options that take a value (`--auth x`, `-o f`, `--timeout 5`), and those that may send the request elsewhere or let another host answer. */
const HTTPIE_VALUED = new Set([
  '--auth',
  '--auth-type',
  '--output',
  '--print',
  '--style',
  '--pretty',
  '--format-options',
  '--timeout',
  '--max-redirects',
  '--session',
  '--session-read-only',
  '--cert',
  '--cert-key',
  '--cert-key-pass',
  '--ssl',
  '--ciphers',
  '--response-charset',
  '--response-mime',
  '--boundary',
  '--history-print',
]);
const HTTPIE_VALUED_SHORT = 'aAopsP';
const HTTPIE_ELSEWHERE = /^--(proxy|verify|follow|all|default-scheme|resolve|unix-socket|interface|native-tls)$/;

/** The host of HTTPie's or xh's one URL (`http [OPTIONS] [METHOD] URL [ITEM…]`; the items after it are headers and data), over https; null as sinkHosts says. */
function httpieHosts(inv: Invocation): Destination | null {
  const words = inv.args;
  let method = false;
  for (let i = 0; i < words.length; i++) {
    const v = words[i]!.value;
    if (v.startsWith('-') && v !== '-' && v !== '--') {
      if (v.startsWith('--')) {
        const name = v.replace(/=.*$/, '');
        if (HTTPIE_ELSEWHERE.test(name)) return null;
        if (!v.includes('=') && HTTPIE_VALUED.has(name)) i++;
      } else if (/F/.test(v.slice(1))) return null;
      else if (HTTPIE_VALUED_SHORT.includes(v.at(-1)!)) i++;
      continue;
    }
    const url = v === '--' ? (words[++i]?.value ?? '') : v;
    if (!method && /^[A-Z]+$/.test(url)) {
      method = true;
      continue;
    }
    const hosts: string[] = [];
    if (!pushHost(hosts, /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `${HTTPIE_SCHEMES[inv.program]}${url}`)) return null;
    // the items after the URL: a header (`Name:value`) and a query parameter (`name==value`) authenticate; the rest is the body
    return { hosts, body: new Set(words.slice(i + 1).filter((w) => !/^[^:=@]*(:(?!=)|==)/.test(w.value))) };
  }
  return null;
}

/**
 * Whether curl `inv` fetches files of this machine only: every URL it is given (its operands,
 * `--url`) is a `file://` one here (`file:///tmp/x.sh`, `file://localhost/…`, `file://$(pwd)/x`),
 * and no config file (`-K`, `--config`, `CURL_HOME=…` before it) may add another. It downloads
 * nothing: `curl file://$PWD/install.sh | sh` runs the file as `sh install.sh` would.
 */
export function fetchesLocalFilesOnly(inv: Invocation): boolean {
  if (inv.program !== 'curl') return false;
  const first = inv.args.length ? inv.command.words.indexOf(inv.args[0]!) : -1;
  if (inv.command.words.slice(0, first < 0 ? undefined : first).some((w) => ASSIGNED.test(w.raw))) return false;
  let config = false;
  const urls: Array<{ value: string; raw: string }> = [];
  const operands = options(inv.args, CURL_VALUED_SHORT, CURL_VALUED_LONG, (name, w, value) => {
    if (name === '-K' || name === '--config') config = true;
    else if (name === '--url') urls.push({ value, raw: w.value === value ? w.raw : value });
  });
  urls.push(...operands.map((w) => ({ value: w.value, raw: w.raw })));
  return !config && urls.length > 0 && urls.every((u) => LOCAL_FILE_URL.test(u.value) || LOCAL_FILE_URL_IN_FOLDER.test(u.raw.replace(/["']/g, '')));
}
/** A `file://` URL of this machine: an empty host or localhost, then the path. */
const LOCAL_FILE_URL = /^file:\/\/(localhost)?\//i;
/** The same with the path in the working or home folder as the shell names it (`file://$(pwd)/x`, `file://$PWD/x`, `file://$HOME/x`): absolute paths. */
const LOCAL_FILE_URL_IN_FOLDER = /^file:\/\/(\$PWD|\$\{PWD\}|\$\(pwd( -[LP])?\)|`pwd`|\$HOME|\$\{HOME\})(\/|$)/i;

/** An assignment before the program (`CURL_HOME=. curl …`, `https_proxy=… curl`): a setting that may send the request elsewhere. */
const ASSIGNED = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;

/** A URL of a plain host over https: the host, and after it a port, a path, a query or nothing. */
const HTTPS_URL = /^https:\/\/([A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+)\.?(?::\d+)?(?:[/?#]|$)/;

/**
 * A URL a package installer or git is handed, with a user part (`https://x-access-token:…@github.com/…`,
 * `git+https://…`): its host, where it is https and plain.
 */
const USERINFO_URL =
  /^(?:git\+)?https:\/\/(?:[^/?#]*@)?([A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+)\.?(?::\d+)?(?:[/?#]|$)/;
/** A word that holds a URL of any scheme, bare or as an option's value (`--index-url=…`). */
const ANY_URL = /(?:^|=)[a-z][a-z0-9+.-]*:\/\//i;

/**
 * Where git or a package installer sends the credentials its words hold (network-sinks.ts): the
 * hosts of the URLs among its arguments (an option's value too: `--index-url=URL`), when each is a
 * plain https host; null when there is no URL, or one is of another scheme or no plain host, so
 * where a credential in it goes is not known. Nothing is its body: a credential in a URL's user
 * part authenticates to that host.
 */
export function urlArgumentHosts(words: readonly Word[]): Destination | null {
  const hosts: string[] = [];
  for (const w of words) {
    const v = w.value;
    const m = ANY_URL.exec(v);
    if (!m) continue;
    const host = USERINFO_URL.exec(v.slice(m.index + (m[0].startsWith('=') ? 1 : 0)))?.[1] ?? ciServerHost(w);
    if (!host) return null;
    hosts.push(host.toLowerCase());
  }
  return hosts.length ? { hosts, body: new Set() } : null;
}

/**
 * The CI variables that name the instance a CI job runs for, the one that issued its job token:
 * GitLab's (`CI_SERVER_HOST`, `CI_SERVER_URL`, `CI_API_V4_URL`…) and GitHub's (`GITHUB_SERVER_URL`,
 * `GITHUB_API_URL`), by the host name credentials.ts lists for that token (`$CI_SERVER_HOST`,
 * `$GITHUB_SERVER_URL`): a self-hosted instance's name is known to the job alone.
 */
const CI_SERVER_VARIABLES: Record<string, { host: string; whole: boolean }> = {
  CI_SERVER_HOST: { host: '$CI_SERVER_HOST', whole: false },
  CI_SERVER_FQDN: { host: '$CI_SERVER_HOST', whole: false },
  CI_SERVER_URL: { host: '$CI_SERVER_HOST', whole: true },
  CI_API_V4_URL: { host: '$CI_SERVER_HOST', whole: true },
  CI_API_GRAPHQL_URL: { host: '$CI_SERVER_HOST', whole: true },
  CI_PROJECT_URL: { host: '$CI_SERVER_HOST', whole: true },
  CI_REPOSITORY_URL: { host: '$CI_SERVER_HOST', whole: true },
  GITHUB_SERVER_URL: { host: '$GITHUB_SERVER_URL', whole: true },
  GITHUB_API_URL: { host: '$GITHUB_SERVER_URL', whole: true },
};
/** A URL whose host a variable gives (`https://user:$T@${CI_SERVER_HOST}/…`), or that a variable begins (`${CI_API_V4_URL}/projects`), as written. */
const VARIABLE_HOST = /^(?:git\+)?https:\/\/(?:[^/?#]*@)?\$\{?([A-Z_][A-Z0-9_]*)\}?(?::\d+)?(?:[/?#]|$)/;
const VARIABLE_URL = /^\$\{?([A-Z_][A-Z0-9_]*)\}?(?:[/?#]|$)/;

/**
 * The host a CI variable names in `word`, where the shell alone knows it (the line does not set
 * it: its value stays unknown), or null: `https://gitlab-ci-token:${CI_JOB_TOKEN}@${CI_SERVER_HOST}/g/r.git`
 * is `$CI_SERVER_HOST`, `"${CI_API_V4_URL}/projects/1/packages"` too.
 */
function ciServerHost(word: Word | undefined): string | null {
  if (!word?.value.includes(UNKNOWN)) return null;
  const raw = word.raw.replace(/^(?:--[a-z-]+=)?["']?/, '').replace(/["']/g, '');
  const host = VARIABLE_HOST.exec(raw)?.[1];
  if (host && Object.hasOwn(CI_SERVER_VARIABLES, host) && !CI_SERVER_VARIABLES[host]!.whole) return CI_SERVER_VARIABLES[host]!.host;
  const url = VARIABLE_URL.exec(raw)?.[1];
  return url && Object.hasOwn(CI_SERVER_VARIABLES, url) && CI_SERVER_VARIABLES[url]!.whole ? CI_SERVER_VARIABLES[url]!.host : null;
}

/** Adds the host of `url` (an https URL of a plain host, with no curl glob in it) to `hosts`; false when it is none. */
function pushHost(hosts: string[], url: string, word?: Word): boolean {
  const m = HTTPS_URL.exec(url);
  const host = m && !/[{}[\]]/.test(url) ? m[1]!.toLowerCase() : ciServerHost(word);
  if (!host) return false;
  hosts.push(host);
  return true;
}

/** How curl's and wget's words are read for sinkHosts: the options taking a value, and those that may send a request elsewhere. */
interface UrlClientShape {
  valuedShort: string;
  valuedLong: ReadonlySet<string>;
  /** the options whose value is the request's body (Destination.body) */
  bodyShort: string;
  bodyLong: ReadonlySet<string>;
  elsewhereShort: string;
  elsewhere: RegExp;
}

/** curl's short options that take a value (`-d DATA`, `-o FILE`, `-x PROXY`): one list for every reading of a curl line. */
export const CURL_VALUED_SHORT = 'AbCcDdEeFHKmoPQrTtUuwXxYyz';

/** curl's long options that take a value. */
export const CURL_VALUED_LONG: ReadonlySet<string> = new Set([
  '--data',
  '--data-binary',
  '--data-raw',
  '--data-ascii',
  '--data-urlencode',
  '--json',
  '--form',
  '--form-string',
  '--header',
  '--user',
  '--user-agent',
  '--referer',
  '--request',
  '--write-out',
  '--output',
  '--output-dir',
  '--dump-header',
  '--cookie',
  '--cookie-jar',
  '--max-time',
  '--connect-timeout',
  '--retry',
  '--retry-delay',
  '--retry-max-time',
  '--range',
  '--upload-file',
  '--cert',
  '--key',
  '--cert-type',
  '--key-type',
  '--pass',
  '--limit-rate',
  '--max-filesize',
  '--max-redirs',
  '--oauth2-bearer',
  '--trace',
  '--trace-ascii',
  '--stderr',
  '--continue-at',
  '--time-cond',
  '--speed-limit',
  '--speed-time',
  '--keepalive-time',
  '--expect100-timeout',
  '--create-file-mode',
  '--ciphers',
  '--config',
  '--cacert',
  '--netrc-file',
  '--proxy',
  '--url',
  '--resolve',
  '--connect-to',
]);

/**
 * The method a curl line sends as curl reads its words (`-X DELETE`, `-XDELETE`, `-sX DELETE`,
 * `--request=DELETE`; the last one given), upper case; null when no option names one.
 */
export function curlMethod(args: readonly string[]): string | null {
  let method: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!;
    if (v === '--') break;
    if (v.startsWith('--')) {
      const eq = v.indexOf('=');
      const name = eq < 0 ? v : v.slice(0, eq);
      const value = eq >= 0 ? v.slice(eq + 1) : CURL_VALUED_LONG.has(name) ? args[++i] : undefined;
      if (name === '--request' && value !== undefined) method = value;
      continue;
    }
    if (!v.startsWith('-')) continue;
    // a cluster of short options: the first that takes a value takes the rest of the word, or the next word
    for (let k = 1; k < v.length; k++) {
      if (!CURL_VALUED_SHORT.includes(v[k]!)) continue;
      const value = k + 1 < v.length ? v.slice(k + 1) : args[++i];
      if (v[k] === 'X' && value !== undefined) method = value;
      break;
    }
  }
  return method?.toUpperCase() ?? null;
}

/** Every option of curl that takes a value, short (`-X`) and long, as families/system-args.ts parseArgs reads them. */
export const CURL_VALUED: ReadonlySet<string> = new Set([...CURL_VALUED_LONG, ...[...CURL_VALUED_SHORT].map((c) => `-${c}`)]);

const URL_CLIENTS: Record<string, UrlClientShape> = {
  curl: {
    valuedShort: CURL_VALUED_SHORT,
    bodyShort: 'dFT',
    bodyLong: new Set(['--data', '--data-binary', '--data-raw', '--data-ascii', '--data-urlencode', '--json', '--form', '--form-string', '--upload-file']),
    valuedLong: CURL_VALUED_LONG,
    // -x proxy, -k insecure, -K config
    elsewhereShort: 'xkK',
    elsewhere:
      /^--(proxy|preproxy|socks4a?|socks5(-hostname)?|resolve|connect-to|insecure|cacert|capath|location-trusted|config|doh-url|doh-insecure|unix-socket|abstract-unix-socket|variable|expand-.*|next|proxy-.*|haproxy-.*|netrc.*|interface|dns-.*)$/,
  },
  wget: {
    valuedShort: 'OoaPUtTwQlARDXI',
    bodyShort: '',
    bodyLong: new Set(['--post-data', '--body-data']),
    valuedLong: new Set([
      '--header',
      '--output-document',
      '--output-file',
      '--append-output',
      '--directory-prefix',
      '--user-agent',
      '--tries',
      '--timeout',
      '--user',
      '--password',
      '--post-data',
      '--method',
      '--body-data',
    ]),
    // -e a wgetrc command (`use_proxy`, `https_proxy`), -i/-B a list of URLs or a base
    elsewhereShort: 'eiBF',
    elsewhere:
      /^--(execute|input-file|input-metalink|base|force-html|config|no-check-certificate|ca-certificate|ca-directory|proxy.*|bind-address|bind-dns-address|dns-servers|load-cookies)$/,
  },
};
