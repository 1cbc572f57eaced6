import type { Invocation } from './command.ts';
import type { Finding } from './git-rules.ts';
import { UNKNOWN } from './shell.ts';
import { plainWord, type SimpleCommand } from './syntax.ts';

/**
 * PowerShell's download-and-run, read as `curl URL | sh` is (bash-rules.ts checkPipelines judges
 * the download it is handed): code that evaluates what it fetched — `iex (irm URL)`,
 * `Invoke-Expression (Invoke-RestMethod URL)`, `iex ((New-Object Net.WebClient).DownloadString(URL))`,
 * `[scriptblock]::Create((irm URL))`, a variable holding a download evaluated (`$s = irm URL; iex
 * $s`), a file a download wrote run (`iwr URL -OutFile i.ps1; ./i.ps1`) — on the command line or in
 * the code pwsh and powershell are handed (`-Command`, `-c`, `-EncodedCommand`: its base64 of
 * UTF-16LE text decoded; one that decodes to no text is code nobody can read). `irm URL | iex` is
 * a pipeline the shell parser reads already.
 */

/** PowerShell 7's and Windows PowerShell's programs. */
const POWERSHELLS = /^(?:pwsh|powershell)(?:\.exe)?$/i;

/** PowerShell's commands that run a string as code. */
const EVALUATES = /^(?:iex|invoke-expression)$/i;

/** What fetches from the web in PowerShell: the cmdlets and their aliases (`curl` and `wget` are Invoke-WebRequest in Windows PowerShell), WebClient's and HttpClient's readers. */
const DOWNLOAD =
  /\b(?:irm|iwr|invoke-restmethod|invoke-webrequest|curl|wget|start-bitstransfer)\b|\.download(?:string|data|file)(?:async)?\s*\(|\.getstring(?:async)?\s*\(/i;

/** A script block made from a string, which `&` or `.Invoke()` runs. */
const SCRIPT_BLOCK = /\[scriptblock\]\s*::\s*create\s*\(/i;
/** What runs a string as code: Invoke-Expression and its alias, a script block made from it. */
const EVAL = new RegExp(`\\b(?:iex|invoke-expression)\\b|${SCRIPT_BLOCK.source}`, 'i');

/** pwsh's and powershell's parameters that take a value, each with the shortest start of its name PowerShell takes for it (any case). */
const VALUED: ReadonlyArray<readonly [string, number]> = [
  ['executionpolicy', 2],
  ['ep', 2],
  ['windowstyle', 1],
  ['version', 1],
  ['outputformat', 1],
  ['inputformat', 2],
  ['configurationname', 6],
  ['configurationfile', 6],
  ['psconsolefile', 2],
  ['workingdirectory', 2],
  ['wd', 2],
  ['settingsfile', 2],
  ['custompipename', 2],
  ['encodedarguments', 8],
  ['ea', 2],
];

/** What a command hands PowerShell to run: its code, or that the code it hands is unreadable; null where it runs none of its own (a script file, no program of PowerShell's). */
export function powershellCode(inv: Invocation): { code: string } | { unreadable: string } | null {
  if (!POWERSHELLS.test(inv.program)) return null;
  const args = inv.args.map((a) => a.value);
  const windows = /^powershell/i.test(inv.program);
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!/^[-/]/.test(a) || a === '-') {
      // Windows PowerShell runs the words left as a command; pwsh runs its first as a script file
      return windows ? { code: args.slice(i).join(' ') } : null;
    }
    const name = a.slice(1).toLowerCase();
    if (isParameter(name, 'command', 1)) return args[i + 1] === undefined || args[i + 1] === '-' ? null : { code: args.slice(i + 1).join(' ') };
    if (isParameter(name, 'encodedcommand', 1) || name === 'ec') return decoded(args[i + 1] ?? '');
    if (isParameter(name, 'file', 1)) return null;
    if (VALUED.some(([p, least]) => isParameter(name, p, least))) i++;
  }
  return null;
}

/** Whether `name` spells parameter `full` (a start of it at least `least` long). */
function isParameter(name: string, full: string, least: number): boolean {
  return name.length >= least && full.startsWith(name);
}

/** -EncodedCommand's value as the text it encodes (base64 of UTF-16LE), or unreadable: a value only the shell knows, or one that is no such text. */
function decoded(value: string): { code: string } | { unreadable: string } {
  const shown = value.length > 40 ? `${value.slice(0, 37)}...` : value;
  if (!value || value.includes(UNKNOWN) || !/^[A-Za-z0-9+/]+={0,2}$/.test(value) || value.length % 4 === 1) return { unreadable: shown };
  const bytes = Buffer.from(value, 'base64');
  const text = bytes.length % 2 === 0 ? bytes.toString('utf16le') : '';
  // text, not bytes: printable characters and whitespace only
  return text && !/[^\t\n\r\x20-\x7e\u00a0-\uffff]|[\ud800-\udfff]/.test(text) ? { code: text } : { unreadable: shown };
}

/** The finding for code handed PowerShell that no one can read. */
export function unreadableCode(program: string, shown: string): Finding {
  return {
    rule: 'powershell.encoded',
    reason: `\`${program} -EncodedCommand ${shown}\` runs code that does not decode to text, so nobody can read what it runs; write the command out with -Command`,
  };
}

/**
 * The download a walked line runs as PowerShell would, with the command that evaluates it: a
 * command of the line is `iex` or `Invoke-Expression` (backticks in its name dropped, as PowerShell
 * reads ``i`e`x``), or it makes a script block (`& ([scriptblock]::Create((irm URL)))`); null for none.
 */
export function lineDownload(src: string, commands: readonly SimpleCommand[]): { cmd: SimpleCommand; url: string } | null {
  const block = SCRIPT_BLOCK.test(src);
  const cmd = commands.find((c) => block || EVALUATES.test(c.words[0]?.raw.replace(/[`'"]/g, '') ?? ''));
  const url = cmd ? evaluatedDownload(src) : null;
  return cmd && url ? { cmd, url } : null;
}

/**
 * The URL (or `a download` where none is written out) that PowerShell `code` runs unread: a
 * statement that evaluates a download or a variable assigned one, or runs a file a download wrote;
 * null where it runs none. Backtick escapes (`i`e`x`) are read as PowerShell reads them.
 */
export function evaluatedDownload(code: string): string | null {
  const text = code.replace(/`(?=[A-Za-z])/g, '');
  const fetched = new Map<string, string>();
  const files = new Map<string, string>();
  for (const statement of text.split(/[;\n]|&&|\|\|/)) {
    const url = /https?:\/\/[^\s'"()]+/.exec(statement)?.[0] ?? 'a download';
    const downloads = DOWNLOAD.test(statement);
    // `iwr URL -OutFile i.ps1`: the file holds the download
    // `Start-BitsTransfer -Source URL -Destination p.exe`, `(New-Object Net.WebClient).DownloadFile('URL', 'p.exe')`: so does the file named
    const out = downloads
      ? (/-(?:o(?:utf(?:ile)?)?|destination)\s+['"]?([^\s'";)]+)/i.exec(statement)?.[1] ??
        /\.downloadfile(?:async)?\s*\(\s*['"][^'"]*['"]\s*,\s*['"]([^'"]+)['"]/i.exec(statement)?.[1])
      : undefined;
    if (out) files.set(fileKey(out), url);
    const assigned = /^\s*\$([\w:]+)\s*=/.exec(statement)?.[1]?.toLowerCase();
    if (assigned && downloads && !out) fetched.set(assigned, url);
    if (EVAL.test(statement)) {
      if (downloads && !out) return url;
      for (const m of statement.matchAll(/\$([\w:]+)/g)) {
        const held = fetched.get(m[1]!.toLowerCase());
        if (held) return held;
      }
    }
    // `./i.ps1`, `& .\i.ps1`, `. ./i.ps1`, `powershell -File i.ps1`, `Start-Process p.exe`: the file run
    const run = /^\s*(?:[&.]\s+)?['"]?([^\s'"]+)/.exec(
      statement.replace(/^\s*(?:pwsh|powershell)(?:\.exe)?\s+.*?-f(?:ile)?\s+/i, '').replace(/^\s*(?:start-process|start|saps)\s+(?:-filepath\s+)?/i, ''),
    )?.[1];
    const ran = run === undefined || out ? undefined : files.get(fileKey(run));
    if (ran) return ran;
  }
  return null;
}

/** A file's name as PowerShell statements spell it, `./i.ps1`, `.\i.ps1` and `i.ps1` alike. */
function fileKey(path: string): string {
  return path
    .replace(/^\.[\\/]/, '')
    .replace(/\\/g, '/')
    .toLowerCase();
}

/** A download that code runs, as the invocation of `curl` the pipeline rules read (`curl URL | sh`). */
export function downloadRun(inv: Invocation, url: string): Invocation {
  return { ...inv, program: 'curl', args: [plainWord(url)] };
}
