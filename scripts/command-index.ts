// The CLI's start-up index, generated from the operation declarations (run by scripts/reference.ts):
// src/cli/command-index.ts, which loads each first word's operations only when a command line
// needs them, and the GROUPS block of src/cli/command-line.ts, which the loader's small bundle
// reads without importing anything. Both are checked in, and `npm run docs:check` fails when
// they differ from what the declarations say.
import { readdirSync } from 'node:fs';
import { join, sep } from 'node:path';
import { HAND_COMMANDS } from '../src/cli/command-tree.ts';
import { OPERATIONS } from '../src/operations/index.ts';
import type { AnyOperation } from '../src/operations/operation.ts';

const root = join(import.meta.dirname, '..');

/** Where each operation is exported: its module under src/operations/ and its export name. */
export async function operationExports(): Promise<Map<AnyOperation, { file: string; name: string }>> {
  const declared = new Set(OPERATIONS);
  const found = new Map<AnyOperation, { file: string; name: string }>();
  // the folder of each first word (decision/add.ts) and the shared modules at the top
  const files = readdirSync(join(root, 'src/operations'), { recursive: true, encoding: 'utf8' })
    .map((f) => f.split(sep).join('/'))
    .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
    .sort();
  for (const file of files) {
    const mod = (await import(join(root, 'src/operations', file))) as Record<string, unknown>;
    for (const [name, value] of Object.entries(mod)) {
      if (!declared.has(value as AnyOperation)) continue;
      const op = value as AnyOperation;
      const before = found.get(op);
      if (before) throw new Error(`operation ${op.id} is exported twice: ${before.file} (${before.name}) and ${file} (${name}); export it from one module`);
      found.set(op, { file, name });
    }
  }
  for (const op of OPERATIONS) if (!found.has(op)) throw new Error(`operation ${op.id} is in OPERATIONS but no module of src/operations/ exports it`);
  return found;
}

/** The operations with CLI words, by first word, in the order of OPERATIONS. */
export function operationsByWord(): Map<string, AnyOperation[]> {
  const byWord = new Map<string, AnyOperation[]>();
  for (const op of OPERATIONS) if (op.cli) byWord.set(op.cli.command[0]!, [...(byWord.get(op.cli.command[0]!) ?? []), op]);
  return byWord;
}

/** The text of src/cli/command-index.ts. */
export async function commandIndexText(): Promise<string> {
  const where = await operationExports();
  const entries = [...operationsByWord()].map(([word, ops]) => {
    const files = [...new Set(ops.map((op) => where.get(op)!.file))];
    const mod = (op: AnyOperation) => `m${files.indexOf(where.get(op)!.file)}.${where.get(op)!.name}`;
    const imports = files.map((f) => `import('../operations/${f}')`).join(', ');
    const names = files.map((_, i) => `m${i}`).join(', ');
    return [`  '${word}': async () => {`, `    const [${names}] = await Promise.all([${imports}]);`, `    return [${ops.map(mod).join(', ')}];`, '  },'].join(
      '\n',
    );
  });
  return [
    '// Generated from the operation declarations by scripts/command-index.ts (npm run docs); npm run',
    "// docs:check fails when it is stale. Do not edit: an operation's `cli.command` says where it goes.",
    "import type { AnyOperation } from '../operations/operation.ts';",
    '',
    '/**',
    ' * The operations under each first word of the command line, in the order of OPERATIONS. A word',
    " * loads its operations' modules only when a command line needs them: `axme decision list` imports",
    ' * the decision operations, not every operation (src/cli/operation-tree.ts builds their commands).',
    ' */',
    'export const OPERATION_WORDS: Readonly<Record<string, () => Promise<AnyOperation[]>>> = {',
    ...entries,
    '};',
    '',
  ].join('\n');
}

/** The words with subcommands (`decision add`): the operations' groups and the hand-written ones. */
export function groupWords(): string[] {
  const ops = [...operationsByWord()].filter(([, list]) => list.some((op) => op.cli!.command.length > 1)).map(([word]) => word);
  return [...new Set([...ops, ...HAND_COMMANDS.flatMap((h) => h.groups ?? [])])].sort();
}

/** src/cli/command-line.ts with its GROUPS block (between `// generated:groups` and `// /generated`) as the declarations say. */
export function withGroups(text: string): string {
  const block = /(\/\/ generated:groups\n)[\s\S]*?(\n\/\/ \/generated)/;
  if (!block.test(text)) throw new Error('src/cli/command-line.ts: the GROUPS block lost its markers (// generated:groups ... // /generated)');
  // kept as written: the formatter would fold or unfold the list as its length changes
  const words = groupWords()
    .map((w) => `  '${w}',\n`)
    .join('');
  return text.replace(
    block,
    `$1// biome-ignore format: written by npm run docs (scripts/command-index.ts)\nexport const GROUPS: ReadonlySet<string> = new Set([\n${words}]);$2`,
  );
}
