import type { Invocation } from './command.ts';
import type { PipeReading } from './fed-input.ts';
import type { SimpleCommand } from './syntax.ts';
import { packageSettingRule, type TransportFinding, transportFinding } from './transport-settings.ts';

/**
 * A package manager's settings file written by the command line with text it tells (`echo
 * 'registry=http://…' >> .npmrc`, a heredoc into `.yarnrc.yml`, `printf … | tee bunfig.toml`):
 * each setting in that text is judged as the package manager's own `config set` of it is
 * (transport-settings.ts): a registry or index over plain http to another machine, TLS checks
 * off. Every later install in the folder reads the file, as it reads `npm config set`'s.
 */

/** The files a package manager reads its settings from, by base name, and how a line sets a key. */
const SETTINGS_FILES: Record<string, 'ini' | 'yaml' | 'toml'> = {
  '.npmrc': 'ini',
  '.yarnrc': 'ini',
  '.yarnrc.yml': 'yaml',
  'bunfig.toml': 'toml',
  'pip.conf': 'ini',
  'pip.ini': 'ini',
  'uv.toml': 'toml',
  'pyproject.toml': 'toml',
  'poetry.toml': 'toml',
  '.condarc': 'yaml',
  condarc: 'yaml',
};

/** The redirections that write into their file. */
const WRITES = new Set(['>', '>|', '>>', '&>', '&>>']);

/** The settings a file's text sets: `[key, value]`, keys lower-cased; a URL under a TOML table of indexes or sources (`[[tool.uv.index]] url = …`) is an index's. */
function settingsOf(text: string, kind: 'ini' | 'yaml' | 'toml'): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  let table = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\[?([^\]]*)\]\]?$/.exec(line);
    if (header) {
      table = header[1]!.toLowerCase();
      continue;
    }
    const m =
      kind === 'yaml'
        ? /^-?\s*["']?([^\s"':]+)["']?\s*:(?:\s+|$)(.*)$/.exec(line)
        : (/^["']?([^\s"'=]+)["']?\s*=\s*(.*)$/.exec(line) ?? (kind === 'ini' ? /^["']?([^\s"']+)["']?\s+(.*)$/.exec(line) : null));
    if (!m) continue;
    const key = m[1]!.toLowerCase();
    const value = m[2]!.replace(/^["']|["']$/g, '');
    out.push([kind === 'toml' && key === 'url' && /index|source/.test(table) ? 'index-url' : key, value]);
  }
  return out;
}

/** The finding on a stage that writes a settings file (SETTINGS_FILES) with a setting that sends installs or credentials elsewhere; null for none. */
export function writtenSettings(cmd: SimpleCommand, inv: Invocation | null, reading: PipeReading): TransportFinding | null {
  const targets = [
    ...cmd.redirects.filter((r) => WRITES.has(r.op) && r.target).map((r) => r.target!.value),
    ...(inv?.program === 'tee' ? inv.args.map((a) => a.value).filter((v) => !v.startsWith('-')) : []),
  ];
  const files = targets.filter((t) => Object.hasOwn(SETTINGS_FILES, t.slice(t.lastIndexOf('/') + 1)));
  if (!files.length) return null;
  const text = reading.writes(cmd);
  if (!text) return null;
  for (const file of files) {
    for (const [key, value] of settingsOf(text, SETTINGS_FILES[file.slice(file.lastIndexOf('/') + 1)]!)) {
      const rule = packageSettingRule(key, value);
      if (rule) return transportFinding(rule, `\`${file}\` is written with \`${key}\` set to \`${value}\`, which every later install there reads`);
    }
  }
  return null;
}
