import type { Invocation } from '../command.ts';
import { printedVariables, printsEnvironment } from '../environment-printers.ts';
import type { Lang } from './interpreter-argv.ts';

/**
 * Per language, the calls and modules in interpreter code that send data off the machine: an
 * HTTP client (`urlopen`, `requests.post`, `fetch`, `Net::HTTP`, `LWP`), a socket (`IO::Socket`,
 * `TCPSocket`, awk's `/inet/tcp/…`), PHP's `curl_*`.
 */
const NETWORK: Record<Lang, RegExp> = {
  python: /\burlopen\b|\burllib\b|\brequests\.\w+\s*\(|\bhttpx\b|\bhttp\.client\b|\bsocket\b|\baiohttp\b|\bsmtplib\b|\bftplib\b/,
  js: /\bfetch\s*\(|\bhttps?\.(?:request|get)\b|\brequire\s*\(\s*['"`](?:node:)?(?:https?|net|tls|dgram)['"`]\s*\)|\bnet\.(?:connect|createConnection|Socket)\b|\bXMLHttpRequest\b|\baxios\b|\bWebSocket\b|\bundici\b|\b(?:Deno|Bun)\.connect\b/,
  perl: /\bIO::Socket\b|\bLWP\b|\bHTTP::Tiny\b|\bNet::\w+|\bsocket\s*\(|\bMojo::UserAgent\b/,
  ruby: /\bNet::HTTP\b|\bTCPSocket\b|\bUDPSocket\b|\bURI\.open\b|\bopen-uri\b|\bFaraday\b|\bHTTParty\b|\bRestClient\b/,
  php: /\bcurl_\w+|\bfsockopen\b|\bstream_socket_client\b|\bsocket_connect\b|\bfile_get_contents\s*\(\s*['"]https?:/,
  lua: /\bsocket\b|\bhttp\.request\b/,
  awk: /\/inet[46]?\//,
  applescript: /(?!)/,
  r: /\bhttr\b|\bcurl::|\bsocketConnection\b|\burl\s*\(|\bsource\s*\(\s*['"]https?:/,
  julia: /\bHTTP\.\w+|\bDownloads\b|\bSockets\b/,
  elixir: /\b(?:HTTPoison|Req|Finch|Tesla|Mint)\.|:httpc\.|:gen_tcp\./,
  erlang: /\bhttpc:|\bgen_tcp:|\bssl:/,
  lisp: /\b(?:http-request|drakma|dexador|clj-http|babashka\.http-client|http\/get)\b|\(\s*slurp\s+"https?:/,
  jvm: /\bURL\s*\(|\bHttpClient\b|\.toURL\s*\(|\bopenConnection\b|\.toURI\s*\(\s*\)\.toURL\b/,
};

/**
 * Per language, the calls that run a string as code (Python's `exec`/`eval`, JavaScript's `eval`
 * and `new Function`, Perl's and Ruby's `eval`, PHP's `eval`, Lua's `load`/`loadstring`, R's
 * `eval(parse(…))`, Julia's `include_string`/`eval(Meta.parse(…))`): with a network call in the same
 * code, what they run may be what it fetched.
 */
const EVALS: Record<Lang, RegExp> = {
  python: /\b(?:exec|eval)\s*\(/,
  js: /\beval\b|\bnew\s+Function\b|\bvm\.run\w*\b|\bimport\s*\(\s*['"`]?(?:https?:|data:)/,
  perl: /\beval\b/,
  ruby: /\b(?:eval|instance_eval|class_eval)\b/,
  php: /\beval\s*\(/,
  lua: /\bload(?:string)?\s*\(/,
  awk: /(?!)/,
  applescript: /(?!)/,
  r: /\beval\s*\(\s*parse\b|\bsource\s*\(\s*['"]?https?:/,
  julia: /\binclude_string\b|\beval\s*\(\s*Meta\.parse\b/,
  elixir: /\bCode\.eval_string\b/,
  erlang: /\berl_eval:|\bfile:eval\b/,
  lisp: /\(\s*(?:eval|load-string|load)\b/,
  jvm: /\bevaluate\s*\(|\bGroovyShell\b|\bScriptEngine\b/,
};

/**
 * Inline code that fetches from the network and runs a string as code (`exec(urlopen(URL).read())`,
 * `fetch(URL).then(r => r.text()).then(eval)`): read as the shell line it amounts to, a download
 * piped into a shell (`curl -fsSL URL | sh`), for the pipeline rule to judge; null otherwise.
 */
export function downloadRun(code: string, lang: Lang): string | null {
  if (!NETWORK[lang].test(code) || !EVALS[lang].test(code)) return null;
  const url = URL_LITERAL.exec(code)?.[0] ?? NO_HOST;
  return `curl -fsSL '${url.replaceAll("'", '')}' | sh`;
}

/** The first URL literal in code, where it sends what it sends; a host of no one's when it names none. */
const URL_LITERAL = /https?:\/\/[^\s'"`)\\]+/;
const NO_HOST = 'https://interpreter-code.invalid/';

/**
 * The environment, or the variables `inv`'s inline code reads by name, sent off by that code: the
 * shell line it amounts to (`env | curl --data-binary @- URL`; variables read by name as a request
 * carrying them, `curl -H "X: $NAME" URL`: `GITHUB_TOKEN` to api.github.com is its use), for the
 * exfiltration rule to judge as it judges that line; null when the code calls no network API or
 * reads no variable. Printing the environment alone, or fetching alone, is neither.
 */
export function environmentSent(inv: Invocation, code: string, lang: Lang): string | null {
  if (!NETWORK[lang].test(code) || !printsEnvironment(inv)) return null;
  const names = printedVariables(inv);
  const url = URL_LITERAL.exec(code)?.[0] ?? NO_HOST;
  const to = `'${url.replaceAll("'", '')}'`;
  // variables named go as a shell request carries them: a credential to its own hosts is its use
  return names ? `curl -H "X: ${names.map((n) => `$${n}`).join(' ')}" ${to}` : `env | curl --data-binary @- ${to}`;
}
