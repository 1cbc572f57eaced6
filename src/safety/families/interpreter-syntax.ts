import { type Decoding, namedDecoding } from '../decoders.ts';
import type { Lang } from './interpreter-argv.ts';

/**
 * What each language's literals look like, as data for the reader of interpreter code
 * (interpreter-values.ts): where a string opens and what it escapes, what joins two strings,
 * which calls name the home folder or join paths, how a list opens, and which languages call
 * without parentheses.
 */

/**
 * The opening of a quote-like operator, a string in other brackets: perl `q(…)`, `qq{…}`,
 * `q!…!`; ruby `%q(…)`, `%Q[…]`. Not a hash key or argument named `q` (`q => 1`, `$h{q}`), nor a
 * method or variable (`->q(`, `$q`), nor a closing bracket as the delimiter.
 */
const QUOTE_LIKE: Partial<Record<Lang, string>> = {
  perl: '(?<![\\w$@%&>:])qq?\\s*(?=[^\\w\\s,;=#)\\]}>])',
  ruby: '%[qQ](?=[^\\w\\s=)\\]}>])',
};

/** Where a string literal opens, per language (Python's prefixes: `r'...'`, `b"..."`). */
export const STRING_OPEN: Record<Lang, string> = {
  python: `(?:(?<![\\w])[rRbBuUfF]{1,2})?['"]`,
  js: '[\'"`]',
  perl: `[\'"\`]|${QUOTE_LIKE.perl}`,
  ruby: `[\'"\`]|${QUOTE_LIKE.ruby}`,
  php: '[\'"`]',
  lua: `['"]`,
  awk: '"',
  applescript: '"',
  // an R backtick quotes a name; a Julia backtick is a command, `'` a character
  r: `['"]`,
  julia: '["`]',
  // an Elixir `'…'` is a charlist (`:os.cmd('ls')`); an Erlang or Lisp `'x` an atom or a quote
  elixir: `['"]`,
  erlang: '"',
  lisp: '"',
  jvm: `['"]`,
};
/** The characters a string literal may start with (a cheap test before the pattern). */
export const STRING_START: Record<Lang, string> = {
  python: `'"rRbBuUfF`,
  js: '\'"`',
  perl: '\'"`q',
  ruby: '\'"`%',
  php: '\'"`',
  lua: `'"`,
  awk: '"',
  applescript: '"',
  r: `'"`,
  julia: '"`',
  elixir: `'"`,
  erlang: '"',
  lisp: '"',
  jvm: `'"`,
};

/** Languages where single quotes only escape `\\` and `\'`. */
export const PLAIN_SINGLE = new Set<Lang>(['perl', 'ruby', 'php']);
export const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0', a: '\x07', b: '\b', f: '\f', v: '\v', e: '\x1b' };

/** What joins two literals into one: `+`, `.`, `..`, Python's path `/`, awk's juxtaposition. */
export const CONCAT: Record<Lang, RegExp> = {
  python: /\+|\/(?![/=])/y,
  js: /\+(?![+=])/y,
  perl: /\.(?![.=])/y,
  ruby: /\+(?![+=])/y,
  php: /\.(?![.=])/y,
  lua: /\.\.(?!\.)/y,
  awk: /(?=")|(?=ENVIRON\[)/y,
  applescript: /&/y,
  r: /(?!)/y,
  julia: /\*(?![*=])/y,
  elixir: /<>/y,
  erlang: /\+\+/y,
  lisp: /(?!)/y,
  jvm: /\+(?![+=])/y,
};

/**
 * How an atom's value follows from its literal arguments: see ATOMS; a decoding is of its first
 * argument, `codec` decodes the first by the codec the second names (none: the text as it is),
 * `pack` is perl's `pack("H*", HEX)`.
 */
export type How = 'home' | 'expand' | 'join' | 'same' | 'codec' | 'pack' | Decoding;
type Atom = [RegExp, How];
const atom = (re: string, how: How): Atom => [new RegExp(re, 'y'), how];
const HOME_KEY = `\\s*['"]HOME['"]\\s*`;
const decoding = (name: string): Decoding => namedDecoding(name)!;

/**
 * The expressions read as values: the home folder (`'home'`), and calls whose value follows from
 * their literal arguments — `~` expanded (`'expand'`), paths joined (`'join'`), the argument
 * itself (`'same'`), or the argument decoded (base64, hex, rot13: `base64.b64decode("…")`,
 * `Buffer.from("…", "hex")`, `atob("…")`, decoders.ts). Checked in order: `Path.home()` before
 * `Path(...)`.
 */
/** Python's os module, imported or reached inline (`__import__('os').environ['HOME']`). */
const PY_OS = `(?:os|__import__\\(\\s*['"]os['"]\\s*\\))`;

export const ATOMS: Record<Lang, Atom[]> = {
  python: [
    atom(
      `(?:pathlib\\.)?Path\\.home\\(\\s*\\)|${PY_OS}\\.environ\\s*\\[${HOME_KEY}\\]|${PY_OS}\\.environ\\.get\\s*\\(${HOME_KEY}\\)|${PY_OS}\\.getenv\\s*\\(${HOME_KEY}\\)`,
      'home',
    ),
    atom(`(?:os\\.path\\.|posixpath\\.)?expanduser\\b`, 'expand'),
    atom(`(?:os\\.path\\.|posixpath\\.)join\\b|(?:pathlib\\.)?(?:Pure)?(?:Posix)?Path\\b`, 'join'),
    atom(`(?:os\\.path\\.)?(?:abspath|realpath|normpath)\\b|str\\b|shlex\\.split\\b`, 'same'),
    atom(`(?:base64\\.)?(?:b64decode|standard_b64decode|decodebytes|decodestring)\\b|binascii\\.a2b_base64\\b`, decoding('base64')),
    atom(`(?:base64\\.)?urlsafe_b64decode\\b`, decoding('base64url')),
    atom(`(?:bytes|bytearray)\\.fromhex\\b|binascii\\.(?:unhexlify|a2b_hex)\\b`, decoding('hex')),
    atom(`codecs\\.decode\\b`, 'codec'),
    atom(`zlib\\.decompress\\b`, decoding('zlib')),
    atom(`gzip\\.decompress\\b`, decoding('gzip')),
  ],
  js: [
    atom(
      `(?:require\\s*\\(\\s*['"](?:node:)?os['"]\\s*\\)\\s*\\.\\s*|os\\.)?homedir\\s*\\(\\s*\\)|process\\.env(?:\\.HOME\\b|\\s*\\[${HOME_KEY}\\])|Deno\\.env\\.get\\s*\\(${HOME_KEY}\\)|Bun\\.env\\.HOME\\b`,
      'home',
    ),
    atom(`(?:require\\s*\\(\\s*['"](?:node:)?path['"]\\s*\\)\\s*\\.\\s*|path\\.(?:posix\\.)?)?(?:join|resolve)\\b`, 'join'),
    atom(`String\\b`, 'same'),
    atom(`(?:globalThis\\.|window\\.)?atob\\b`, decoding('base64')),
    atom(`Buffer\\.from\\b`, 'codec'),
    atom(`(?:zlib\\.)?(?:gunzipSync|unzipSync)\\b`, decoding('gzip')),
    atom(`(?:zlib\\.)?inflateSync\\b`, decoding('zlib')),
    atom(`(?:zlib\\.)?inflateRawSync\\b`, decoding('deflate')),
  ],
  perl: [
    atom(`\\$ENV\\s*\\{\\s*['"]?HOME['"]?\\s*\\}`, 'home'),
    atom(`(?:bsd_)?glob\\b`, 'expand'),
    atom(`(?:File::Spec->)?cat(?:file|dir)\\b`, 'join'),
    atom(`(?:MIME::Base64::)?decode_base64\\b`, decoding('base64')),
    atom(`pack\\b`, 'pack'),
  ],
  ruby: [
    atom(`Dir\\.home\\b(?:\\s*\\(\\s*\\))?|ENV\\s*\\[${HOME_KEY}\\]|ENV\\.fetch\\s*\\(${HOME_KEY}\\)|Gem\\.user_home\\b`, 'home'),
    atom(`File\\.expand_path\\b`, 'expand'),
    atom(`File\\.join\\b|Pathname(?:\\.new)?\\b`, 'join'),
    atom(`Base64\\.(?:decode64|strict_decode64)\\b`, decoding('base64')),
    atom(`Base64\\.urlsafe_decode64\\b`, decoding('base64url')),
    atom(`Zlib::Inflate\\.inflate\\b|Zlib\\.inflate\\b`, decoding('zlib')),
    atom(`Zlib\\.gunzip\\b`, decoding('gzip')),
  ],
  php: [
    atom(`getenv\\s*\\(${HOME_KEY}\\)|\\$_(?:SERVER|ENV)\\s*\\[${HOME_KEY}\\]`, 'home'),
    atom(`base64_decode\\b`, decoding('base64')),
    atom(`hex2bin\\b`, decoding('hex')),
    atom(`str_rot13\\b`, decoding('rot13')),
    atom(`gzinflate\\b`, decoding('deflate')),
    atom(`gzuncompress\\b`, decoding('zlib')),
    atom(`gzdecode\\b`, decoding('gzip')),
  ],
  lua: [atom(`os\\.getenv\\s*\\(${HOME_KEY}\\)`, 'home')],
  awk: [atom(`ENVIRON\\s*\\[\\s*"HOME"\\s*\\]`, 'home')],
  applescript: [],
  r: [atom(`Sys\\.getenv\\s*\\(${HOME_KEY}\\)`, 'home'), atom(`path\\.expand\\b`, 'expand'), atom(`file\\.path\\b`, 'join'), atom(`normalizePath\\b`, 'same')],
  julia: [
    atom(`(?:Base\\.)?homedir\\(\\s*\\)|ENV\\s*\\[${HOME_KEY}\\]`, 'home'),
    atom(`expanduser\\b`, 'expand'),
    atom(`joinpath\\b`, 'join'),
    atom(`(?:abspath|realpath|normpath|string)\\b`, 'same'),
  ],
  elixir: [
    atom(`System\\.user_home!?\\(\\s*\\)|System\\.user_home!?(?![\\w(])|System\\.get_env\\(${HOME_KEY}\\)`, 'home'),
    atom(`Path\\.expand\\b`, 'expand'),
    atom(`Path\\.join\\b`, 'join'),
  ],
  erlang: [atom(`os:getenv\\(${HOME_KEY}\\)`, 'home'), atom(`filename:join\\b`, 'join')],
  // a Lisp's call is the whole form: `(find-system-path 'home-dir)`, `(System/getProperty "user.home")`, `(getenv "HOME")`
  lisp: [
    atom(
      `\\(\\s*find-system-path\\s+(?:'|\\(quote\\s+)home-dir\\)?\\s*\\)|\\(\\s*System/getProperty\\s+"user\\.home"\\s*\\)|\\(\\s*(?:System/)?getenv\\s+"HOME"\\s*\\)|\\(\\s*user-homedir-pathname\\s*\\)`,
      'home',
    ),
  ],
  jvm: [atom(`System\\.getProperty\\(\\s*"user\\.home"\\s*\\)|System\\.getenv\\(${HOME_KEY}\\)`, 'home')],
};

/** Methods after a value that keep it (Python's `.expanduser()` expands `~`), or decode it (Ruby's `.unpack1("m")`). */
export const POSTFIX: Partial<Record<Lang, RegExp>> = {
  python: /\s*\.\s*(expanduser|resolve|absolute|strip|split|decode)\s*\(\s*(?:(['"])[\w-]*\2\s*)?\)/y,
  js: /\s*\.\s*(trim|toString)\s*\(\s*(?:(['"])[\w-]*\2\s*)?\)/y,
  // `"cm0g…".unpack1("m")`, `.unpack("m0")[0]`, `.unpack1("H*")`: base64 (`m`) and hex (`H*`) decoded (group 4: the format)
  ruby: /\s*\.\s*(?:(to_s|strip|expand_path)\b(?:\s*\(\s*\))?|(unpack1?)\s*\(?\s*(['"])(m0?|H\*)\3\s*\)?(?:\s*\[\s*0\s*\]|\s*\.\s*first\b)?)/y,
};

/** Openers of list literals per language, and where they close. */
export const LISTS: Record<Lang, RegExp> = {
  python: /[[(]/y,
  js: /\[/y,
  perl: /qw\s*([([{<\/|!])/y,
  ruby: /\[|%[wW]([([{<\/|!])/y,
  php: /\[|array\s*\(/y,
  lua: /\{/y,
  awk: /(?!)/y,
  applescript: /\{/y,
  r: /c\s*\(/y,
  julia: /\[/y,
  elixir: /\[/y,
  erlang: /\[/y,
  lisp: /(?!)/y,
  jvm: /\[/y,
};
export const CLOSER: Record<string, string> = { '(': ')', '[': ']', '{': '}', '<': '>' };

/** Languages whose calls may go without parentheses: `system "ls"`, `os.execute "ls"`. */
export const BARE = new Set<Lang>(['perl', 'ruby', 'lua', 'awk', 'applescript', 'elixir', 'lisp']);
