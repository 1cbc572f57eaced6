import { operandAt } from './argv.ts';
import type { Invocation } from './command.ts';
import { UNKNOWN } from './expand.ts';
import { parseArgs } from './families/system-args.ts';
import { CURL_VALUED, curlMethod } from './request-hosts.ts';

/**
 * One reading of a call to GitHub's REST or GraphQL API, whatever sends it — `gh api`, `hub api`,
 * `curl` to api.github.com (or a GitHub Enterprise `/api/v3`, `/api/graphql`): its method, the
 * endpoint's path, the fields of its body and, for GraphQL, the mutations it runs. The rules that
 * judge such a call (github-api-rules.ts) read this and nothing else, so the endpoint decides, not
 * the program or the spelling of its options.
 */
export interface GithubApiCall {
  /** who sends it, for the messages: `gh api`, `hub api`, `curl` */
  via: string;
  /** the HTTP method, upper case */
  method: string;
  /** the endpoint's path segments, without host, API prefix and query: `['repos', 'o', 'r', 'contents', 'a.ts']` */
  path: string[];
  /** the body's fields by name, nested names joined by `.` (`input.branch.branchName`); a value the command line does not tell holds UNKNOWN */
  fields: Map<string, string[]>;
  /** part of the body comes from a file or a program the command line does not show (`--input body.json`, `-F x=@f`, `-d @f`) */
  opaqueBody: boolean;
  /** the GraphQL mutations it runs, by field name (`mergePullRequest`); empty for REST and for queries */
  mutations: string[];
  /** for GraphQL: the arguments written in the document (`branchName: "main"`), a `$variable` replaced by the field it names */
  arguments: Map<string, string[]>;
  /** the `gh` verb that makes the call, as the messages name it (`gh secret set`); none for `gh api`, `hub api`, curl (gh-verb-calls.ts) */
  command?: string;
}

/** The options of `gh api` and `hub api` that take a value. */
const API_VALUED: ReadonlySet<string> = new Set([
  '-X',
  '--method',
  '-H',
  '--header',
  '-f',
  '--raw-field',
  '-F',
  '--field',
  '--input',
  '-q',
  '--jq',
  '-t',
  '--template',
  '--hostname',
  '--cache',
  '-p',
  '--preview',
]);

/** `gh`'s global options before the subcommand that take a value. */
const GH_VALUED: ReadonlySet<string> = new Set(['-R', '--repo', '--hostname']);

/** Every option of a `gh` line that takes a value, its global ones and `gh api`'s: where a `gh` check finds its operands. */
export const GH_LINE_VALUED: ReadonlySet<string> = new Set([...GH_VALUED, ...API_VALUED]);

/** The GitHub API's hosts: api.github.com, uploads.github.com (release assets), a GitHub Enterprise server's `/api/v3`, `/api/uploads` or `/api/graphql`. */
const API_URL = /^(?:https?:\/\/)?(?:(?:api|uploads)\.github\.com(?::\d+)?(?=[/?#]|$)|[^/\s?#]+(?=\/api\/(?:v3|uploads|graphql)(?:[/?#]|$)))/i;
/** The API's prefix on a GitHub Enterprise server: `/api/v3/repos/…` is `repos/…`, `/api/graphql` is `graphql`. */
const ENTERPRISE_PREFIX = /^\/api\/(?:v3|uploads)(?=[/?#]|$)|^\/api(?=\/graphql)/;

/** The text a command reads on its stdin from a here-string or heredoc (or a static earlier stage: command-checks.ts adds it as one). */
function stdinText(inv: Invocation): string | null {
  return inv.command.redirects.findLast((r) => r.input !== null)?.input ?? null;
}

/** The GitHub API call an invocation makes, or null when it makes none. */
export function readGithubApi(inv: Invocation): GithubApiCall | null {
  if (inv.program === 'curl') return readCurl(inv);
  if (inv.program !== 'gh' && inv.program !== 'hub') return null;
  const args = inv.args.map((a) => a.value);
  const i = operandAt(args, GH_VALUED);
  if (args[i] !== 'api') return null;
  const raws = inv.args.slice(i + 1).map((a) => a.raw);
  return readApiCommand(`${inv.program} api`, args.slice(i + 1), raws, stdinText(inv));
}

/**
 * `gh api [flags] <endpoint>`: GET unless fields or `--input` make it a POST, or `-X` says
 * otherwise. `raws` are the words as written: a GraphQL document the shell builds
 * (`-f query="$(cat <<'EOF' … EOF)"`) is read from them.
 */
function readApiCommand(via: string, args: string[], raws: string[], stdin: string | null): GithubApiCall | null {
  const endpoint = args[operandAt(args, API_VALUED)];
  if (endpoint === undefined) return null;
  const call = emptyCall(via, endpointPath(endpoint));
  let method: string | null = null;
  let bodied = false;
  let rawDocument: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    const opt = splitOption(a);
    if (!opt) continue;
    const value = opt.value ?? args[++i] ?? '';
    const raw = raws[i] ?? '';
    switch (opt.name) {
      case '-X':
      case '--method':
        method = value.toUpperCase();
        break;
      case '-f':
      case '--raw-field':
      case '-F':
      case '--field': {
        bodied = true;
        const eq = value.indexOf('=');
        const key = fieldKey(eq < 0 ? value : value.slice(0, eq));
        const v = eq < 0 ? '' : value.slice(eq + 1);
        // `-F key=@file` reads the value from a file (`@-`: stdin)
        const typed = opt.name === '-F' || opt.name === '--field';
        if (typed && v.startsWith('@')) {
          call.opaqueBody = true;
          addField(call.fields, key, v === '@-' && stdin !== null ? stdin : UNKNOWN);
        } else addField(call.fields, key, v);
        if (key === 'query' && v.includes(UNKNOWN)) rawDocument = raw;
        break;
      }
      case '--input':
        bodied = true;
        readJsonBody(call, value === '-' ? stdin : null);
        break;
    }
  }
  call.method = method ?? (bodied || call.path[0] === 'graphql' ? 'POST' : 'GET');
  if (call.path[0] === 'graphql') readGraphql(call, rawDocument);
  return call;
}

/** An option word as its name and, when attached (`--method=PUT`, `-XPUT`), its value; null for an operand or a flag that takes none. */
function splitOption(a: string): { name: string; value: string | null } | null {
  if (a.length < 2 || a[0] !== '-') return null;
  if (a.startsWith('--')) {
    const eq = a.indexOf('=');
    const name = eq < 0 ? a : a.slice(0, eq);
    if (!API_VALUED.has(name)) return null;
    return { name, value: eq < 0 ? null : a.slice(eq + 1) };
  }
  const name = a.slice(0, 2);
  if (!API_VALUED.has(name)) return null;
  // `-XPUT`, and `-X=PUT` as pflag reads it
  return { name, value: a.length > 2 ? a.slice(a[2] === '=' ? 3 : 2) : null };
}

/** `input[branch][branchName]` -> `input.branch.branchName`; `labels[]` -> `labels`. */
function fieldKey(raw: string): string {
  return raw.replace(/\[\]$/, '').replace(/\[([^\]]*)\]/g, '.$1');
}

function addField(fields: Map<string, string[]>, key: string, value: string): void {
  const list = fields.get(key);
  if (list) list.push(value);
  else fields.set(key, [value]);
}

function emptyCall(via: string, path: string[]): GithubApiCall {
  return { via, method: 'GET', path, fields: new Map(), opaqueBody: false, mutations: [], arguments: new Map() };
}

/** The path segments of an endpoint: `/repos/o/r/contents/a.ts?ref=x` and `https://api.github.com/repos/o/r/contents/a.ts` -> `repos o r contents a.ts`. */
function endpointPath(endpoint: string): string[] {
  const m = API_URL.exec(endpoint);
  const rest = m ? endpoint.slice(m[0].length).replace(ENTERPRISE_PREFIX, '') : endpoint;
  const path = rest.replace(/[?#].*$/s, '');
  // `heads%2Fmain` is `heads/main` to GitHub
  return path
    .split('/')
    .map(decode)
    .join('/')
    .split('/')
    .filter((s) => s !== '');
}

/** A path segment as the server reads it (`%2F` is `/`). */
function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** A JSON body: each leaf as a field (`{"branch": "main"}` -> `branch`); a body the command line does not show makes the call opaque. */
function readJsonBody(call: GithubApiCall, text: string | null): void {
  let body: unknown;
  try {
    body = text === null || text.includes(UNKNOWN) ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (body === undefined || typeof body !== 'object' || body === null) {
    call.opaqueBody = true;
    return;
  }
  if (!flatten(body, call.fields)) call.opaqueBody = true;
}

/** How deep a JSON body is read: GitHub's bodies are a few levels deep; what lies deeper is taken as unknown. */
const MAX_JSON_DEPTH = 16;

/** Each leaf of a JSON value as a field, nested names joined by `.`, arrays as their elements; false when some lay too deep to read. */
function flatten(body: object, fields: Map<string, string[]>): boolean {
  let whole = true;
  const stack: Array<[unknown, string, number]> = [[body, '', 0]];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [value, key, depth] = item;
    if (typeof value !== 'object' || value === null) addField(fields, key, String(value));
    else if (depth >= MAX_JSON_DEPTH) whole = false;
    else if (Array.isArray(value)) for (const v of value) stack.push([v, key, depth + 1]);
    else for (const [k, v] of Object.entries(value)) stack.push([v, key ? `${key}.${k}` : k, depth + 1]);
  }
  return whole;
}

/** The options of curl that send a body, as `-d` does (POST unless `-X` or `-G` says otherwise). */
const CURL_DATA = new Set(['-d', '--data', '--data-raw', '--data-binary', '--data-ascii', '--data-urlencode', '--json']);
/** `curl -sX PUT -H 'Authorization: …' https://api.github.com/repos/o/r/contents/a.ts -d '{…}'`: the same call as `gh api` makes. */
function readCurl(inv: Invocation): GithubApiCall | null {
  // curl's words read the getopt way, with request-hosts.ts's table of its options that take a value
  const parsed = parseArgs(inv.args, CURL_VALUED);
  let url: string | null = null;
  let upload = false;
  const bodies: string[] = [];
  for (const { name, value } of parsed.valued) {
    if (CURL_DATA.has(name)) bodies.push(value);
    else if (name === '-T' || name === '--upload-file') upload = true;
    else if (name === '--url' && API_URL.test(value)) url = value;
  }
  for (const w of parsed.operands) if (API_URL.test(w.value)) url = w.value;
  if (url === null) return null;
  const head = parsed.flags.has('I') || parsed.flags.has('--head');
  const get = parsed.flags.has('G') || parsed.flags.has('--get');
  const call = emptyCall('curl', endpointPath(url));
  call.method = curlMethod(inv.args.map((a) => a.value)) ?? (upload ? 'PUT' : head ? 'HEAD' : get ? 'GET' : bodies.length ? 'POST' : 'GET');
  for (const b of bodies) readJsonBody(call, b.startsWith('@') ? (b === '@-' ? stdinText(inv) : null) : b);
  if (call.path[0] === 'graphql') readGraphql(call);
  return call;
}

/**
 * GraphQL's punctuation, words, strings and comments. A string or block string not closed runs to
 * the end of its line or of the text: each token is then found in one pass, whatever quotes the
 * text holds.
 */
const GRAPHQL_TOKEN = /"""[\s\S]*?(?:"""|$(?![\s\S]))|"(?:[^"\\\n]|\\[^\n])*(?:"|\\?$)|#[^\n]*|[A-Za-z_]\w*|\$\w+|[^\s]/gm;

/**
 * The mutations a GraphQL document runs (`mutation { a: mergePullRequest(…) { … } }` ->
 * `mergePullRequest`) and the arguments written in it, a `$variable` replaced by the values of
 * the field of that name (gh api sends every field but `query` as a variable). A document the
 * shell builds is read as written (`raw`), from its first `mutation` on: its mutations are named
 * there, its arguments taken as unknown.
 */
function readGraphql(call: GithubApiCall, raw: string | null = null): void {
  let doc = call.fields.get('query')?.[0];
  if (doc === undefined) return;
  if (raw !== null) {
    const at = raw.search(/\bmutation\b/);
    if (at < 0) return;
    doc = raw.slice(at).replace(/\\"/g, '"');
    call.opaqueBody = true;
  }
  // the tokens one at a time, with the two after each: a long document makes no array of them
  const re = new RegExp(GRAPHQL_TOKEN.source, GRAPHQL_TOKEN.flags);
  const next = () => re.exec(doc)?.[0];
  let depth = 0;
  let parens = 0;
  let inMutation = false;
  for (let t = next(), t1 = next(), t2 = next(); t !== undefined; t = t1, t1 = t2, t2 = next()) {
    if (t.startsWith('#') || t.startsWith('"')) continue;
    if (t === '(') parens++;
    else if (t === ')') parens = Math.max(0, parens - 1);
    else if (parens > 0) {
      if (inMutation && raw === null && /^[A-Za-z_]/.test(t) && t1 === ':') argument(call, t, t2);
    } else if (t === '{') depth++;
    else if (t === '}') {
      if (--depth === 0) inMutation = false;
    } else if (depth === 0 && t === 'mutation') inMutation = true;
    else if (inMutation && depth === 1 && /^[A-Za-z_]/.test(t) && t1 !== ':') call.mutations.push(t);
  }
  if (doc.includes(UNKNOWN)) call.opaqueBody = true;
}

/** One argument written in a mutation: a string, a boolean or a `$variable` (its field's values, or UNKNOWN). */
function argument(call: GithubApiCall, name: string, value: string | undefined): void {
  if (value === undefined) return;
  let values: string[];
  if (value.startsWith('"""')) values = [value.slice(3, -3)];
  else if (value.startsWith('"')) values = [graphqlString(value)];
  else if (value.startsWith('$')) values = call.fields.get(value.slice(1)) ?? [UNKNOWN];
  else if (value === 'true' || value === 'false') values = [value];
  else return;
  const list = call.arguments.get(name);
  if (list) list.push(...values);
  else call.arguments.set(name, values);
}

/** A GraphQL string literal's text (its escapes are JSON's); one JSON cannot read is taken as written. */
function graphqlString(literal: string): string {
  try {
    return JSON.parse(literal) as string;
  } catch {
    return literal.slice(1, -1);
  }
}

/** The values of a body field, or of a GraphQL argument; those of a field whose value the command line does not tell are UNKNOWN. */
export function fieldValues(call: GithubApiCall, name: string): string[] {
  const given = call.fields.get(name) ?? call.arguments.get(name);
  if (given) return given;
  // `-F input[branch][branchName]=main` (a variable's nested field) and `{"input": {"force": true}}`
  const nested: string[] = [];
  for (const [k, v] of call.fields) if (k.endsWith(`.${name}`)) nested.push(...v);
  if (nested.length) return nested;
  return call.opaqueBody ? [UNKNOWN] : [];
}

/** `gh repo edit --visibility public`, `gh repo create x --public --push`: the `gh` verbs that make a repository's code public, or null. */
export function ghRepoVisibility(inv: Invocation): 'edit' | 'create' | null {
  if (inv.program !== 'gh') return null;
  const args = inv.args.map((a) => a.value);
  const i = operandAt(args, GH_VALUED);
  if (args[i] !== 'repo') return null;
  const verb = args[operandAt(args, GH_VALUED, i + 1)];
  const has = (name: string) => args.some((a) => a === name || (a.startsWith(`${name}=`) && a !== `${name}=false`));
  if (verb === 'edit') {
    const v = args.findIndex((a) => a === '--visibility' || a.startsWith('--visibility='));
    const value = v < 0 ? null : args[v]!.includes('=') ? args[v]!.slice(13) : args[v + 1];
    return value?.toLowerCase() === 'public' ? 'edit' : null;
  }
  if (verb === 'create' && has('--public') && has('--push')) return 'create';
  return null;
}
