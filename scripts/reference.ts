// Generates the reference blocks of docs/cli.md and docs/mcp.md, and the CLI's start-up index
// (scripts/command-index.ts), from the operation declarations (src/operations/). `node --import tsx scripts/reference.ts` rewrites them; `--check` exits 1
// when a doc differs from what the declarations say (run in CI, so docs cannot drift).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { cliName, fieldsOf, flagOf } from '../src/cli/operation-command.ts';
import { toolInput, toolOutput } from '../src/mcp/operation-tool.ts';
import { OPERATIONS } from '../src/operations/index.ts';
import type { AnyOperation } from '../src/operations/operation.ts';
import { commandIndexText, withGroups } from './command-index.ts';

type Field = { type?: string | string[]; enum?: unknown[]; anyOf?: Field[]; items?: Field; description?: string };

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function valueOf(f: Field): string {
  if (f.enum) return f.enum.join('|');
  if (f.anyOf?.some((x) => x.type === 'array')) return '<a,b>';
  if (f.type === 'array') return f.items?.enum ? `<${f.items.enum.join('|')}>...` : '<value>...';
  if (f.type === 'number' || f.type === 'integer') return '<n>';
  if (f.type === 'boolean') return '';
  return '<text>';
}

function typeOf(f: Field): string {
  if (Array.isArray(f.type)) return f.type.join(' or ');
  if (f.enum) return f.enum.map((v) => `\`${String(v)}\``).join(' \\| ');
  if (f.anyOf?.some((x) => x.type === 'array')) return 'string[] (or one string, comma-separated)';
  if (f.type === 'array') return `${f.items?.enum ? f.items.enum.map((v) => `\`${String(v)}\``).join(' \\| ') : (f.items?.type ?? 'value')}[]`;
  return f.type ?? 'any';
}

function cliBlock(op: AnyOperation): string {
  const { properties, required } = fieldsOf(op, 'cli');
  const { positional = [], stdin = [], variadic, alias = {}, help = {}, stdinJson } = op.cli!;
  const rows = stdinJson
    ? [`| standard input | required: the \`${op.mcp?.tool ?? op.id}\` arguments, as one JSON object |`]
    : Object.entries(properties).map(([name, f]) => {
        const word = cliName(op, name);
        const short = (alias as Record<string, string>)[name];
        const arg = positional.includes(name)
          ? `\`${required.has(name) ? '<' : '['}${word}${variadic && name === positional.at(-1) ? '..' : ''}${required.has(name) ? '>' : ']'}\``
          : `\`${short ? `-${short}, ` : ''}${word.length === 1 ? '-' : '--'}${flagOf(word)}${valueOf(f) ? ` ${cell(valueOf(f))}` : ''}\``;
        const req = required.has(name) ? (stdin.includes(name) ? `required (here or with \`--stdin ${name}\`)` : 'required') : '';
        return `| ${arg} | ${[req, cell((help as Record<string, string>)[name] ?? f.description ?? '')].filter(Boolean).join(': ')} |`;
      });
  if (stdin.length) rows.push(`| \`--stdin ${stdin.join('\\|')}\` | read that field from standard input (for long or multi-line text) |`);
  if (op.write) rows.push('| `--allow-secret` | store content that looks like a credential anyway |');
  // the tool's structured content, unless the CLI prints its own JSON (an array, the core's result as it is)
  const same = op.mcp && !op.cli!.json && !op.cli!.print;
  rows.push(`| \`--json\` | print the result as JSON${same ? " (the same object as the MCP tool's structured content)" : ''} |`);
  return [`\`axme ${op.cli!.command.join(' ')}\`: ${op.summary.toLowerCase()}.`, '', '| option | |', '| --- | --- |', ...rows].join('\n');
}

function mcpBlock(op: AnyOperation): string {
  const input = z.toJSONSchema(z.object(toolInput(op)), { io: 'input', unrepresentable: 'any' }) as { properties: Record<string, Field>; required?: string[] };
  const output = z.toJSONSchema(toolOutput(op), { io: 'output', unrepresentable: 'any' }) as { properties?: Record<string, Field> };
  const req = new Set(input.required ?? []);
  const hints = Object.entries(op.annotations)
    .filter(([, v]) => v)
    .map(([k]) => k.replace(/Hint$/, ''));
  return [
    `#### \`${op.mcp!.tool}\``,
    '',
    `${op.description} Annotations: ${hints.length ? hints.join(', ') : 'none'}.${op.mcp!.upFront ? ' Loaded up front by clients that load tools on demand.' : ''}${op.cli ? ` CLI twin: \`axme ${op.cli.command.join(' ')}\`.` : ''}`,
    '',
    '| parameter | type | |',
    '| --- | --- | --- |',
    ...Object.entries(input.properties).map(([name, f]) => `| \`${name}\`${req.has(name) ? '' : '?'} | ${typeOf(f)} | ${cell(f.description ?? '')} |`),
    '',
    "Structured content (the output schema: `text`, the reply in words, then the result's fields, the item's own first):",
    '',
    '| field | type | |',
    '| --- | --- | --- |',
    ...Object.entries(output.properties ?? {}).map(([name, f]) => `| \`${name}\` | ${typeOf(f)} | ${cell(f.description ?? '')} |`),
  ].join('\n');
}

/** The table of every tool, in the order the server lists them: its name, what it does, its CLI twin. */
function toolsTable(): string {
  return [
    '| tool | what it does | CLI twin |',
    '| --- | --- | --- |',
    ...OPERATIONS.filter((o) => o.mcp).map(
      (o) => `| [\`${o.mcp!.tool}\`](#${o.mcp!.tool}) | ${cell(o.summary)} | ${o.cli ? `\`axme ${o.cli.command.join(' ')}\`` : '—'} |`,
    ),
  ].join('\n');
}

/** Replaces each `<!-- generated:<key> -->` ... `<!-- /generated -->` block of a doc. */
function fill(text: string, blocks: Map<string, string>, file: string): string {
  const seen = new Set<string>();
  const outText = text.replace(/<!-- generated:(\S+) -->\n[\s\S]*?<!-- \/generated -->/g, (_m, key: string) => {
    const body = blocks.get(key);
    if (body === undefined) throw new Error(`${file}: no operation gives the block ${key}`);
    seen.add(key);
    return `<!-- generated:${key} -->\n${body}\n<!-- /generated -->`;
  });
  for (const key of blocks.keys()) if (!seen.has(key)) throw new Error(`${file}: add a block for ${key}: <!-- generated:${key} --> ... <!-- /generated -->`);
  return outText;
}

const root = join(import.meta.dirname, '..');
const check = process.argv.includes('--check');
const docs: Array<[string, Map<string, string>]> = [
  ['docs/cli.md', new Map(OPERATIONS.filter((o) => o.cli).map((o) => [`cli:${o.id}`, cliBlock(o)]))],
  ['docs/mcp.md', new Map([['mcp:tools', toolsTable()], ...OPERATIONS.filter((o) => o.mcp).map((o): [string, string] => [`mcp:${o.id}`, mcpBlock(o)])])],
];
// the CLI's start-up index (scripts/command-index.ts): a whole file, and a block of another
const code: Array<[string, (before: string) => string]> = [
  ['src/cli/command-index.ts', () => index],
  ['src/cli/command-line.ts', withGroups],
];
const index = await commandIndexText();
let stale = 0;
for (const [file, make] of [...docs.map(([file, blocks]): [string, (before: string) => string] => [file, (before) => fill(before, blocks, file)]), ...code]) {
  const path = join(root, file);
  const before = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const after = make(before);
  if (after === before) continue;
  if (check) {
    stale++;
    process.stderr.write(`${file} is not what the operation declarations say: run npm run docs, then commit it\n`);
  } else {
    writeFileSync(path, after);
    process.stderr.write(`updated ${file}\n`);
  }
}
process.exit(stale ? 1 : 0);
