import { z } from 'zod';
import type { ScanOracleResult } from '../../knowledge/items/oracle/scan-oracle.ts';
import { defineOperation, SAVE } from '../operation.ts';

/** oracle.scan: `axme oracle scan`, `axme_oracle_scan`. */
export const oracleScan = defineOperation({
  id: 'oracle.scan',
  summary: 'Scan the project into the oracle',
  description:
    'Detect the stack (languages, package managers, frameworks, test runners), structure (folders, entry points, workspaces) and patterns (lint/format, CI, agent instructions) of the working tree and write oracle/stack.md, structure.md, patterns.md in one commit. Hand-written text on the pages is kept; nothing new means no commit.',
  input: { dry_run: z.boolean().optional().describe('report what would change, commit nothing') },
  output: z.looseObject({
    commit: z.string().nullable().describe('the commit written (null: nothing new, or a dry run)'),
    pages: z.array(z.looseObject({})).describe('each oracle page and whether it changed'),
    facts: z.looseObject({}).describe('what was detected'),
    truncated: z.boolean().describe('the file list hit its bound'),
    dryRun: z.boolean().describe('nothing was committed'),
  }),
  annotations: SAVE,
  write: false,
  mcp: { tool: 'axme_oracle_scan' },
  async run(kb, input): Promise<ScanOracleResult> {
    const { scanOracle } = await import('../../knowledge/items/oracle/scan-oracle.ts');
    return scanOracle(kb, { dryRun: input.dry_run });
  },
  cli: {
    command: ['oracle', 'scan'],
    describe: 'detect the stack, structure and patterns of the working tree and write oracle/*.md in one commit (nothing new: no commit)',
    help: { dry_run: 'show what would be written, commit nothing' },
    // the scan's result as it is, its text included
    json: (r) => r,
  },
  json: ({ text: _t, ...r }) => r,
  text: (r) => r.text,
});
