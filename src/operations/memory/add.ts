import { z } from 'zod';
import type { AddResult } from '../../knowledge/core/results.ts';
import type { MemorySupersedeResult } from '../../knowledge/items/memory/supersede-memory.ts';
import { type Memory, MemoryInput } from '../../model/memory.ts';
import { defineOperation, SAVE } from '../operation.ts';
import { AddedOutput, addedJson, savedAnchors } from '../results.ts';

/** What a save of a memory gives: a new one, an equal one already stored, or the replacement of one. */
export type MemorySaved = ({ kind: 'added' } & AddResult<Memory>) | ({ kind: 'superseded' } & MemorySupersedeResult);

const MemoryRef = z.string().min(1).max(200);

/** memory.add: `axme memory add`, `axme_save_memory`. */
export const memoryAdd = defineOperation({
  id: 'memory.add',
  summary: 'Save a memory',
  description:
    'Save feedback (how the user wants work done) or a pattern (how this code does things). An equal active memory is returned instead of a duplicate. To replace one, pass `supersedes` with its slug: the old one is kept in history as superseded.',
  input: { ...MemoryInput.shape, supersedes: MemoryRef.optional().describe('slug of the memory this one replaces') },
  output: AddedOutput.extend({ superseded: z.looseObject({}).optional().describe('with `supersedes`: the old memory, now superseded') }),
  annotations: SAVE,
  write: true,
  cli: { command: ['memory', 'add'], stdin: ['description', 'body'], names: { anchors: 'anchor' } },
  mcp: { tool: 'axme_save_memory', upFront: true },
  async run(kb, { supersedes, ...input }, opts): Promise<MemorySaved> {
    if (supersedes !== undefined) {
      const { supersedeMemory } = await import('../../knowledge/items/memory/supersede-memory.ts');
      return { kind: 'superseded', ...(await supersedeMemory(kb, { ...input, slug: supersedes }, opts)) };
    }
    const { addMemory } = await import('../../knowledge/items/memory/add-memory.ts');
    return { kind: 'added', ...(await addMemory(kb, input, opts)) };
  },
  anchored: (r) => (r.kind === 'superseded' || !r.duplicate ? [savedAnchors('memory', r.item)] : []),
  json: (r) => (r.kind === 'added' ? addedJson(withoutKind(r)) : supersededJson(r)),
  text: (r) =>
    r.kind === 'superseded'
      ? supersededText(r)
      : [r, ...(r.others ?? [])]
          .map((x) => `${x.duplicate ? 'Memory already stored' : 'Memory saved'}: ${x.item.slug} (${x.item.type}) -> ${x.location}`)
          .join('\n'),
});

/** memory.supersede: `axme memory supersede <slug>` (over MCP: `axme_save_memory` with `supersedes`). */
export const memorySupersede = defineOperation({
  id: 'memory.supersede',
  summary: 'Replace a memory by a new one (one commit)',
  description:
    'The new memory supersedes the old one in one commit, linked both ways; the old one is kept as superseded. Scope, keywords and anchors carry over unless given.',
  input: { slug: MemoryRef.describe('the memory to replace: its slug'), ...MemoryInput.shape },
  output: AddedOutput.extend({ superseded: z.looseObject({}).describe('the old memory, now superseded') }),
  annotations: SAVE,
  write: true,
  cli: { command: ['memory', 'supersede'], positional: ['slug'], stdin: ['description', 'body'], names: { anchors: 'anchor' } },
  mcp: null,
  async run(kb, input, opts): Promise<MemorySaved & { kind: 'superseded' }> {
    const { supersedeMemory } = await import('../../knowledge/items/memory/supersede-memory.ts');
    return { kind: 'superseded', ...(await supersedeMemory(kb, input, opts)) };
  },
  anchored: (r) => [savedAnchors('memory', r.item)],
  json: supersededJson,
  text: supersededText,
});

function withoutKind<T extends { kind: string }>(r: T): Omit<T, 'kind'> {
  const { kind: _kind, ...rest } = r;
  return rest;
}

function supersededJson(r: MemorySaved & { kind: 'superseded' }): Record<string, unknown> {
  const { item, ...rest } = withoutKind(r);
  return { ...item, ...rest, duplicate: false };
}

function supersededText(r: MemorySupersedeResult): string {
  return `Memory saved: ${r.item.slug} (${r.item.type}) -> ${r.location} (supersedes ${r.superseded.slug})`;
}

export type MemoryAddInput = z.input<typeof MemoryInput>;
