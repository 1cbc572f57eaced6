import type { Argv } from 'yargs';
import { AxmeError } from '../../model/errors.ts';
import { LIMITS } from '../../model/limits.ts';
import type { Diagnostic, ItemsByKind } from '../../knowledge/core/state.ts';
import type { KindName } from '../../model/kind.ts';
import { SPECS } from '../../model/paths.ts';
import { note, out, printJson, readStdin, SilentExit, withKb, type CliIO } from '../io.ts';
import { diagnosticLine } from '../render.ts';

export const atOption = (y: Argv) =>
  y.option('at', { type: 'string', describe: 'read the knowledge as it was: a commit, ~N (N commits back) or a date ("2026-01-31", "3 days ago")' });

export const listOptions = (y: Argv, statuses: readonly string[]) =>
  y
    .option('all', { type: 'boolean', describe: 'every status, not only live items' })
    .option('status', { type: 'string', array: true, choices: statuses, describe: 'only these statuses' });

/** --allow-secret, and --stdin <field> to read one long text field from standard input. */
export const writeOptions = (y: Argv, stdinFields: string[]) => {
  const withSecret = y.option('allow-secret', { type: 'boolean', describe: 'store content that looks like a credential anyway' });
  return stdinFields.length
    ? withSecret.option('stdin', { type: 'string', choices: stdinFields, describe: 'read this field from standard input (for long or multi-line text)' })
    : withSecret;
};

/** The field named by --stdin, read from standard input. */
export async function stdinFields(io: CliIO, a: Record<string, unknown>, allowed: string[]): Promise<Record<string, string>> {
  const field = a.stdin as string | undefined;
  if (!field) return {};
  if (!allowed.includes(field)) throw new AxmeError('INVALID_INPUT', `--stdin takes one of ${allowed.join(', ')}`);
  if (a[field] !== undefined) throw new AxmeError('INVALID_INPUT', `--${field} and --stdin ${field} both give ${field}: use one`);
  return { [field]: await readStdin(io, LIMITS.text * 4) };
}

/** Files that could not be read are reported on stderr; the listing goes on without them. */
export function printDiagnostics(io: CliIO, diagnostics: Diagnostic[], json = false): void {
  for (const d of diagnostics) note(io, json ? JSON.stringify({ diagnostic: d }) : `axme: ${diagnosticLine(d)}`);
}

type Args = Record<string, unknown> & { C?: string; json?: boolean };

/** `<kind> list`: live items by default, --all / --status / --at, one line per item or --json. */
export function listCommand<K extends KindName>(io: CliIO, kind: K, statuses: readonly string[], line: (item: ItemsByKind[K][number]) => string, extra: (y: Argv) => Argv = (y) => y) {
  return {
    command: 'list',
    describe: `list ${SPECS[kind].dir} (live ones unless --all or --status)`,
    builder: (y: Argv) => extra(listOptions(atOption(y), statuses)),
    handler: (a: Args) =>
      withKb(io, a, async (kb) => {
        const { listItems } = await import('../../knowledge/items/list-items.ts');
        const r = await listItems(kb, { kind, at: a.at as string | undefined, all: !!a.all, status: a.status as string[] | undefined, type: a.type as string | undefined });
        printDiagnostics(io, r.diagnostics, !!a.json);
        if (a.json) return printJson(io, r.items);
        for (const item of r.items as Array<ItemsByKind[K][number]>) out(io, `${line(item)}${'store' in item ? '  [workspace]' : ''}`);
      }),
  };
}

/** `<kind> show <ref>`: the stored file as it is, or the parsed item with --json. */
export function showCommand(io: CliIO, kind: KindName, positional: string, describe: string) {
  return {
    command: `show <${positional}>`,
    describe,
    builder: (y: Argv) => atOption(y).positional(positional, { type: 'string', describe: 'ID (like D-001), alias or slug' }),
    handler: (a: Args) =>
      withKb(io, a, async (kb) => {
        const { showItem } = await import('../../knowledge/items/show-item.ts');
        const r = await showItem(kb, { kind, ref: String(a[positional]), at: a.at as string | undefined });
        if (a.json) return printJson(io, { ...r.item, path: r.path, location: r.location, ...(r.store ? { store: r.store } : {}) });
        out(io, r.text);
      }),
  };
}

/** A check's report (fsck, check): the result as JSON, or the findings on stdout and `summary` on stderr; exit 1 unless ok. */
export function reportFindings(io: CliIO, json: boolean | undefined, r: { ok: boolean; findings: Diagnostic[] }, summary: () => string): void {
  if (json) printJson(io, r);
  else {
    for (const f of r.findings) out(io, diagnosticLine(f));
    note(io, summary());
  }
  if (!r.ok) throw new SilentExit(1);
}
