import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { operationExports } from '../scripts/command-index.ts';
import { OPERATIONS } from '../src/operations/index.ts';

// One naming rule for an operation's names (docs/cli.md, "Names"): its id is its command words
// joined by dots, its export is the id in camelCase, its MCP tool is axme_<snake_case>, its module
// is under the folder of its first word.

const camel = (id: string) => id.replace(/[.-]([a-z])/g, (_m, c: string) => c.toUpperCase());

describe('the names of an operation', () => {
  test('the id is the CLI words joined by dots (lower case, at most two words, also without CLI words)', () => {
    for (const op of OPERATIONS) {
      assert.match(op.id, /^[a-z][a-z-]*(\.[a-z][a-z-]*)?$/, op.id);
      if (op.cli) assert.equal(op.id, op.cli.command.join('.'), `${op.id}: axme ${op.cli.command.join(' ')}`);
    }
    assert.equal(new Set(OPERATIONS.map((op) => op.id)).size, OPERATIONS.length, 'ids are unique');
  });

  test('the export is the id in camelCase', async () => {
    const where = await operationExports();
    for (const op of OPERATIONS) assert.equal(where.get(op)!.name, camel(op.id), `${op.id} in src/operations/${where.get(op)!.file}`);
  });

  test("the module is in the folder of the id's first word (decision/add.ts); a one-word operation may also sit at the top", async () => {
    const where = await operationExports();
    for (const op of OPERATIONS) {
      const file = where.get(op)!.file;
      const [first, second] = op.id.split('.');
      const folder = file.includes('/') ? file.split('/')[0] : null;
      if (second !== undefined || folder !== null)
        assert.equal(folder, first, `${op.id} is declared in src/operations/${file}: move it under src/operations/${first}/`);
    }
  });

  test('the tool is axme_<snake_case>, one per operation', () => {
    const tools = OPERATIONS.flatMap((op) => (op.mcp ? [op.mcp.tool] : []));
    for (const t of tools) assert.match(t, /^axme_[a-z]+(_[a-z]+)*$/);
    assert.equal(new Set(tools).size, tools.length);
  });
});
