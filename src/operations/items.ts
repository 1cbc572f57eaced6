import { z } from 'zod';
import type { ItemsByKind } from '../knowledge/core/state.ts';
import type { ListResult } from '../knowledge/items/list-items.ts';
import type { ShowResult } from '../knowledge/items/show-item.ts';
import { formatId } from '../model/ids.ts';
import type { KindName } from '../model/kind.ts';
import { type IdKind, KINDS } from '../model/kinds.ts';
import { SPECS } from '../model/paths.ts';
import { printShown, Shown, shownJson } from './digests.ts';
import { diagnosticNotes } from './lines.ts';
import { type AnyOperation, defineOperation, READ } from './operation.ts';
import { atParam } from './params.ts';

const Listed = z.looseObject({
  items: z
    .array(z.looseObject({}))
    .describe(
      'the items, sorted by display ID (memories by slug); a stale one (its anchors changed in the code since it was learned: `axme verify`) has `stale`, the reason',
    ),
  diagnostics: z.array(z.looseObject({})).describe('files of this kind that could not be read (they are left out)'),
  commit: z.string().describe('the commit read'),
});

type Item<K extends KindName> = ItemsByKind[K][number];

/** One line per item; `[workspace]` after one that comes from the workspace store; a stale one says so and why. */
const listLine =
  <K extends KindName>(line: (item: Item<K>) => string) =>
  (item: Item<K>) => {
    const stale = (item as { stale?: string }).stale;
    return `${line(item)}${'store' in item ? '  [workspace]' : ''}${stale ? `  (may be outdated: ${stale})` : ''}`;
  };

/**
 * `<kind> list` (the CLI's own: the agent's reads are the paged digests): live items by default,
 * --all, --status, --at; one line per item, or a JSON array of the items; files that could not be
 * read are reported on stderr and left out.
 */
export function listOp<K extends KindName>(
  kind: K,
  statuses: readonly [string, ...string[]],
  line: (item: Item<K>) => string,
  extra: z.ZodRawShape = {},
): AnyOperation {
  const row = listLine(line);
  return defineOperation({
    id: `${kind}.list`,
    summary: `List ${SPECS[kind].dir}`,
    description: `The ${SPECS[kind].dir} of the store, live ones unless \`all\` or \`status\` say otherwise, sorted by display ID; files that could not be read are reported, not listed.`,
    input: {
      at: atParam,
      all: z.boolean().optional().describe('every status, not only live items'),
      status: z.array(z.enum(statuses)).optional().describe('only these statuses'),
      ...extra,
    },
    output: Listed,
    annotations: READ,
    write: false,
    cli: {
      command: [kind, 'list'],
      describe: `list ${SPECS[kind].dir} (live ones unless --all or --status)`,
      print: (r, p) => {
        for (const n of diagnosticNotes(r.diagnostics, p.json)) p.note(n);
        if (p.json) return p.printJson(r.items);
        for (const item of r.items) p.out(row(item));
      },
    },
    mcp: null,
    async run(kb, input): Promise<ListResult<K>> {
      const { listWithStaleness } = await import('../knowledge/views/stale-marks.ts');
      const { at, all, status, type } = input as { at?: string; all?: boolean; status?: string[]; type?: string };
      return listWithStaleness(kb, { kind, at, all: !!all, status, type });
    },
    json: (r) => ({ items: r.items, diagnostics: r.diagnostics, commit: r.commit }),
    text: (r) => (r.items as Array<Item<K>>).map(row).join('\n'),
  });
}

/** `<kind> show <id>` for the kinds whose MCP read is a listing (backlog, questions): the stored file, or the item as JSON. */
export function showOp<T extends object>(kind: IdKind): AnyOperation {
  const { noun, idPrefix } = KINDS[kind];
  const example = formatId(idPrefix, 1);
  return defineOperation({
    id: `${kind}.show`,
    summary: `One ${noun}`,
    description: `A ${noun} by ID (${example}), alias or slug: the stored file as it is, or the item in full as JSON.`,
    input: { id: z.string().min(1).max(200).describe(`ID (like ${example}), alias or slug`), at: atParam },
    output: Shown,
    annotations: READ,
    write: false,
    cli: { command: [kind, 'show'], describe: `show one ${noun}`, positional: ['id'], print: (r, p) => printShown(r, p) },
    mcp: null,
    async run(kb, input): Promise<ShowResult<T>> {
      const { showItem } = await import('../knowledge/items/show-item.ts');
      const { withAuthor } = await import('../knowledge/history/item-authors.ts');
      return withAuthor(kb, (await showItem(kb, { kind, ref: input.id, at: input.at })) as ShowResult<T>, input.at);
    },
    json: shownJson,
    text: (r) => r.text,
  });
}
